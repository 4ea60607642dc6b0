// "Report this adapter" on /check/: the adapter-report form with the pasted probe report filled in. It fills the
// same form and fields as the probe's own links (scripts/uasdb/probe/formlink.py): the page's data-report-url
// carries the form's template, labels and title prefix from the export, data-report-limit the longest address
// GitHub is sent (formlink.LINK_LIMIT). The field names (usb_id, adapter, probe) are the form's ids; a test checks
// them against .github/ISSUE_TEMPLATE/adapter-report.yml. No DOM here.

// The probe's report markers (REPORT_START and REPORT_END in scripts/uasdb/probe/common.py).
const REPORT_START = '# ---- uasdb report for ';
const REPORT_START_TAIL = ' ----';
const REPORT_END = '# ---- end of uasdb report ----';
const USB_ID = /^[0-9a-f]{4}:[0-9a-f]{4}$/;
const LINE_END = /\r\n|\n|\r/;

function reportStart(line) {
  if (!line.startsWith(REPORT_START) || !line.endsWith(REPORT_START_TAIL)) return null;
  const id = line.slice(REPORT_START.length, line.length - REPORT_START_TAIL.length);
  return id.length === 9 && USB_ID.test(id) ? id : null;
}

// Each probe report in a paste, by USB ID: its lines from the start marker to the end marker, both kept, as the
// issue bot reads them (uasdb.ingest.issue.probe_report). A block cut off before its end is no report; of two for
// one ID the first is kept (the bot refuses two, so only one is ever sent).
export function probeReports(text) {
  const blocks = new Map();
  let id = null;
  let lines = null;
  for (const raw of String(text).split(LINE_END)) {
    const line = raw.trim();
    const start = reportStart(line);
    if (start) {
      id = start;
      lines = [line];
    } else if (lines && line === REPORT_END) {
      lines.push(line);
      if (!blocks.has(id)) blocks.set(id, lines.join('\n'));
      lines = null;
    } else if (lines) {
      lines.push(raw.trimEnd()); // a report is YAML: its indentation is kept
    }
  }
  return blocks;
}

// The form's address with `fields` filled in (title appended to the form's own prefix; empty fields left out),
// or null when it would be longer than `limit`.
export function reportFormUrl(formUrl, fields, limit) {
  const url = new URL(formUrl);
  for (const [name, value] of Object.entries(fields)) {
    if (!value) continue;
    url.searchParams.set(name, name === 'title' ? `${url.searchParams.get('title') || ''}${value}` : value);
  }
  return url.href.length <= limit ? url.href : null;
}
