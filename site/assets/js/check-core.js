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
  for (const device of devices.values()) {
    // The storage driver to judge by: one of uas / usb-storage, or null when the paste does not say.
    const storageDrivers = device.drivers.filter((d) => STORAGE_DRIVERS.includes(d));
    device.driver = storageDrivers.length === 1 ? storageDrivers[0] : null;
    if (storageDrivers.length) device.storage = true;
  }
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

// The dmesg lines that mean storage trouble (resets, uas_eh_* aborts, I/O errors, timeouts, power), each given to
// the device it is about: the one whose `usb 2-1:` port it names, else the only storage device in the paste.
// Lines no device can be pinned on are returned as `unassigned`. Unplugging (`USB disconnect`) is not trouble.
export const TROUBLE_KINDS = { reset: 'resets', 'io-error': 'I/O errors', hang: 'hung tasks', offline: 'devices taken offline',
  timeout: 'aborted or timed-out commands', power: 'power warnings' };

export function troubleFor(found) {
  const byId = new Map();
  const unassigned = [];
  const storage = found.devices.filter((d) => d.storage);
  for (const event of found.trouble) {
    if (!TROUBLE_KINDS[event.kind]) continue;
    const port = /\busb (\d+-[\d.]+):/.exec(event.line);
    let owner = port ? found.devices.find((d) => d.ports.includes(port[1])) : null;
    if (!owner && storage.length === 1 && event.kind !== 'power') owner = storage[0];
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

