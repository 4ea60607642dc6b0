// Hostile input on the site's JS, fourth pass (issue 39): each test failed on main before its fix. The generated-input
// harness (tests/js/generated.test.mjs) holds the same promises over random pastes and links.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { analysePaste, hasKey, resultFromQuery, resultQuery, TROUBLE_KINDS } from '../../site/assets/js/check-core.js';
import { findUsbIds, parseDmesg, parseLsusbVerbose, parseProbe, pastedQuirks, MOST_QUIRK_ENTRIES } from '../../site/assets/js/paste.js';
import { parseEntries, MOST_ENTRIES } from '../../site/assets/js/quirks-core.js';
import { matches, normalise, terms, trimDots } from '../../site/assets/js/filter.js';
import { readQuery, trimWord } from '../../site/assets/js/search-words.js';

const KERNEL = { letters: [...'abcdefghijklmnopqrstuvwxyz'].map((letter) => ({ letter, flag: letter.toUpperCase() })) };
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

function seconds(fn) {
  const started = performance.now();
  fn();
  return (performance.now() - started) / 1000;
}

const hex4 = (n) => n.toString(16).padStart(4, '0');
const manyIds = (n) => Array.from({ length: n }, (_, i) => `${hex4(i >> 8)}:${hex4(i & 0xffff)}`);

// 6. Quadratic work from a link or a paste.
test('a /check/ link with 20,000 quirk entries is read fast, capped and deduplicated', () => {
  const q = manyIds(20000).map((id) => `${id}:u`).join(',');
  let result;
  assert.ok(seconds(() => { result = resultFromQuery(new URLSearchParams(`d=152d:0578&q=${q}`)); }) < 0.5);
  assert.ok(result.quirks.length <= 128 && result.quirks.length > 0);
  assert.equal(new Set(result.quirks.map((x) => x.id)).size, result.quirks.length);
  const twice = resultFromQuery(new URLSearchParams('d=152d:0578&q=152d:0578:u,152d:0578:k'));
  assert.deepEqual(twice.quirks, [{ id: '152d:0578', letters: 'u' }]);
});

test('a pasted usb-storage.quirks line with 20,000 entries is read fast, capped and deduplicated', () => {
  const line = `[    0.000000] Kernel command line: usb-storage.quirks=${manyIds(20000).map((id) => `${id}:u`).join(',')}`;
  let quirks;
  assert.ok(seconds(() => { quirks = pastedQuirks(line); }) < 0.5);
  assert.equal(quirks.length, MOST_QUIRK_ENTRIES);
  assert.ok(seconds(() => analysePaste(line)) < 2);
});

test('a paste with 20,000 distinct IDs is listed in linear time', () => {
  const text = manyIds(20000).join(' ');
  let ids;
  assert.ok(seconds(() => { ids = findUsbIds(text); }) < 1);
  assert.equal(ids.length, 20000);
});

test('/quirks/?entries= with 10,000 entries is read fast and says what it left out', () => {
  const text = manyIds(10000).map((id) => `${id}:u`).join(',');
  let parsed;
  assert.ok(seconds(() => { parsed = parseEntries(text, KERNEL); }) < 0.5);
  assert.equal(parsed.entries.length, MOST_ENTRIES);
  assert.match(parsed.problems[0].text, /Only the first 64 of 10000 entries/);
});

test('filter and search queries of 100,000 dots or "!" are read in linear time', () => {
  const dots = `a${'.'.repeat(100000)}b`;
  assert.ok(seconds(() => terms(dots)) < 0.5);
  assert.ok(seconds(() => normalise(`x ${'.'.repeat(100000)}x`)) < 0.5);
  assert.ok(seconds(() => readQuery(`a${'!'.repeat(100000)}a`, null)) < 0.5);
  assert.ok(seconds(() => readQuery(`${'!'.repeat(100000)}`, null)) < 0.5);
  assert.equal(trimDots('..inc..'), 'inc');
  assert.equal(trimDots('2.5'), '2.5');
  assert.equal(trimWord('"usb3+",'), 'usb3+');
  assert.equal(trimWord('(jms578)'), 'jms578');
});

// 7. Prototype names in /check/ links and pastes.
test('a trouble kind named like a prototype property is not read from a link', () => {
  for (const name of PROTOTYPE_NAMES) {
    const result = resultFromQuery(new URLSearchParams(`d=152d:0578,${name}:3&x=${name}:2`));
    assert.deepEqual(result.trouble, [], name);
    assert.ok(result.trouble.every((e) => hasKey(TROUBLE_KINDS, e.kind)));
  }
});

test('a source letter or platform named like a prototype property finds nothing', () => {
  for (const name of PROTOTYPE_NAMES) {
    assert.equal(hasKey({ pi4: {} }, name), false, name);
    const result = resultFromQuery(new URLSearchParams(`o=uas:5000M:${name}&d=152d:0578,from:${name}`));
    assert.deepEqual(result.orphans, [], name);
    assert.ok(result.devices[0].sources.every((s) => typeof s === 'string'), name);
  }
  assert.equal(hasKey({ pi4: {} }, 'pi4'), true);
});

test('a pasted device named __proto__ pollutes nothing', () => {
  const probe = parseProbe('# device __proto__: 152d:0578 "JMicron" speed 5000M\n# interface __proto__:1.0 class 08 protocol 62 driver uas\n');
  assert.equal(Object.prototype.driver, undefined);
  assert.equal(({}).vid, undefined);
  assert.equal(Object.values(probe.devices)[0].vid, '152d');
  parseDmesg('usb __proto__: New USB device found, idVendor=152d, idProduct=0578');
  assert.equal(({}).vid, undefined);
});

test('a filter word named like a prototype property is a word', () => {
  assert.equal(normalise('constructor toString'), ' constructor tostring ');
  assert.ok(matches(normalise('The constructor kit'), 'constructor'));
});

// 8. `lsusb -v` values were not checked, and resultQuery wrote them unencoded into the result link.
test('an lsusb -v ID that is not four hex digits is no ID, and nothing from a paste adds a link parameter', () => {
  const paste = 'Device Descriptor:\n  bcdUSB 3.20\n  idVendor 0x&platform=pi5&d=dead:beef\n  idProduct 0x0578\n  bcdDevice 1.00\n';
  assert.deepEqual(parseLsusbVerbose(paste).map((d) => d.vid), [null]);
  const found = analysePaste(paste);
  const query = resultQuery(found);
  assert.ok(!query.includes('platform='), query);
  assert.ok([...new URLSearchParams(query).keys()].every((k) => ['host', 'd', 'q', 'x', 'o'].includes(k)), query);
  assert.ok(!query.includes('&d=&'), query);
  const ok = parseLsusbVerbose('Device Descriptor:\n  idVendor 0x152D JMicron\n  idProduct 0x0578 JMS578\n  bcdDevice 1.00\n');
  assert.deepEqual([ok[0].vid, ok[0].pid], ['152d', '0578']);
});

test('resultQuery encodes every value and writes no device whose ID is not an ID', () => {
  const found = { host: 'pi4', devices: [
    { id: '152d:0578', sources: ['lsusb'], storage: true, drivers: ['uas'], speed: '5000M', bcd_device: null, max_power_ma: null,
      max_streams: null, offers_uas: null, uas_refused: 'x&platform=pi5', ports: [] },
    { id: 'dead:beef&platform=pi5', sources: [], storage: false, drivers: [], speed: null, bcd_device: null, max_power_ma: null,
      max_streams: null, offers_uas: null, uas_refused: null, ports: [] }],
  orphans: [], quirks: [], trouble: [] };
  const query = resultQuery(found);
  assert.equal(query, 'host=pi4&d=152d:0578,from:l,disk,drv:uas,at:5000M');
  assert.deepEqual([...new URLSearchParams(query).keys()], ['host', 'd']);
});
