// /quirks/: the quirk builder. Pick adapters (from /api/v1/quirk-index.json, the ones whose reports needed a
// line) or type entries; the line, its length against the kernel's limit, each letter's meaning and what an
// entry replaces of the kernel's own flags update as you go. The kernel's letters come once
// (kernel-letters.json); each ID in the line brings its own file (ids.js), with its built-in entries and the
// distributions that already ship an entry for it.
import { buildLine, flagText, lettersTable, mergeEntries, parseEntries, preserveBuiltin, valueLength } from './quirks-core.js';
import { code, el, fillQuirkLine, loadApi, words } from './ui.js';
import { loadIdFiles, loadKernel } from './ids.js';

const form = document.querySelector('form[data-quirk-builder]');
if (form) init(form);

async function init(form) {
  const list = form.querySelector('.pick-list');
  const filter = document.getElementById('pick-filter');
  const pickStatus = form.querySelector('.pick-status');
  const typed = document.getElementById('typed-entries');
  const keep = document.getElementById('keep-builtin');
  const result = document.getElementById('builder-result');
  const empty = document.getElementById('builder-empty');
  const lineBox = document.getElementById('builder-line');
  const length = document.getElementById('builder-length');
  const notes = document.getElementById('builder-notes');
  // The page lays out the pick list, its count and the problems list (layouts/quirks.html); this wires them up.
  const typedProblems = document.getElementById('typed-problems');

  const api = form.dataset.api;
  let generation = 0;  // the edit whose line is being worked out (update)
  let index;
  let kernel;
  const shippedBy = {};
  const workingBy = {};  // per ID: products with it that work on uas without a quirk (its file's works_on_uas)
  try {
    [index, kernel] = await Promise.all([loadApi(`${api}quirk-index.json`), loadKernel(api)]);
  } catch {
    pickStatus.textContent = 'The database files could not be loaded; typed entries need them too. Reload to try again.';
    return;
  }
  const quirky = index.adapters;
  const byId = new Map(quirky.map((a) => [a.id, a]));
  const table = lettersTable(kernel);

  for (const box of list.querySelectorAll('input[type="checkbox"]')) box.addEventListener('change', update);

  function applyFilter() {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const li of list.children) {
      const match = words.every((w) => li.dataset.search.includes(w));
      li.hidden = !match;
      if (match) shown += 1;
    }
    pickStatus.textContent = pickStatus.dataset.shown.replace('{shown}', shown).replace('{count}', quirky.length)
      .replace('{total}', index.total);
  }
  filter.addEventListener('input', applyFilter);
  typed.addEventListener('input', update);
  keep.addEventListener('change', update);

  const query = new URLSearchParams(location.search);
  for (const id of (query.get('adapters') || '').split(',')) {
    const box = document.getElementById(`pick-${id}`);
    if (byId.has(id) && box) box.checked = true;
  }
  if (query.get('entries')) typed.value = query.get('entries').split(/[\s,]+/).filter(Boolean).join(' ');
  applyFilter();
  update();

  // aria-busy is true from an edit until its line is shown (each ID in it may need its file first).
  async function update() {
    const mine = ++generation;
    result.setAttribute('aria-busy', 'true');
    // Every entry with where it came from and the firmware range it was reported for (adapter records).
    const wanted = [];
    const picked = [...list.querySelectorAll('input:checked')].map((b) => byId.get(b.value));
    for (const adapter of picked) {
      for (const entry of adapter.quirk_entries) {
        const [vid, pid, letters] = entry.split(':');
        const usb = (adapter.usb_ids || []).find((u) => u.vid === vid && u.pid === pid);
        const span = usb?.bcd_device ? [usb.bcd_device.min, usb.bcd_device.max] : null;
        wanted.push({ id: `${vid}:${pid}`, letters, from: adapter.name, adapter: adapter.id, span });
      }
    }
    const parsed = parseEntries(typed.value, kernel);
    for (const e of parsed.entries) wanted.push({ ...e, from: 'typed', span: null });
    typedProblems.replaceChildren(...parsed.problems.map((p) => el('li', { class: 'warn' }, p.text)));

    const { entries, merged } = mergeEntries(wanted);
    const mergedIds = new Set(merged);
    // Each ID's own file: its built-in entries (into kernel.builtin) and the distributions that ship one.
    const { files } = await loadIdFiles(api, entries.map((e) => e.id), kernel);
    if (mine !== generation) return;  // a newer edit is on its way
    for (const [id, file] of files) {
      shippedBy[id] = file ? file.distributions || [] : [];
      workingBy[id] = file ? file.works_on_uas || [] : [];
    }
    if (!entries.length) {
      result.hidden = true;
      empty.hidden = false;
      result.setAttribute('aria-busy', 'false');
      history.replaceState(null, '', location.pathname);
      return;
    }
    const final = [];
    const items = [];
    for (const entry of entries) {
      const sources = wanted.filter((w) => w.id === entry.id);
      const spans = sources.map((s) => s.span);
      // One firmware range only when every source names the same one; otherwise judge for every firmware.
      const span = spans.every((s) => s && s[0] === spans[0][0] && s[1] === spans[0][1]) ? spans[0] : null;
      const kept = preserveBuiltin(kernel, `${entry.id}:${entry.letters}`, span);
      const letters = keep.checked ? kept.preserving.split(':')[2] : entry.letters;
      final.push({ id: entry.id, letters });
      items.push(entryNote(entry, letters, kept, sources, mergedIds.has(entry.id)));
    }
    const line = buildLine(final);
    fillQuirkLine(lineBox, line);
    const size = valueLength(line);
    length.replaceChildren(`${size} of ${kernel.quirks_value_max} characters the kernel accepts after `, code('usb-storage.quirks='), '.');
    if (size > kernel.quirks_value_max) {
      length.append(' ', el('strong', { class: 'warn', 'data-warning': 'too-long' },
        `Too long by ${size - kernel.quirks_value_max}: Linux keeps this parameter in a 128-byte buffer and refuses a longer value, so none of these entries would apply. Leave out adapters you do not own.`));
    }
    length.dataset.length = String(size);
    notes.replaceChildren(...items);
    result.hidden = false;
    empty.hidden = true;
    result.setAttribute('aria-busy', 'false');
    // A shareable address; commas and colons stay readable (both are fine in a query).
    const readable = (value) => encodeURIComponent(value).replace(/%2C/g, ',').replace(/%3A/gi, ':');
    const state = [];
    if (picked.length) state.push(`adapters=${readable(picked.map((a) => a.id).join(','))}`);
    if (parsed.entries.length) state.push(`entries=${readable(parsed.entries.map((e) => `${e.id}:${e.letters}`).join(','))}`);
    history.replaceState(null, '', `${location.pathname}${state.length ? `?${state.join('&')}` : ''}`);
  }

  // One entry: where it came from, what each letter does, and what it replaces of the kernel's own flags.
  function entryNote(entry, letters, kept, sources, wasMerged) {
    const from = [...new Set(sources.map((s) => s.from))];
    const li = el('li', { 'data-usb-id': entry.id },
      code(`${entry.id}:${letters}`), ' — ',
      from.map((f, i) => [i ? ', ' : '', f === 'typed' ? 'typed by you' : `reports for ${f}`]), '.',
      wasMerged ? ' Named more than once: the kernel reads only the first entry for an ID, so the letters are merged into one.' : '');
    const letterList = el('ul', { class: 'letter-notes' }, [...letters].map((c) => el('li', {},
      code(c), ` ${table[c].flag}: `, words(table[c].plain), table[c].drivers !== 'both' ? ` (${table[c].drivers} only)` : '')));
    li.append(letterList);
    const v = kernel.version;
    const warnings = [];
    const lost = kept.restored;
    if (lost.length) {
      warnings.push(el('li', { class: 'warn', 'data-warning': 'replaces-builtin' },
        el('strong', {}, `${entry.id}:${entry.letters} replaces flags Linux ${v} sets by itself: `), words(lost.map((f) => flagText(kernel, f)).join(', ')), '. ',
        keep.checked ? ['The line keeps them: ', code(kept.preserving), '.']
          : ['To keep them write ', code(kept.preserving), ' (tick “Keep the flags” above).']));
    }
    if (kept.dropped_without_effect.length) {
      warnings.push(el('li', { 'data-warning': 'replaces-builtin-moot' },
        `${entry.id}:${entry.letters} also clears the built-in `, words(kept.dropped_without_effect.map((f) => flagText(kernel, f)).join(', ')),
        ', which only uas would apply or honour; ', code('u'), ' turns uas off, so nothing is lost.'));
    }
    if (kept.kept.length) {
      warnings.push(el('li', {}, `Linux ${v} also sets `, words(kept.kept.map((f) => flagText(kernel, f)).join(', ')),
        ' for this ID; flags without a letter stay whatever you write.'));
    }
    if (kept.runtime_replaced.length) {
      warnings.push(el('li', {}, `Linux ${v} may add `, kept.runtime_replaced.join(' or '),
        ' for this ID after looking at the device (uas-detect.h); an entry for the ID replaces that choice.'));
    }
    if (kept.builtin_already) {
      warnings.push(el('li', { 'data-warning': 'builtin-already' },
        `Linux ${v} already sets every flag of this entry for every firmware of ${entry.id}: you do not need it.`));
    }
    for (const d of shippedBy[entry.id] || []) {
      warnings.push(el('li', { 'data-warning': 'distribution-already' }, d.sentence, ' ',
        el('a', { href: d.url, rel: 'nofollow noopener' }, d.change)));
    }
    // An entry covers every device with the ID: say which products it would change that work without one.
    const picked = new Set(sources.map((s) => s.adapter).filter(Boolean));
    const working = (workingBy[entry.id] || []).filter((p) => !picked.has(p.id));
    if (working.length) {
      warnings.push(el('li', { class: 'warn', 'data-warning': 'shared-with-working' },
        el('strong', {}, `${entry.id} is also the ID of `),
        working.map((p, i) => [i ? ', ' : '', el('a', { href: `${form.dataset.adapterBase}${p.id}/` }, p.name)]),
        `, confirmed to work on uas without a quirk on Linux. The entry applies to every device with this ID, so it would change ${working.length === 1 ? 'that one' : 'those'} too: leave it out on a computer that uses one.`));
    }
    if (kept.bcd_dependent) {
      warnings.push(el('li', {}, `Some of Linux ${v}'s entries for ${entry.id} cover only certain firmware versions (bcdDevice); `,
        'check yours with ', code(`lsusb -v -d ${entry.id}`), '.'));
    }
    if (warnings.length) li.append(el('ul', { class: 'entry-warnings' }, warnings));
    return li;
  }
}
