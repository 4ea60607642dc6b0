// /check/: paste command output, see every USB ID and driver in it with the adapters, verdicts, kernel
// quirks and a quirk line. Data: only the files the paste needs (ids.js): the kernel's letters, and for each
// found ID its vendor's shard of known IDs and, when the database has one, its own file (products, distributions,
// kernel entries, expectation); usb.ids names only when an ID no record has comes up.
import { analysePaste, hasKey, platformForHost, resultFromQuery, resultQuery, troubleFor, uasDetectDecision, TROUBLE_KINDS } from './check-core.js';
import { builtinFor, buildLine, flagText, mergeEntries, overlaps, preserveBuiltin, valueLength } from './quirks-core.js';
import { badge, code, el, fillQuirkLine, platformLabel, platforms, words } from './ui.js';
import { loadIdFiles, loadKernel, loadUsbIds } from './ids.js';
import { wireCopyButton } from './copy.js';
import { probeReports, reportFormUrl } from './report-link.js';

const form = document.querySelector('form[data-check]');
if (form) init(form);

function init(form) {
  const paste = form.querySelector('textarea');
  const select = form.querySelector('select');
  const status = form.querySelector('.check-status');
  const results = document.getElementById('check-results');
  const base = { adapter: form.dataset.adapterBase, usb: form.dataset.usbBase, quirks: form.dataset.quirksPage, report: form.dataset.reportUrl,
    reportLimit: Number(form.dataset.reportLimit) };
  let chosenByUser = false;
  let generation = 0;
  // A result read from the address (a link someone shared); it stands until something is pasted.
  let linked = resultFromQuery(new URLSearchParams(location.search));

  async function run() {
    const mine = ++generation;
    const text = paste.value;
    const fromLink = !text.trim() && linked !== null;
    if (!text.trim() && !fromLink) {
      results.replaceChildren(explainEmpty());
      status.textContent = 'Paste some output first.';
      return;
    }
    if (!fromLink) linked = null;
    const found = fromLink ? linked : analysePaste(text);
    if (fromLink && !found.devices.length && !found.orphans.length) {
      results.replaceChildren();
      status.textContent = 'This link holds no check result this page can read. Paste your output to check it.';
      return;
    }
    const detected = platformForHost(found.host, platforms);
    if (detected && !chosenByUser) select.value = detected;
    status.textContent = 'Checking…';
    let kernel;
    let loaded;
    try {
      kernel = await loadKernel(form.dataset.api);
      loaded = await loadIdFiles(form.dataset.api, found.devices.map((d) => d.id), kernel);
    } catch {
      if (mine !== generation) return;
      status.textContent = 'The database files could not be loaded; check your connection and try again.';
      results.replaceChildren();
      return;
    }
    const idFiles = loaded.files;
    const withFile = [...idFiles].filter(([, file]) => file);
    const byId = new Map(withFile.filter(([, file]) => file.adapters.length).map(([id, file]) => [id, file.adapters]));
    const distributions = Object.fromEntries(withFile.map(([id, file]) => [id, file.distributions || []]));
    // usb.ids names IDs no record has; fetched only when the paste has one, and optional.
    let usbids = null;
    const unknown = found.devices.filter((d) => !byId.has(d.id));
    if (unknown.length) usbids = await loadUsbIds(form.dataset.api, unknown.map((d) => d.vid)).catch(() => null);
    if (mine !== generation) return;
    const view = render(text, found, detected, { adapters: byId, kernel, distributions, platform: select.value, base, usbids, idFiles, related: loaded.related });
    results.replaceChildren(...view.nodes);
    status.textContent = view.status;
    // The address now holds what was found (never the paste), so the result can be linked and reloaded.
    const query = found.devices.length || found.orphans.length ? resultQuery(found) : '';
    history.replaceState(history.state, '', query ? `${location.pathname}?platform=${select.value}&${query}` : location.pathname);
  }

  form.addEventListener('submit', (event) => { event.preventDefault(); run(); });
  select.addEventListener('change', () => { chosenByUser = true; if (results.childElementCount) run(); });
  const query = new URLSearchParams(location.search);
  if (hasKey(platforms, query.get('platform'))) { select.value = query.get('platform'); chosenByUser = true; }
  if (linked) {
    run();
  } else if (query.get('ids')) {
    paste.value = query.get('ids').split(/[\s,]+/).filter(Boolean).join('\n');
    run();
  }
}

// The export's ID-level expectation for the chosen platform (never a verdict: labelled and outlined as one), or
// null when the file has none to say.
function expectationFor(file, platform) {
  const e = file?.expected ? file.expected[platform] : null;
  if (!e || e.state === 'none') return null;
  return { state: e.state, node: [el('span', { class: 'badge tone-expect', title: 'An expectation from related evidence, not a verdict' },
    el('span', { class: 'badge-icon', 'aria-hidden': 'true' }, '≈'), ` ${e.short}`), ' ', el('span', { class: 'small' }, e.text)] };
}

function explainEmpty() {
  return el('div', { class: 'notice' }, el('p', {}, 'Paste the output of ', code('lsusb'), ', ', code('lsusb -t'), ', ',
    code('lsusb -v'), ', ', code('dmesg'), ' or the probe into the box, then press Check.'));
}

// Garbage in: say what the page looks for, so the next paste works.
function explainNothingFound(text) {
  const lines = text.trim().split('\n').length;
  return el('div', { class: 'notice', 'data-nothing-found': '' },
    el('p', {}, el('strong', {}, 'No USB ID or storage driver found'), ` in these ${lines} line${lines === 1 ? '' : 's'}.`,
      ' The check looks for what Linux prints about USB devices, for example:'),
    el('ul', {},
      el('li', {}, code('Bus 002 Device 003: ID 152d:0578 JMicron …'), ' from ', code('lsusb')),
      el('li', {}, code('|__ Port 1: Dev 2, If 0, Class=Mass Storage, Driver=uas, 5000M'), ' from ', code('lsusb -t')),
      el('li', {}, code('idVendor 0x152d'), ' and ', code('idProduct 0x0578'), ' from ', code('lsusb -v')),
      el('li', {}, code('usb 2-1: New USB device found, idVendor=152d, idProduct=0578'), ' from ', code('dmesg')),
      el('li', {}, 'or a bare ID such as ', code('152d:0578'))),
    el('p', {}, 'Run those commands with the adapter plugged in and paste their output as it is. ',
      'Error messages, screenshots or a product name will not work here; for a name, use the search on the ',
      el('a', { href: document.querySelector('.brand').getAttribute('href') }, 'home page'), '.'));
}

function describePaste(device) {
  const parts = [];
  if (device.driver) parts.push(['driver ', code(device.driver)]);
  else if (device.drivers.length) parts.push(['drivers ', device.drivers.map((d, i) => [i ? ', ' : '', code(d)])]);
  else if (device.storage) parts.push('driver not shown');
  if (device.speed) parts.push(device.speed);
  if (device.bcd_device) parts.push(`bcdDevice ${device.bcd_device}`);
  if (device.max_power_ma !== null) parts.push(`MaxPower ${device.max_power_ma} mA`);
  if (device.max_streams !== null) parts.push(`${device.max_streams} streams`);
  const strings = [device.manufacturer, device.product].filter(Boolean).map((s) => `“${s}”`).join(' ');
  if (strings) parts.push(strings);
  if (device.offers_uas === true) parts.push('offers UAS');
  if (device.offers_uas === false) parts.push('offers no UAS (Bulk-Only only)');
  if (device.uas_refused) parts.push(`dmesg: UAS ${device.uas_refused}`);
  const out = [];
  if (!device.sources.length) return ['only the ID: no command output around it, so no driver or speed. Paste ',
    code('lsusb -t'), ' and ', code('dmesg'), ' too for a diagnosis.'];
  parts.forEach((p, i) => { out.push(i ? ' · ' : '', p); });
  out.push(el('span', { class: 'small' }, ` (from ${device.sources.join(', ')})`));
  return out.flat(3);
}

// The device test that decided, in words: "MaxPower 0 mA", "link at 480M, below USB 3", "32 streams".
function whenText(when, device) {
  if (!when) return `MaxPower ${device.max_power_ma} mA, ${device.max_streams} streams at ${device.speed}`;
  if (when.field === 'max_power_ma') return `MaxPower ${device.max_power_ma} mA`;
  if (when.field === 'speed_mbps') return `link at ${device.speed}, below USB 3`;
  if (when.field === 'max_streams') return `${device.max_streams} streams`;
  return when.field;
}

// Sentences: what Linux does for this ID by itself (kernel.json), for the device's firmware when known.
function kernelSentences(kernel, device) {
  const span = device.bcd_device ? [device.bcd_device, device.bcd_device] : null;
  const { runtime } = builtinFor(kernel, device.vid, device.pid, span);
  const v = kernel.version;
  const out = [];
  let runtimeIgnoresUas = false;
  // The export groups the entries (kernel.json `groups`); only the ones covering the pasted firmware are shown.
  const groups = (kernel.groups[device.id] || []).filter((g) => !span || overlaps(g.bcd, span));
  for (const g of groups.filter((g) => g.condition === null)) {
    const scope = g.every_bcd ? '' : ` (bcdDevice ${g.bcd.min === g.bcd.max ? g.bcd.min : `${g.bcd.min}–${g.bcd.max}`})`;
    out.push([`Linux ${v} already applies to ${device.id}${scope}: `, words(g.flags.map((f) => flagText(kernel, f)).join(', ')),
      ' ', el('span', { class: 'small' }, `[${g.sources.join(', ')}]`)]);
  }
  for (const g of groups.filter((g) => g.condition !== null)) {
    out.push([`When built with ${g.condition}, Linux ${v} applies to ${device.id}: `, words(g.flags.map((f) => flagText(kernel, f)).join(', ')),
      ' ', el('span', { class: 'small' }, `[${g.sources.join(', ')}]`)]);
  }
  for (const c of runtime) {
    const flags = words(c.flags.map((f) => flagText(kernel, f.name)).join(', '));
    const where = el('span', { class: 'small' }, `[${c.source}]`);
    if (c.unconditional) {
      const scope = c.usb_id.endsWith(':*') ? `every ${device.vid} device` : device.id;
      out.push([`Linux ${v} adds `, flags, ` to ${scope} when uas probes it `, where]);
    } else if (Object.keys(c.strings || {}).length) {
      const named = Object.entries(c.strings).map(([k, s]) => `${k} string “${s}”`).join(' and ');
      out.push([`Linux ${v} adds `, flags, ` to ${device.id} only for devices with ${named} `, where]);
    } else if (c.steps?.length) {
      const decision = uasDetectDecision(c, device);
      if (decision && decision.missing === undefined) {
        if (decision.flags.includes('IGNORE_UAS')) runtimeIgnoresUas = true;
        const step = c.steps[decision.step];
        out.push([`For your unit (${whenText(step.when, device)}) Linux ${v} `,
          decision.flags.length ? ['adds ', words(decision.flags.map((f) => flagText(kernel, f)).join(', '))] : 'keeps UAS and adds nothing',
          decision.chip ? `: it takes the bridge for ${decision.chip}` : '', ' ', where]);
      } else {
        out.push([`Linux ${v} looks at the device (${c.decided_by.join(', ')}) and may add `,
          c.flags.map((f) => f.name).join(' or '), ` to ${device.id}. Paste `, code(`lsusb -v -d ${device.id}`),
          ' to see which applies to yours ', where]);
      }
    } else {
      out.push([`Linux ${v} looks at the device (${c.decided_by.join(', ')}) and may add `,
        c.flags.map((f) => f.name).join(' or '), ` to ${device.id} `, where]);
    }
  }
  if (!out.length) {
    const other = span && (kernel.builtin[device.id] || []).length;
    out.push(other ? `Linux ${v} has entries for ${device.id}, but none for your firmware (bcdDevice ${device.bcd_device}).`
      : `Linux ${v} has no built-in quirk for ${device.id}.`);
  }
  return { sentences: out,
    ignoresUas: groups.some((g) => g.condition === null && g.flags.includes('IGNORE_UAS') && (span || g.every_bcd)) ? 'table'
      : runtimeIgnoresUas ? 'device-test' : false };
}

// One product with this ID: its badges on the platform and its answer there (the export's words: what to do, with
// the platform a line came from). Another platform's line is never offered here.
function adapterItem(adapter, platform, base, row) {
  const uas = adapter.verdict.uas[platform];
  const boot = adapter.verdict.boot[platform];
  return el('li', { 'data-adapter': adapter.id },
    el('a', { href: `${base.adapter}${adapter.id}/` }, adapter.name), el('br'),
    `${platformLabel(platform)} UAS: `, badge(uas),
    boot ? [' · boot: ', badge(boot)] : null,
    row ? [el('br'), el('span', { class: 'small', 'data-answer': row.do }, row.text)] : null);
}

// The ID's answer on the platform, narrowed to the products the paste can be (bcdDevice inside a product's
// recorded range, when both are known). Narrowing only drops products; it never adds or rewords.
function narrowedAnswer(file, platform, device) {
  const answer = file?.answers?.[platform];
  if (!answer) return null;
  const span = device.bcd_device ? [device.bcd_device, device.bcd_device] : null;
  const rows = answer.products.filter((r) => !span || !r.bcd_device || overlaps(r.bcd_device, span));
  return { answer, rows, narrowed: rows.length !== answer.products.length };
}

const names = (list, base) => list.map((a, i) => [i ? (i === list.length - 1 ? ' and ' : ', ') : '',
  el('a', { href: `${base.adapter}${a.id}/` }, a.name)]);

// Platforms whose hosts cannot use UAS at all (the export's platforms[].no_uas, from the schema).
const noUas = (platform) => Boolean(platforms[platform]?.no_uas);

// Why a device is on usb-storage, from what the paste shows, the platform and what Linux does by itself.
function whyUsbStorage(device, ctx, kernelInfo, userQuirk) {
  const { platform, kernel } = ctx;
  if (noUas(platform)) return [`On ${platformLabel(platform)}, there is no USB 3 host and so no UAS: usb-storage is expected.`];
  if (device.offers_uas === false) {
    return ['Your ', code('lsusb -v'), ' shows no UAS interface (only Bulk-Only), so this unit can only use usb-storage.'];
  }
  if (userQuirk?.letters.includes('u')) {
    return ['Your own ', code(`usb-storage.quirks=…${device.id}:${userQuirk.letters}`), ' turns UAS off for it (the ',
      code('u'), ' letter).'];
  }
  if (device.uas_refused === 'ignored') return ['dmesg says UAS is ignored for it: a ', code('usb-storage.quirks'), ' entry turns UAS off.'];
  if (kernelInfo.ignoresUas === 'device-test') return [`Linux ${kernel.version} turns UAS off for this unit by itself after looking at it (see below).`];
  if (kernelInfo.ignoresUas) return [`Linux ${kernel.version} turns UAS off for this ID by itself (IGNORE_UAS in its own table).`];
  if (device.uas_refused === 'blacklisted') return ['The kernel that printed this turned UAS off for the ID by itself (“UAS is blacklisted”).'];
  if (device.speed === '480M') return ['It runs at 480M (USB 2): UAS needs a USB 3 link on most hosts.'];
  return ['The paste does not say why. Usual causes: the device offers no UAS interface (paste ', code(`lsusb -v -d ${device.id}`),
    ' to see), or a ', code('usb-storage.quirks'), ' entry on the kernel command line (', code('cat /proc/cmdline'), ').'];
}

// The two mismatches people ask about, and what explains them.
function flagsFor(device, matches, ctx, kernelInfo, found, id) {
  const { platform, base, kernel } = ctx;
  const flags = [];
  const where = platformLabel(platform);
  const userQuirk = found.quirks.find((q) => q.id === device.id);
  const works = matches.filter((a) => a.verdict.uas[platform].verdict === 'works');
  const needs = matches.filter((a) => ['works-with-quirk', 'broken'].includes(a.verdict.uas[platform].verdict));
  if (device.driver === 'usb-storage' && works.length && !noUas(platform)) {
    const why = [];
    if (device.offers_uas === false) {
      why.push('But your ', code('lsusb -v'), ' shows no UAS interface at all, so this unit can only use usb-storage; ',
        'the reports may be about another product or firmware with the same ID.');
    } else if (userQuirk?.letters.includes('u')) {
      why.push('Your own ', code(`usb-storage.quirks=…${device.id}:${userQuirk.letters}`),
        ' turns UAS off for it. Try once without that entry and watch ', code('dmesg'), ' for resets.');
    } else if (device.uas_refused === 'ignored') {
      why.push('dmesg says UAS is ignored for it: a ', code('usb-storage.quirks'), ' entry turns UAS off. Try once without it.');
    } else if (kernelInfo.ignoresUas === 'device-test') {
      why.push(`Linux ${kernel.version} turns UAS off for this unit by itself after looking at it (see below), `,
        'so the working reports are probably about another chip behind the same ID.');
    } else if (kernelInfo.ignoresUas) {
      why.push(`Linux ${kernel.version} turns UAS off for this ID by itself (IGNORE_UAS in its own table), `,
        'so these reports come from another kernel or firmware.');
    } else if (device.uas_refused === 'blacklisted') {
      why.push('The kernel that printed this turned UAS off for the ID by itself (“UAS is blacklisted”). Linux ', kernel.version,
        '\u2019s own tables do not, so a current kernel may use uas for it; distribution kernels can carry extra entries.');
    } else {
      why.push('Something turns UAS off: a quirk on your kernel command line, or a kernel that ignores UAS for this ID.');
    }
    flags.push(el('li', { class: 'flag flag-uas-works', 'data-flag': 'usb-storage-but-uas-works' },
      el('strong', {}, 'Your adapter is on usb-storage, but reports say it works with UAS'), ' on a ', where, ': ',
      names(works, base), '. ', why,
      id?.answer.verdict === 'depends' ? [' Other products with this ID do not: see ', el('em', {}, `On ${where}`), ' below.'] : null));
  }
  if (device.driver === 'uas' && needs.length && !noUas(platform)) {
    const entries = (id?.rows || []).flatMap((r) => r.entries);
    const trouble = found.trouble.filter((e) => e.kind !== 'power');
    flags.push(el('li', { class: 'flag flag-needs-quirk', 'data-flag': 'uas-but-needs-quirk' },
      el('strong', {}, 'Your adapter is on uas, but reports say it needs the quirk'), ' on a ', where, ': ',
      names(needs, base), '. ',
      works.length ? ['Reports for ', names(works, base), ' (same ID) say UAS works, so check which product is yours. '] : '',
      trouble.length ? ['Your dmesg shows ', [...new Set(trouble.map((e) => e.kind))].join(', '), ', which is what the quirk fixes.']
        : 'If it works for you without resets or I/O errors, keep it on uas (faster); if not, use the quirk line below.',
      entries.length ? null : ' No report names the flags yet.'));
  }
  const explained = flags.length > 0;
  if (device.uas_refused === 'blacklisted' && !kernelInfo.ignoresUas && !explained) {
    flags.push(el('li', { class: 'flag', 'data-flag': 'old-kernel-ignores-uas' },
      'The kernel that printed this turned UAS off for the ID by itself (“UAS is blacklisted”). Linux ', kernel.version,
      '\u2019s own tables do not, so a current kernel may use uas for it; distribution kernels can carry extra entries.'));
  } else if (device.uas_refused === 'ignored' && !userQuirk && !explained) {
    flags.push(el('li', { class: 'flag', 'data-flag': 'quirk-ignores-uas' },
      'dmesg says “UAS is ignored for this device”: a ', code('usb-storage.quirks'), ' entry on the kernel command line turns UAS off for it.'));
  }
  if (device.driver === 'usb-storage' && !explained) {
    flags.push(el('li', { class: 'flag', 'data-flag': 'why-usb-storage' },
      el('strong', {}, 'Why usb-storage, not uas: '), whyUsbStorage(device, ctx, kernelInfo, userQuirk)));
  } else if (device.storage && noUas(platform)) {
    flags.push(el('li', { class: 'flag' }, `On ${platformLabel(platform)}, UAS is not available at all: usb-storage is expected.`));
  }
  if (device.storage && device.speed === '480M' && !noUas(platform)) {
    flags.push(el('li', { class: 'flag' }, 'It runs at 480M, USB 2 speed: a USB 3 adapter is then in a USB 2 port, behind a USB 2 hub or on a USB 2 cable.'));
  }
  return flags;
}

function render(text, found, detected, ctx) {
  const { adapters, kernel, platform, base } = ctx;
  const nodes = [];
  const relevant = [];
  const others = [];
  for (const device of found.devices) {
    const known = adapters.get(device.id) || [];
    const inKernel = (kernel.builtin[device.id] || []).length > 0 || builtinFor(kernel, device.vid, device.pid).runtime.length > 0;
    // A bare ID (no command output around it) is a question about that ID: always answer it.
    (device.storage || known.length || inKernel || !device.sources.length ? relevant : others).push(device);
  }
  if (!found.devices.length && !found.orphans.length) {
    return { nodes: [explainNothingFound(text)], status: 'No USB ID or storage driver found in the paste.' };
  }

  const summary = el('p', { class: 'check-summary' },
    `Found ${found.devices.length} USB ID${found.devices.length === 1 ? '' : 's'}`,
    relevant.length !== found.devices.length ? `, ${relevant.length} of them storage adapters or IDs uasdb or Linux knows` : '',
    '. Verdicts are for a ', platformLabel(platform),
    detected ? ` (the paste names ${found.model || 'it'})` : ' (choose your computer above)', '.');
  nodes.push(el('h2', { id: 'check-found' }, found.linked ? 'What the linked paste showed' : 'What your paste shows'), summary);
  if (found.linked) {
    nodes.push(el('p', { class: 'notice', 'data-linked-result': '' }, 'This result comes from a link. It holds what a paste showed: the USB IDs, ',
      'drivers, link speeds, firmware and power figures and the kinds of dmesg trouble, never the paste itself (no names, ',
      'serial numbers or log lines). Paste your own output above to check yours.'));
  }
  nodes.push(linkButton());
  if (found.quirks.length) {
    nodes.push(el('p', {}, 'Your kernel command line already has ', code(buildLine(found.quirks.map((q) => ({ id: q.id, letters: q.letters }))))));
  }

  // The adapter-report form, its USB ID field (the form's `usb_id`) and title filled in.
  const reportUrl = (formUrl, id) => {
    const url = new URL(formUrl);
    url.searchParams.set('title', `${url.searchParams.get('title') || ''}${id}`);
    url.searchParams.set('usb_id', id);
    return url.href;
  };
  const lineEntries = [];
  const trouble = troubleFor(found);
  // The probe's report blocks in the paste (never in a linked result, which holds no paste).
  const reports = found.linked ? new Map() : probeReports(text);
  for (const device of relevant) {
    const matches = adapters.get(device.id) || [];
    const kernelInfo = kernelSentences(kernel, device);
    const ownTrouble = trouble.byId.get(device.id) || [];
    const section = el('section', { class: 'found', 'data-usb-id': device.id, 'data-driver': device.driver || '', 'aria-labelledby': `found-${device.id.replace(':', '-')}` });
    const title = device.names[0] || [...new Set([device.manufacturer, device.product].filter(Boolean))].join(' ');
    section.append(el('h3', { id: `found-${device.id.replace(':', '-')}` }, el('span', { class: 'usb-id' }, device.id), title ? ` ${title}` : ''));
    const facts = el('dl', { class: 'facts' });
    facts.append(el('dt', {}, 'Your paste'), el('dd', {}, describePaste(device)));
    const id = narrowedAnswer(ctx.idFiles?.get(device.id), platform, device);
    const flags = flagsFor(device, matches, ctx, kernelInfo, found, id);
    facts.append(el('dt', {}, 'In uasdb'), el('dd', {}, matches.length
      ? [`${matches.length} product${matches.length === 1 ? '' : 's'} report this ID`, matches.length > 1 ? ' (check which one is yours)' : '', ':',
        el('ul', { class: 'matches' }, matches.map((a) => adapterItem(a, platform, base,
          id?.rows.find((r) => r.id === a.id))))]
      : ['No adapter record has this ID yet. ', usbIdsName(ctx.usbids, device), relatedByVendor(ctx.related.get(device.id) || [], base),
        el('a', { href: reportUrl(base.report, device.id), 'data-report-link': '' }, 'Add your report'), ' so the next person knows.']));
    if (id && (id.answer.verdict !== 'untested' || id.answer.line)) {
      facts.append(el('dt', {}, `On ${platformLabel(platform)}`), el('dd', { 'data-id-answer': id.answer.verdict },
        id.narrowed ? [`Your bcdDevice ${device.bcd_device} matches `, id.rows.length ? id.rows.map((r, i) => [i ? '; ' : '',
          `${r.name}: ${r.short}. ${r.text}`]) : 'none of the products recorded with this ID', '.']
          : id.answer.text));
    }
    const expected = expectationFor(ctx.idFiles?.get(device.id), platform);
    if (expected) facts.append(el('dt', {}, 'Expected'), el('dd', { 'data-expectation': expected.state }, expected.node));
    facts.append(el('dt', {}, `Linux ${kernel.version}`), el('dd', {}, kernelInfo.sentences.length === 1
      ? kernelInfo.sentences[0] : el('ul', {}, kernelInfo.sentences.map((s) => el('li', {}, s)))));
    const shipped = ctx.distributions?.[device.id] || [];
    if (shipped.length) {
      // The export words each fact; this only prints it with its link.
      facts.append(el('dt', {}, 'Distributions'), el('dd', { 'data-distributions': device.id }, el('ul', {}, shipped.map((d) =>
        el('li', {}, d.sentence, ' ', el('a', { href: d.url, rel: 'nofollow noopener' }, d.change))))));
    }
    // Only the entries reports on this platform needed (the answer's rows), never another platform's.
    const letters = [...new Set((id?.rows || []).flatMap((r) => r.entries).filter((e) => e.startsWith(`${device.id}:`))
      .map((e) => e.split(':')[2]).join(''))].sort().join('');
    if (letters) {
      const span = device.bcd_device ? [device.bcd_device, device.bcd_device] : null;
      const kept = preserveBuiltin(kernel, `${device.id}:${letters}`, span);
      lineEntries.push({ id: device.id, letters: kept.preserving.split(':')[2] });
      const dropped = kept.restored;
      facts.append(el('dt', {}, 'Quirk'), el('dd', {}, code(kept.preserving),
        dropped.length ? [' (reports give ', code(`${device.id}:${letters}`), '; the added letters keep ',
          dropped.join(', '), ', which Linux sets by itself and an entry would otherwise clear)'] : ''));
    }
    if (ownTrouble.length) flags.unshift(troubleItem(ownTrouble, device));
    if (flags.length) section.append(el('ul', { class: 'flags' }, flags));
    section.append(facts);
    if (reports.has(device.id)) section.append(reportThis(reports.get(device.id), device, matches, base));
    nodes.push(section);
  }

  if (lineEntries.length) {
    const { entries } = mergeEntries(lineEntries);
    const line = buildLine(entries);
    const box = el('div', { class: 'quirk' },
      el('p', { class: 'quirk-label', id: 'check-line-label' }, `The quirk line reports on ${platformLabel(ctx.platform)} needed for these IDs. Use it only if your adapter has the trouble they describe: it trades speed for stability.`),
      el('div', { class: 'quirk-box' }, fillQuirkLine(el('code', { id: 'check-line', class: 'quirk-line' }), line),
        copyButton('check-line', 'check-line-label')),
      valueLength(line) > kernel.quirks_value_max ? el('p', { class: 'warn' }, `Too long: the kernel accepts at most ${kernel.quirks_value_max} characters after usb-storage.quirks=.`) : null,
      el('p', { class: 'quirk-where' }, 'Add it to the end of the single line in ', code('/boot/firmware/cmdline.txt'),
        ' (current Raspberry Pi OS) or ', code('/boot/cmdline.txt'), ' (before Bookworm), separated by a space, then reboot. ',
        el('a', { href: `${base.quirks}?entries=${entries.map((e) => `${e.id}:${e.letters}`).join(',')}` }, 'Change it in the quirk builder'), '.'));
    nodes.push(el('section', { 'aria-labelledby': 'check-line-heading' }, el('h2', { id: 'check-line-heading' }, 'Quirk line'), box));
  }

  if (trouble.unassigned.length) {
    nodes.push(el('section', { class: 'trouble', 'aria-labelledby': 'check-trouble' }, el('h2', { id: 'check-trouble' }, 'Trouble in your dmesg'),
      el('p', {}, 'These lines name no device the paste ties to a USB ID. Paste the whole ', code('dmesg'), ' from plugging the adapter in, so each line can be matched.'),
      troubleList(trouble.unassigned)));
  }
  if (found.orphans.length) {
    nodes.push(el('section', { class: 'orphans', 'aria-labelledby': 'check-orphans' }, el('h2', { id: 'check-orphans' }, 'Drivers without a USB ID'),
      el('ul', {}, found.orphans.map((o) => el('li', { 'data-driver': o.driver || '' },
        'A mass-storage device on ', o.driver ? code(o.driver) : 'no driver', o.speed ? ` at ${o.speed}` : '',
        ` (${o.where ? `${o.where}, ` : ''}from ${o.source}).`))),
      el('p', {}, found.orphans.some((o) => o.source === 'ioreg')
        ? ['Its USB ID is not in the paste: add the output of ', code('system_profiler SPUSBDataType'), ' or ', code('ioreg -l'), '.']
        : ['Its USB ID is not in the paste: add the output of ', code('lsusb'), ', which prints it as ', code('ID 152d:0578'), '.'])));
  }
  if (others.length) {
    nodes.push(el('section', { class: 'others', 'aria-labelledby': 'check-others' }, el('h2', { id: 'check-others' }, 'Other USB devices in the paste'),
      el('p', {}, 'Not storage adapters as far as the paste, uasdb and Linux can tell (hubs, keyboards, the computer\u2019s own controllers):'),
      el('ul', { class: 'others-list' }, others.map((d) => el('li', { 'data-usb-id': d.id }, el('span', { class: 'usb-id' }, d.id),
        d.names[0] || d.product ? ` ${d.names[0] || d.product}` : '')))));
  }
  if (!relevant.length && !found.orphans.length) {
    nodes.push(el('p', { class: 'notice' }, 'None of these is a USB storage adapter uasdb or Linux knows. Is the adapter plugged in? ',
      'If it is, paste ', code('lsusb -t'), ' too: it shows which device is storage.'));
  }
  const storage = relevant.filter((d) => d.storage).length;
  // The storage count only when the paste shows one (a bare ID says nothing about its class).
  const status = `Found ${found.devices.length} USB ID${found.devices.length === 1 ? '' : 's'}${storage ? ` (${storage} storage)` : ''}`
    + (found.orphans.length ? ` and ${found.orphans.length} driver${found.orphans.length === 1 ? '' : 's'} without an ID` : '') + '.';
  return { nodes, status };
}

// Built after the page's copy buttons were set up (copy.js), so it is wired here.
function copyButton(target, label) {
  if (!navigator.clipboard) return null;
  const button = el('button', { type: 'button', class: 'copy', 'aria-describedby': label }, 'Copy');
  wireCopyButton(button, { get textContent() { return document.getElementById(target).textContent; } });
  return button;
}

// "Copy link to this result": the address holds the result (resultQuery) once a check has run.
function linkButton() {
  if (!navigator.clipboard) return null;
  const button = el('button', { type: 'button', class: 'copy copy-link', 'data-copy-link': '' }, 'Copy link to this result');
  wireCopyButton(button, { get textContent() { return location.href; } });
  return el('p', { class: 'check-link' }, button);
}

// dmesg trouble for one device: what kinds, and the lines themselves (the first few).
function troubleItem(events, device) {
  const counts = new Map();
  for (const e of events) counts.set(e.kind, (counts.get(e.kind) || 0) + 1);
  const kinds = [...counts].map(([kind, n]) => `${n} ${TROUBLE_KINDS[kind][n === 1 ? 0 : 1]}`).join(', ');
  const onUas = device.driver === 'uas';
  return el('li', { class: 'flag flag-trouble', 'data-flag': 'dmesg-trouble' },
    el('strong', {}, `Your dmesg shows trouble for this device: ${kinds}.`), ' ',
    onUas ? ['On uas, resets and aborts (', code('uas_eh_abort_handler'), ', ', code('uas_eh_device_reset_handler'),
      ') are the usual sign that the adapter needs the quirk that turns UAS off; check power and the cable first.']
      : 'Check power (an Under-voltage line means the supply is too weak), the cable and the port before blaming the adapter.',
    troubleList(events));
}

function troubleList(events) {
  if (events.every((e) => !e.line)) return el('p', { class: 'small' }, 'The dmesg lines themselves are not in the link: ask for the paste to see them.');
  const shown = events.slice(0, 6);
  return el('pre', { class: 'trouble-lines' }, shown.map((e) => e.line.trim()).join('\n')
    + (events.length > shown.length ? `\n… ${events.length - shown.length} more` : ''));
}

// What usb.ids calls an ID no record has (its vendor, and the product when listed).
function usbIdsName(usbids, device) {
  if (!usbids) return null;
  const vendor = usbids.vendors[device.vid];
  const product = usbids.products[device.id];
  if (!vendor) return ['usb.ids does not name vendor ', code(device.vid), '. '];
  return ['usb.ids names the vendor ', el('strong', { 'data-usbids-vendor': '' }, vendor), product ? [' and the product ', product] : '', '. '];
}

// Records from the same vendor ID (up to five, from the ID's shard), so a near miss (another product of the same
// maker) is one click away.
function relatedByVendor(related, base) {
  if (!related.length) return null;
  return ['Records with the same vendor ID: ', related.map((a, i) => [i ? ', ' : '', el('a', { href: `${base.adapter}${a.id}/` }, a.name)]), '. '];
}

// "Report this adapter": the adapter-report form with the paste's probe report for this ID filled in, opened only
// when pressed (the address is built then; the page and its own link never hold the paste). It says what goes to
// GitHub and shows it. With one record for the ID the form names it; with several the person picks in the form.
function reportThis(report, device, matches, base) {
  const adapter = matches.length === 1 ? matches[0].id : null;
  const fields = { title: adapter ? `${adapter} (${device.id})` : device.id, usb_id: device.id, adapter };
  const lines = report.split('\n').length;
  const shown = el('details', { class: 'report-sent' },
    el('summary', {}, `What will be sent: the probe\u2019s report for ${device.id} (${lines} lines)`),
    el('pre', { 'data-report-text': '' }, report));
  if (!reportFormUrl(base.report, { ...fields, probe: report }, base.reportLimit)) {
    return el('div', { class: 'report-this', 'data-report-too-long': device.id },
      el('p', {}, `The probe\u2019s report for ${device.id} is too long for a link (GitHub refuses addresses over `,
        `${base.reportLimit.toLocaleString('en')} characters). `,
        el('a', { href: reportFormUrl(base.report, fields, base.reportLimit), 'data-report-link': '' }, 'Open the report form'),
        ' (it fills in the USB ID', adapter ? ' and the adapter' : '', ') and paste the report below into its \u201cProbe output\u201d box.'),
      shown);
  }
  const button = el('button', { type: 'button', class: 'report-this-button', 'data-report-this': device.id }, 'Report this adapter');
  button.addEventListener('click', () => {
    window.open(reportFormUrl(base.report, { ...fields, probe: report }, base.reportLimit), '_blank', 'noopener');
  });
  return el('div', { class: 'report-this' }, button,
    el('p', { class: 'small' }, 'Opens GitHub\u2019s adapter-report form in a new tab with the USB ID, ',
      adapter ? `the adapter (${adapter}) ` : '', 'and the report below filled in: the probe\u2019s lines for this adapter ',
      '(computer, kernel, driver, link speed, firmware, its dmesg lines). Nothing is sent until you submit the form ',
      'on GitHub, and the issue is public. ',
      matches.length > 1 ? 'Several records share this ID: name yours in the form. ' : ''),
    shown);
}
