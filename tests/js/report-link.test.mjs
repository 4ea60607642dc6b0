// site/assets/js/report-link.js: the check page's "Report this adapter" link. The probe's real output for each
// fixture tree is compared with Python's reading in tests/site/test_site_report_this.py; these are the edges.
import test from 'node:test';
import assert from 'node:assert/strict';
import { probeReports, reportFormUrl } from '../../site/assets/js/report-link.js';

const BLOCK = ['# ---- uasdb report for 152d:0578 ----', '  - date: "2026-11-21"', '    host: pi4',
  '    evidence:', '      probe: |-', '        uasdb probe 1', '', '        dmesg: none', '# ---- end of uasdb report ----'];
const FORM = 'https://github.com/uasdb/uasdb/issues/new?template=adapter-report.yml&labels=report-submitted&title=Report:%20';

test('a report block is read whole, indentation and blank lines kept, prompts around it ignored', () => {
  const text = ['pi@raspberrypi:~ $ python3 probe.py', '# uasdb probe 1: ...', ...BLOCK, '# ---- new adapter file x ----', 'id: x'].join('\r\n');
  assert.deepEqual([...probeReports(text)], [['152d:0578', BLOCK.join('\n')]]);
});

test('a block cut off before its end, or with a malformed ID, is no report', () => {
  assert.equal(probeReports(BLOCK.slice(0, -1).join('\n')).size, 0);
  assert.equal(probeReports([BLOCK[0].replace('152d:0578', '152D:0578'), ...BLOCK.slice(1)].join('\n')).size, 0);
  assert.equal(probeReports([BLOCK[0].replace('152d:0578', '152d:05789'), ...BLOCK.slice(1)].join('\n')).size, 0);
});

test('one block per ID; the first of two is kept', () => {
  const second = BLOCK.map((l) => l.replace('host: pi4', 'host: pi5'));
  const other = BLOCK.map((l) => l.replace('152d:0578', '174c:55aa'));
  const found = probeReports([...BLOCK, ...second, ...other].join('\n'));
  assert.deepEqual([...found.keys()], ['152d:0578', '174c:55aa']);
  assert.match(found.get('152d:0578'), /host: pi4/);
});

test('the form address appends the title to the form prefix, leaves empty fields out and decodes back', () => {
  const href = reportFormUrl(FORM, { title: '152d:0578', usb_id: '152d:0578', adapter: null, probe: BLOCK.join('\n') }, 8000);
  const query = new URL(href).searchParams;
  assert.deepEqual([...query.keys()], ['template', 'labels', 'title', 'usb_id', 'probe']);
  assert.equal(query.get('title'), 'Report: 152d:0578');
  assert.equal(query.get('probe'), BLOCK.join('\n'));
});

test('an address over the limit is not made', () => {
  const fields = { title: 'x', probe: 'y'.repeat(500) };
  const length = reportFormUrl(FORM, fields, 1e6).length;
  assert.equal(reportFormUrl(FORM, fields, length), new URL(reportFormUrl(FORM, fields, 1e6)).href);
  assert.equal(reportFormUrl(FORM, fields, length - 1), null);
});
