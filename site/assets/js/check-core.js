// What a paste says about each USB device: the parsers' results joined per USB ID, for the check page.
// Pure functions (no DOM, no fetch), so they can be tested on their own.
import {
  findUsbIds, parseLsusb, parseLsusbTree, parseLsusbVerbose, parseDmesg, parseIoreg, parseSystemProfiler,
  joinMacos, parseProbe, pastedQuirks, machineModel,
} from './paste.js';

// Pi model strings -> schema host, as PI_MODELS in scripts/uasdb/probe/linux.py (first match wins).
const PI_MODELS = [
  [/Raspberry Pi 500\b/, 'pi500'], [/Raspberry Pi 400\b/, 'pi400'],
  [/Raspberry Pi Compute Module 5\b/, 'cm5'], [/Raspberry Pi Compute Module 4\b/, 'cm4'],
  [/Raspberry Pi 5\b/, 'pi5'], [/Raspberry Pi 4\b/, 'pi4'],
  [/Raspberry Pi 3 Model B Plus\b/, 'pi3b-plus'], [/Raspberry Pi 3\b|Raspberry Pi Compute Module 3\b/, 'pi3'],
  [/Raspberry Pi Zero 2\b/, 'pi-zero-2'], [/Raspberry Pi\b/, 'pi-older'],
];

export function hostForModel(model) {
  if (!model) return null;
  const hit = PI_MODELS.find(([pattern]) => pattern.test(model));
  return hit ? hit[1] : null;
}

export const STORAGE_DRIVERS = ['uas', 'usb-storage'];

function newDevice(id) {
  const [vid, pid] = id.split(':');
  return { id, vid, pid, names: [], drivers: [], speed: null, bcd_device: null, bcd_usb: null, manufacturer: null, product: null,
    serial: null, max_power_ma: null, max_streams: null, offers_uas: null, uas_refused: null, kernel_quirks: null, storage: false,
    sources: [], ports: [] };
}

function note(device, source) {
  if (!device.sources.includes(source)) device.sources.push(source);
}

function merge(device, facts, source) {
  for (const key of ['speed', 'bcd_device', 'bcd_usb', 'manufacturer', 'product', 'serial', 'uas_refused', 'kernel_quirks']) {
    if (facts[key] && !device[key]) device[key] = facts[key];
  }
  for (const key of ['max_power_ma', 'max_streams']) { // numbers: 0 mA is a fact, not a gap
    if (Number.isInteger(facts[key]) && device[key] === null) device[key] = facts[key];
  }
  if (facts.offers_uas === true || (facts.offers_uas === false && device.offers_uas === null)) device.offers_uas = facts.offers_uas;
  if (facts.driver && !device.drivers.includes(facts.driver)) device.drivers.push(facts.driver);
  note(device, source);
}

// The whole paste -> {devices (one per USB ID, in the order found), orphans (drivers seen without an ID),
// host (schema host, when the paste names the computer), quirks (the user's own usb-storage.quirks), trouble}.
export function analysePaste(text) {
  const devices = new Map();
  const get = (vid, pid) => {
    const id = `${vid}:${pid}`.toLowerCase();
    if (!devices.has(id)) devices.set(id, newDevice(id));
    return devices.get(id);
  };
  // Every spelling findUsbIds reads (lsusb, lsusb -v, dmesg, system_profiler, bare, Windows, C source).
  for (const id of findUsbIds(text)) get(...id.split(':'));
  const orphans = [];

  const byBusDevice = new Map();
  for (const line of parseLsusb(text)) {
    const device = get(line.vid, line.pid);
    if (line.name && !device.names.includes(line.name)) device.names.push(line.name);
    byBusDevice.set(`${line.bus}/${line.device}`, device);
    note(device, 'lsusb');
  }
  for (const iface of parseLsusbTree(text)) {
    const storage = iface.class.toLowerCase() === 'mass storage';
    const device = byBusDevice.get(`${iface.bus}/${iface.device}`);
    if (device) {
      if (storage) device.storage = true;
      merge(device, { driver: storage ? iface.driver : null, speed: iface.speed }, 'lsusb -t');
    } else if (storage) {
      orphans.push({ driver: iface.driver, speed: iface.speed, where: `Bus ${String(iface.bus ?? '?').padStart(2, '0')}, Dev ${iface.device}`, source: 'lsusb -t' });
    }
  }
  for (const v of parseLsusbVerbose(text)) {
    if (!v.vid || !v.pid) continue;
    const device = get(v.vid, v.pid);
    if (v.interfaces.some((i) => i.class === 8)) device.storage = true;
    merge(device, v, 'lsusb -v');
  }
  const dmesg = parseDmesg(text);
  let dmesgUasCredited = false;
  for (const d of Object.values(dmesg.devices)) {
    if (!d.vid || !d.pid) continue;
    const device = get(d.vid, d.pid);
    if (d.driver || d.uas_refused) device.storage = true;
    if (d.driver === 'uas') dmesgUasCredited = true;
    if (!device.ports.includes(d.port)) device.ports.push(d.port);
    merge(device, d, 'dmesg');
  }
  if (!dmesgUasCredited && dmesg.lines.some((l) => /scsi host\d+: uas\b/.test(l))) {
    orphans.push({ driver: 'uas', speed: null, where: 'dmesg', source: 'dmesg' });
  }
  const probe = parseProbe(text);
  for (const p of Object.values(probe.devices)) {
    const device = get(p.vid, p.pid);
    device.storage = true;
    merge(device, p, 'probe');
  }
  const ioreg = parseIoreg(text);
  const profiler = parseSystemProfiler(text);
  for (const entry of profiler) { // names for every ID; only entries with a disk or driver count as storage
    const device = get(entry.vid, entry.pid);
    if (!device.product) device.product = entry.product;
    note(device, 'macOS');
  }
  for (const m of joinMacos(ioreg, profiler)) {
    const device = get(m.vid, m.pid);
    device.storage = true;
    merge(device, m, 'macOS');
  }
  for (const io of ioreg) {
    if (io.driver && !io.vid) orphans.push({ driver: io.driver, speed: null, where: io.name, source: 'ioreg' });
  }
  for (const device of devices.values()) settleDriver(device);
  const model = machineModel(text);
  return {
    devices: [...devices.values()],
    orphans,
    host: probe.host || hostForModel(model),
    model,
    quirks: pastedQuirks(text),
    trouble: dmesg.events,
  };
}

// The storage driver to judge by: one of uas / usb-storage, or null when the paste does not say.
function settleDriver(device) {
  const storageDrivers = device.drivers.filter((d) => STORAGE_DRIVERS.includes(d));
  device.driver = storageDrivers.length === 1 ? storageDrivers[0] : null;
  if (storageDrivers.length) device.storage = true;
}

// The dmesg lines that mean storage trouble (resets, uas_eh_* aborts, I/O errors, timeouts, power), each given to
// the device it is about: the one whose `usb 2-1:` port it names, else the only storage device in the paste.
// Lines no device can be pinned on are returned as `unassigned`. Unplugging (`USB disconnect`) is not trouble.
// Each kind as [one, many] for the words "1 reset", "2 resets", "1 device taken offline".
// Is `key` one of `table`'s own keys? A key read from a link or a paste ("constructor", "__proto__", "toString")
// must never find what every object inherits.
export const hasKey = (table, key) => typeof key === 'string' && Object.hasOwn(table, key);

export const TROUBLE_KINDS = { reset: ['reset', 'resets'], 'io-error': ['I/O error', 'I/O errors'],
  hang: ['hung task', 'hung tasks'], offline: ['device taken offline', 'devices taken offline'],
  timeout: ['aborted or timed-out command', 'aborted or timed-out commands'], power: ['power warning', 'power warnings'] };

export function troubleFor(found) {
  const byId = new Map();
  const unassigned = [];
  const storage = found.devices.filter((d) => d.storage);
  for (const event of found.trouble) {
    if (!hasKey(TROUBLE_KINDS, event.kind)) continue;
    let owner = null;
    if ('owner' in event) { // read from a result's address (resultFromQuery), where the owner was settled already
      owner = event.owner ? found.devices.find((d) => d.id === event.owner) || null : null;
    } else {
      const port = /\busb (\d+-[\d.]+):/.exec(event.line);
      owner = port ? found.devices.find((d) => d.ports.includes(port[1])) : null;
      if (!owner && storage.length === 1 && event.kind !== 'power') owner = storage[0];
    }
    if (owner) {
      if (!byId.has(owner.id)) byId.set(owner.id, []);
      byId.get(owner.id).push(event);
    } else {
      unassigned.push(event);
    }
  }
  return { byId, unassigned };
}

// Schema host -> site platform (pi4, pi5, pi3, linux, macos) using the export's platform table.
export function platformForHost(host, platforms) {
  if (!host) return null;
  for (const [name, spec] of Object.entries(platforms)) if ((spec.hosts || []).includes(host)) return name;
  return null;
}

// The device tests of uas-detect.h (kernel.json runtime `steps`, read from the kernel source by the importer),
// applied in order to what the paste shows: {step, flags, chip} for the first test that holds, or
// {missing: field} when the paste lacks a value the kernel looks at before that point.
const DEVICE_VALUE = {
  max_power_ma: (d) => d.max_power_ma,
  max_streams: (d) => d.max_streams,
  speed_mbps: (d) => (d.speed ? Number.parseInt(d.speed, 10) : null),
};

export function uasDetectDecision(check, device) {
  const steps = check.steps || [];
  for (let i = 0; i < steps.length; i += 1) {
    const { when, flags, chip } = steps[i];
    if (!when) return { step: i, flags, chip };
    const value = (DEVICE_VALUE[when.field] || (() => null))(device);
    if (value === null || value === undefined || Number.isNaN(value)) return { missing: when.field };
    const holds = when.op === '==' ? value === when.value : when.op === '<' ? value < when.value : false;
    if (holds) return { step: i, flags, chip };
  }
  return null;
}

// A check result as an address, so a helper can link what a paste showed: what was found goes in, never the paste
// (no names, serial numbers or log lines). resultFromQuery(new URLSearchParams(resultQuery(found))) shows the same.
//   d=<vid:pid>[,from:<sources>][,disk][,drv:<driver>]…[,at:<speed>][,bcd:<hex>][,ma:<mA>][,streams:<n>]
//     [,uas:yes|no][,refused:blacklisted|ignored][,<trouble kind>:<count>]…      one `d` per device, in paste order
//   host=<schema host>   q=<vid:pid:letters>,…   x=<trouble kind>:<count>,…   o=<driver|->:<speed|->:<source>
// `from` has a letter per source (SOURCE_LETTERS), `disk` marks a storage device, trouble kinds are TROUBLE_KINDS'
// keys (counted per device as troubleFor assigns them; x holds those tied to none), `q` the paste's own
// usb-storage.quirks and each `o` a storage driver seen without an ID. For example:
//   /check/?platform=pi4&host=pi4&d=174c:55aa,from:td,disk,drv:uas,at:5000M,bcd:0100,reset:2,io-error:1
const SOURCE_LETTERS = { lsusb: 'l', 'lsusb -t': 't', 'lsusb -v': 'v', dmesg: 'd', probe: 'p', macOS: 'm', ioreg: 'i' };
const SOURCE_OF_LETTER = Object.fromEntries(Object.entries(SOURCE_LETTERS).map(([name, letter]) => [letter, name]));
const TOKEN = {
  id: /^[0-9a-f]{4}:[0-9a-f]{4}$/, driver: /^[A-Za-z0-9_./-]{1,64}$/, speed: /^\d{1,6}(?:\.\d{1,3})?M$/,
  bcd: /^[0-9a-f]{4}$/, number: /^\d{1,6}$/, host: /^[a-z0-9-]{1,24}$/, letters: /^[a-z]{1,26}$/, count: /^[1-9]\d{0,2}$/,
};
const MOST_DEVICES = 128; // more than any paste holds; a longer address is cut here rather than read whole
const MOST_EVENTS = 5000;

function troubleCounts(events) {
  const counts = new Map();
  for (const e of events) counts.set(e.kind, (counts.get(e.kind) || 0) + 1);
  return [...counts].map(([kind, n]) => `${kind}:${n}`);
}

// A link value: percent-encoded (so no text can add a parameter of its own), the format's `,` and `:` kept readable.
const linkValue = (text) => encodeURIComponent(text).replace(/%2C/g, ',').replace(/%3A/g, ':');

export function resultQuery(found) {
  const params = [];
  if (found.host && TOKEN.host.test(found.host)) params.push(`host=${found.host}`);
  const trouble = troubleFor(found);
  for (const d of found.devices) {
    if (!TOKEN.id.test(d.id)) continue; // what is not an ID is not written into the link
    const parts = [d.id];
    const letters = d.sources.filter((s) => hasKey(SOURCE_LETTERS, s)).map((s) => SOURCE_LETTERS[s]).join('');
    if (letters) parts.push(`from:${letters}`);
    if (d.storage) parts.push('disk');
    for (const driver of d.drivers) if (TOKEN.driver.test(driver)) parts.push(`drv:${driver}`);
    if (d.speed && TOKEN.speed.test(d.speed)) parts.push(`at:${d.speed}`);
    if (d.bcd_device && TOKEN.bcd.test(d.bcd_device)) parts.push(`bcd:${d.bcd_device}`);
    if (Number.isInteger(d.max_power_ma)) parts.push(`ma:${d.max_power_ma}`);
    if (Number.isInteger(d.max_streams)) parts.push(`streams:${d.max_streams}`);
    if (d.offers_uas !== null) parts.push(`uas:${d.offers_uas ? 'yes' : 'no'}`);
    if (d.uas_refused === 'blacklisted' || d.uas_refused === 'ignored') parts.push(`refused:${d.uas_refused}`);
    parts.push(...troubleCounts(trouble.byId.get(d.id) || []));
    params.push(`d=${linkValue(parts.join(','))}`);
  }
  const quirks = found.quirks.filter((q) => TOKEN.id.test(q.id) && TOKEN.letters.test(q.letters));
  if (quirks.length) params.push(`q=${linkValue(quirks.slice(0, MOST_DEVICES).map((q) => `${q.id}:${q.letters}`).join(','))}`);
  if (trouble.unassigned.length) params.push(`x=${linkValue(troubleCounts(trouble.unassigned).join(','))}`);
  for (const o of found.orphans) {
    const driver = o.driver && TOKEN.driver.test(o.driver) ? o.driver : '-';
    const speed = o.speed && TOKEN.speed.test(o.speed) ? o.speed : '-';
    params.push(`o=${linkValue(`${driver}:${speed}:${hasKey(SOURCE_LETTERS, o.source) ? SOURCE_LETTERS[o.source] : '-'}`)}`);
  }
  return params.join('&');
}

// Trouble events as an address gives them: a kind and a count, no line, and the device it was pinned on. Each
// kind counts once per device, and a crafted address cannot make more events than MOST_EVENTS in all.
function troubleEvents(tokens, owner, events) {
  const seen = new Set();
  for (const token of tokens) {
    const [kind, count] = token.split(':');
    if (!hasKey(TROUBLE_KINDS, kind) || seen.has(kind) || !TOKEN.count.test(count || '')) continue;
    seen.add(kind);
    for (let i = 0; i < Number(count) && events.length < MOST_EVENTS; i += 1) events.push({ kind, line: null, owner });
  }
}

const TROUBLE_KIND_COUNT = Object.keys(TROUBLE_KINDS).length;

// The first `most` comma-separated entries of `text`, without splitting the rest of a long address.
export function firstEntries(text, most) {
  const entries = [];
  let start = 0;
  while (entries.length < most && start <= text.length) {
    const end = text.indexOf(',', start);
    entries.push(text.slice(start, end === -1 ? text.length : end));
    if (end === -1) break;
    start = end + 1;
  }
  return entries;
}

// The result an address holds, in analysePaste's shape; null when it holds none (no `d` and no `o`). Anything that
// does not read as the format says is left out, so a hand-edited or cut address shows what is left of it.
export function resultFromQuery(params) {
  if (!params.has('d') && !params.has('o')) return null;
  const devices = new Map();
  const trouble = [];
  for (const value of params.getAll('d').slice(0, MOST_DEVICES)) {
    const [id, ...tokens] = firstEntries(value, 64);
    if (!TOKEN.id.test(id) || devices.has(id)) continue;
    const device = newDevice(id);
    const troubleTokens = [];
    for (const token of tokens) {
      const at = token.indexOf(':');
      const [key, arg] = at === -1 ? [token, ''] : [token.slice(0, at), token.slice(at + 1)];
      if (key === 'disk' && !arg) device.storage = true;
      else if (key === 'from') device.sources = [...new Set([...arg].slice(0, 16).filter((l) => hasKey(SOURCE_OF_LETTER, l)).map((l) => SOURCE_OF_LETTER[l]))];
      else if (key === 'drv' && TOKEN.driver.test(arg) && !device.drivers.includes(arg)) device.drivers.push(arg);
      else if (key === 'at' && TOKEN.speed.test(arg)) device.speed = arg;
      else if (key === 'bcd' && TOKEN.bcd.test(arg)) device.bcd_device = arg;
      else if (key === 'ma' && TOKEN.number.test(arg)) device.max_power_ma = Number(arg);
      else if (key === 'streams' && TOKEN.number.test(arg)) device.max_streams = Number(arg);
      else if (key === 'uas' && (arg === 'yes' || arg === 'no')) device.offers_uas = arg === 'yes';
      else if (key === 'refused' && (arg === 'blacklisted' || arg === 'ignored')) device.uas_refused = arg;
      else if (hasKey(TROUBLE_KINDS, key)) troubleTokens.push(token);
    }
    settleDriver(device);
    troubleEvents(troubleTokens, id, trouble);
    devices.set(id, device);
  }
  troubleEvents(firstEntries(params.get('x') || '', TROUBLE_KIND_COUNT), null, trouble);
  // The paste's own quirk entries: at most MOST_DEVICES of them (a link of 20,000 froze the tab), each ID once.
  const quirks = [];
  const quirkIds = new Set();
  for (const entry of firstEntries(params.get('q') || '', MOST_DEVICES)) {
    const [id, letters] = [entry.slice(0, 9), entry.slice(10)];
    if (TOKEN.id.test(id) && entry[9] === ':' && TOKEN.letters.test(letters) && !quirkIds.has(id)) {
      quirkIds.add(id);
      quirks.push({ id, letters });
    }
  }
  const orphans = [];
  for (const value of params.getAll('o').slice(0, MOST_DEVICES)) {
    const [driver, speed, letter] = value.split(':');
    if (driver === undefined || speed === undefined || !hasKey(SOURCE_OF_LETTER, letter)) continue;
    orphans.push({ driver: TOKEN.driver.test(driver) && driver !== '-' ? driver : null,
      speed: TOKEN.speed.test(speed) ? speed : null, where: null, source: SOURCE_OF_LETTER[letter] });
  }
  const host = params.get('host');
  return { devices: [...devices.values()], orphans, host: host && TOKEN.host.test(host) ? host : null, model: null,
    quirks, trouble, linked: true };
}
