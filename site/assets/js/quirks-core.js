// usb-storage.quirks= entries: reading what people type, building the line, and what an entry replaces of
// the kernel's built-in flags. `preserveBuiltin` follows preserve_builtin() in scripts/uasdb/publish/kernel.py
// (tests/site/test_site_quirks.py compares the two on every ID of the kernel table). `kernel` is the result
// of /api/v1/kernel.json. No DOM here.

export const PREFIX = 'usb-storage.quirks=';
// The longest value after usb-storage.quirks= that Linux accepts is kernel.quirks_value_max (127: usb.c keeps the
// value in `static char quirks[128]` and refuses a longer one, and then no entry applies at all).

// Python's sorted("".join(...)) on ASCII letters; duplicates dropped.
const sortedLetters = (letters) => [...new Set(letters)].sort().join('');

export function lettersTable(kernel) {
  const byLetter = {};
  for (const row of kernel.letters) byLetter[row.letter] = row;
  return byLetter;
}

export const MOST_ENTRIES = 64;

// Text typed by a person -> entries and problems. Entries are `vid:pid:letters` (letters may be empty
// only when `allowBare`), separated by commas, spaces or new lines; a leading `usb-storage.quirks=` is fine.
export function parseEntries(text, kernel, { allowBare = false } = {}) {
  const table = lettersTable(kernel);
  const entries = [];
  const problems = [];
  let tokens = String(text || '').split(/[\s,]+/).map((t) => t.trim()).filter(Boolean);
  if (tokens.length > MOST_ENTRIES) {
    // Linux reads 127 characters of the line (about ten entries); a link with 10,000 froze the tab.
    problems.push({ token: '', text: `Only the first ${MOST_ENTRIES} of ${tokens.length} entries are read: Linux keeps at most 127 characters of this line.` });
    tokens = tokens.slice(0, MOST_ENTRIES);
  }
  for (const raw of tokens) {
    const token = raw.replace(/^usb-storage\.quirks=/i, '').replace(/^["']|["']$/g, '');
    if (!token) continue;
    const m = /^(?:0x)?([0-9a-fA-F]{4}):(?:0x)?([0-9a-fA-F]{4})(?::([A-Za-z]*))?$/.exec(token);
    if (!m) {
      problems.push({ token: raw, text: `“${raw}” is not an entry: write vid:pid:letters with four hex digits each, like 152d:0578:u.` });
      continue;
    }
    const id = `${m[1]}:${m[2]}`.toLowerCase();
    const typed = (m[3] || '').toLowerCase();
    const unknown = [...new Set(typed)].filter((c) => !Object.hasOwn(table, c));
    if (unknown.length) {
      problems.push({ token: raw, text: `${unknown.map((c) => `“${c}”`).join(', ')} in ${raw} ${unknown.length === 1 ? 'is not a quirk letter' : 'are not quirk letters'}; the kernel ignores ${unknown.length === 1 ? 'it' : 'them'}, so ${unknown.length === 1 ? 'it was' : 'they were'} left out.` });
    }
    const letters = sortedLetters([...typed].filter((c) => Object.hasOwn(table, c)));
    if (!letters && !allowBare) {
      problems.push({ token: raw, text: `${id} has no flag letters: add them after a colon, like ${id}:u (u turns UAS off).` });
      continue;
    }
    entries.push({ id, letters });
  }
  return { entries, problems };
}

// Several entries for one ID: the kernel uses only the first, so they are merged (the union of the letters).
export function mergeEntries(entries) {
  const byId = new Map();
  const merged = [];
  for (const e of entries) {
    const letters = sortedLetters((byId.get(e.id) || '') + e.letters);
    if (byId.has(e.id)) merged.push(e.id);
    byId.set(e.id, letters);
  }
  const sorted = [...byId.keys()].sort();
  return { entries: sorted.map((id) => ({ id, letters: byId.get(id) })), merged: [...new Set(merged)] };
}

export function buildLine(entries) {
  return entries.length ? PREFIX + entries.map((e) => `${e.id}:${e.letters}`).join(',') : null;
}

// Bytes of the parameter's value (what the kernel copies into quirks[128]); entries are ASCII.
export function valueLength(line) {
  return line ? new TextEncoder().encode(line.slice(PREFIX.length)).length : 0;
}

const hex = (s) => parseInt(s, 16);
// Whether a kernel entry's bcdDevice range ({min, max}) overlaps a [low, high] span.
export const overlaps = (bcd, span) => hex(bcd.min) <= hex(span[1]) && hex(span[0]) <= hex(bcd.max);

function runtimeMatches(check, vid, pid) {
  const [cvid, pids] = check.usb_id.split(':');
  return cvid === vid && (pids === '*' || pids.split(',').includes(pid));
}

// What Linux does by itself for one ID: table entries without a build condition (overlapping `span`, a
// [low, high] bcdDevice range, when given) and the uas-detect.h checks that match it.
export function builtinFor(kernel, vid, pid, span = null) {
  const all = kernel.builtin?.[`${vid}:${pid}`] || [];
  let entries = all.filter((e) => e.condition === null);
  if (span) entries = entries.filter((e) => overlaps(e.bcd, span));
  const runtime = (kernel.runtime || []).filter((c) => runtimeMatches(c, vid, pid));
  return { entries, runtime };
}

const covers = (e, span) => hex(e.bcd.min) <= hex(span[0]) && hex(span[1]) <= hex(e.bcd.max);

// A usb-storage.quirks entry replaces the built-in lettered flags of its ID (usb.c clears them before
// setting the user's letters). Returns the entry that keeps the ones that still matter, and why.
export function preserveBuiltin(kernel, entry, span = null) {
  const [vid, pid, letters] = entry.split(':');
  const { entries, runtime } = builtinFor(kernel, vid, pid, span);
  const table = lettersTable(kernel);
  const letterOf = {};
  for (const row of kernel.letters) letterOf[row.flag] = row.letter;
  const replaced = new Set(kernel.user_entry_replaces);
  const builtin = [];
  const add = (f) => { if (!builtin.includes(f)) builtin.push(f); };
  for (const e of entries) e.flags.forEach(add);
  for (const c of runtime) if (c.unconditional) c.flags.forEach((f) => { add(f.name); });
  const chosen = new Set([...letters].filter((c) => table[c]).map((c) => table[c].flag));
  const dropped = builtin.filter((f) => replaced.has(f) && letterOf[f] && !chosen.has(f));
  const uasOff = chosen.has('IGNORE_UAS');
  // With `u`, usb-storage drives the device: it sets flags from unusual_devs.h only, never from unusual_uas.h or
  // the uas probe checks, and ignores uas-only flags (same rule as preserve_builtin in kernel_export.py).
  const storageFlags = new Set(entries.filter((e) => e.source.split(':')[0].endsWith('unusual_devs.h')).flatMap((e) => e.flags));
  const noEffect = dropped.filter((f) => uasOff && (table[letterOf[f]].drivers === 'uas' || !storageFlags.has(f)));
  const kept = builtin.filter((f) => !replaced.has(f));
  const runtimeReplaced = [...new Set(runtime.filter((c) => !c.unconditional)
    .flatMap((c) => c.flags.map((f) => f.name)).filter((f) => replaced.has(f) && !chosen.has(f)))].sort();
  const restored = dropped.filter((f) => !noEffect.includes(f));
  const preserving = sortedLetters([...letters, ...restored.map((f) => letterOf[f])]);
  const always = new Set();
  for (const e of entries) if (span ? covers(e, span) : e.every_bcd) e.flags.forEach((f) => { always.add(f); });
  for (const c of runtime) if (c.unconditional) c.flags.forEach((f) => { always.add(f.name); });
  return {
    entry,
    preserving: `${vid}:${pid}:${preserving}`,
    dropped,
    dropped_without_effect: noEffect,
    kept,
    restored,
    runtime_replaced: runtimeReplaced,
    runtime_moot: uasOff && runtimeReplaced.length > 0
      && runtimeReplaced.every((f) => letterOf[f] && table[letterOf[f]].drivers === 'uas'),
    bcd_dependent: entries.some((e) => !(span ? covers(e, span) : e.every_bcd)),
    builtin_already: chosen.size > 0 && [...chosen].every((f) => always.has(f)),
  };
}

// "NO_REPORT_OPCODES (f: does not ask which commands the bridge supports)"
export function flagText(kernel, flag) {
  const row = kernel.letters.find((r) => r.flag === flag);
  const plain = kernel.flag_plain?.[flag] || row?.plain;
  const letter = row ? `${row.letter}` : '';
  if (letter && plain) return `${flag} (${letter}: ${plain})`;
  if (plain) return `${flag} (${plain})`;
  return letter ? `${flag} (${letter})` : flag;
}
