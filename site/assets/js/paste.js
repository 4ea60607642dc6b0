// Parsers for pasted lsusb, lsusb -t, lsusb -v, dmesg, ioreg, system_profiler and probe output.
// The same logic as the Python parsers in scripts/uasdb/probe/parsers.py (the same regular expressions, the same
// result shapes with the same snake_case keys), so tests/site/test_site_check.py can compare both on the
// real captures in tests/fixtures/probe/captured/. Each parser ignores lines it does not recognise, so
// prompts, headings and other commands' output may be mixed in. No DOM here.
// Every pattern runs in time linear in the line, whatever a paste holds (the rule is in probe/parsers.py's
// docstring: named patterns, bounded lazy middles, trailing blanks trimmed in code, never matched);
// tests/test_linear_patterns.py feeds each one a megabyte of its worst case.

const MASS_STORAGE_CLASS = 0x08;
const PROTOCOL_UAS = 0x62;
const LINK_SPEEDS = { 480: '480M', 5000: '5000M', 10000: '10000M', 20000: '20000M' };

// `lsusb`: "Bus 002 Device 003: ID 152d:0578 JMicron Technology Corp. ..."
const LSUSB_LINE = /Bus (\d+) Device (\d+): ID ([0-9a-fA-F]{4}):([0-9a-fA-F]{4})\s*(.*)$/;
// `lsusb -t` root line and interface line.
const LSUSB_T_ROOT = /^\s*\/:\s+Bus (\d+)\.Port (\d+): Dev (\d+),/;
const LSUSB_T_NODE = /^(\s*)\|__ Port (\d+): Dev (\d+), If (\d+), Class=([^,]*), Driver=([^,]*), ([0-9.]+M)\s*$/;
// `lsusb -v` fields we use, read by lsusbField() in one pass (no regular expression: a pasted line of
// spaces must not cost more than its length). MaxPower is bMaxPower in mA; MaxStreams comes from the
// SuperSpeed endpoint companion. Both are what the kernel's uas-detect.h looks at.
const LSUSB_V_FIELDS = new Set(['idVendor', 'idProduct', 'bcdDevice', 'bcdUSB', 'iManufacturer', 'iProduct', 'iSerial',
  'MaxPower', 'MaxStreams', 'bInterfaceClass', 'bInterfaceProtocol', 'bAlternateSetting']);
const LSUSB_V_SPEED = /^\s*Negotiated speed:.*\((\d+)(M|G)bps\)/;
// dmesg.
const DMESG_NEW_DEVICE = /usb (\d+-[\d.]+): New USB device found, idVendor=([0-9a-fA-F]{4}), idProduct=([0-9a-fA-F]{4})(?:, bcdDevice=\s*([0-9a-fA-F]+\.[0-9a-fA-F]+))?/;
const DMESG_STRING = /usb (\d+-[\d.]+): (Product|Manufacturer): (.*)$/;
const DMESG_ENUMERATED = /usb (\d+-[\d.]+): new (.{1,60}?) USB device number \d+/;
const DMESG_BOT = /(?:usb-storage (\d+-[\d.]+):\d+\.\d+: USB Mass Storage device detected|scsi host\d+: usb-storage (\d+-[\d.]+):\d+\.\d+)/;
const DMESG_UAS_HOST = /scsi host\d+: uas\b/;
const DMESG_UAS_REFUSED = /usb (\d+-[\d.]+): UAS is (blacklisted|ignored) for this device/;
const DMESG_QUIRKS_MATCH = /Quirks match for vid ([0-9a-f]{4}) pid ([0-9a-f]{4}): ([0-9a-fA-F]+)/;
// The same list as DMESG_TROUBLE in scripts/uasdb/probe/parsers.py (the parity tests hold them alike).
const DMESG_TROUBLE = [
  ['reset', /reset (?:SuperSpeed|high-speed|full-speed)|uas_eh_(?:device|bus)_reset_handler start|uas_zap_pending|device reset/i],
  ['io-error', /I\/O error|critical medium error|Buffer I\/O error/i],
  ['hang', /blocked for more than \d+ seconds/i],
  ['offline', /rejecting I\/O to offline device|device offlined/i],
  ['disconnect', /USB disconnect/i],
  ['power', /Under-?voltage|over-current|overcurrent/i],
  ['timeout', /command .{0,200} timed out|abort|timing out command/i],
];
// One round of UAS error handling counts as one reset, at its start (RESET_ROUND_END in parsers.py).
const RESET_ROUND_END = /uas_eh_(?:device|bus)_reset_handler (?:success|FAILED|failed)/i;
const USB_RESET = /reset (?:SuperSpeed|high-speed|full-speed)/i;
const DMESG_RELEVANT = /\buas\b|usb-storage|\bUAS\b|reset|quirk|Under-?voltage|I\/O error|USB disconnect|New USB device|new .{0,60}USB device number|: (?:Product|Manufacturer): |scsi host|Direct-Access|over-?current/i;

// Python's str.splitlines(): the same line breaks, no empty string after a final newline.
// biome-ignore lint/suspicious/noControlCharactersInRegex: \x1c-\x1e are line breaks to splitlines(), which this matches
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;
export function splitLines(text) {
  const lines = String(text).split(LINE_BREAK);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

// Small patterns the functions below use (named, like the rest, so the linear-time test sees them all).
const DIGITS = /^\d+$/;
const MAX_POWER = /^\d+mA$/;
const BCD_DOTTED = /^([0-9a-fA-F]{1,2})\.([0-9a-fA-F]{2})$/;
const HEX_NUMBER = /^[0-9a-fA-F]+$/;
// `idVendor 0x152d JMicron …`: four hex digits and nothing else; any other value is not an ID (it once carried a
// link's own parameters into the result link).
const LSUSB_V_ID = /^0x([0-9a-fA-F]{4})$/;
const BARE_USB_ID = /(?<![0-9a-fA-Fx:])([0-9a-fA-F]{4}):([0-9a-fA-F]{4})(?![0-9a-fA-F:])/g;
// Spellings Windows and C sources print: VID_152D&PID_0578, 0x152d 0x0578, 0x152d:0x0578.
const OTHER_USB_ID = /VID_([0-9a-fA-F]{4})&PID_([0-9a-fA-F]{4})|\b0x([0-9a-fA-F]{4})[ :]0x([0-9a-fA-F]{4})\b/g;
const isDigits = (s) => DIGITS.test(s);
const rstrip = (s) => s.trimEnd();
// Blanks inside a line, as lsusb prints them (the same set as lsusb_field() in probe/parsers.py).
const BLANK = new Set([' ', '\t', '\f', '\v']);

// "  iManufacturer           1 JMicron  " -> ['iManufacturer', '1', 'JMicron']: name, first word, the rest trimmed.
export function lsusbField(line) {
  let i = 0;
  const n = line.length;
  const skip = () => { while (i < n && BLANK.has(line[i])) i += 1; };
  const word = () => { const start = i; while (i < n && !BLANK.has(line[i])) i += 1; return line.slice(start, i); };
  skip();
  const name = word();
  if (!LSUSB_V_FIELDS.has(name) || i >= n) return null;
  skip();
  const value = word();
  if (!value) return null;
  skip();
  let end = n;
  while (end > i && BLANK.has(line[end - 1])) end -= 1;
  return [name, value, line.slice(i, end)];
}
const pad2 = (n) => n.toString(16).padStart(2, '0');

// lsusb and dmesg print bcdDevice as hex digits `32.02` or ` 1.00`; the schema wants `3202`, `0100`.
export function bcdFromDotted(text) {
  const m = BCD_DOTTED.exec((text || '').trim());
  return m ? pad2(parseInt(m[1], 16)) + pad2(parseInt(m[2], 16)) : null;
}

// Link speed in `lsusb -t` form from dmesg's or lsusb's words.
export function speedFromText(text) {
  const words = text.toLowerCase();
  if (words.includes('gen 2x2') || words.includes('20gbps')) return '20000M';
  if (['superspeed plus', 'superspeedplus', 'superspeed+', 'gen 2', 'gen 1x2', '10gbps'].some((w) => words.includes(w))) {
    return '10000M';
  }
  if (words.includes('superspeed') || words.includes('5gbps')) return '5000M';
  if (['high-speed', 'high speed', '480mbps'].some((w) => words.includes(w))) return '480M';
  return null;
}

export function parseLsusb(text) {
  const found = [];
  for (const line of splitLines(text)) {
    const m = LSUSB_LINE.exec(line);
    if (m) {
      found.push({ bus: Number(m[1]), device: Number(m[2]), vid: m[3].toLowerCase(), pid: m[4].toLowerCase(),
        name: m[5].trim(), line: line.trim() });
    }
  }
  return found;
}

export function parseLsusbTree(text) {
  const interfaces = [];
  let bus = null;
  for (const line of splitLines(text)) {
    const root = LSUSB_T_ROOT.exec(line);
    if (root) { bus = Number(root[1]); continue; }
    const node = LSUSB_T_NODE.exec(line);
    if (node) {
      const driver = node[6].trim();
      interfaces.push({ bus, port: Number(node[2]), device: Number(node[3]), interface: Number(node[4]),
        class: node[5].trim(), driver: driver && driver !== '[none]' ? driver : null, speed: node[7], line: rstrip(line) });
    }
  }
  return interfaces;
}

export function storageInterfaces(tree) {
  return tree.filter((i) => i.class.toLowerCase() === 'mass storage');
}

export function parseLsusbVerbose(text) {
  const devices = [];
  let current = null;
  const start = () => {
    const device = { vid: null, pid: null, bcd_device: null, bcd_usb: null, manufacturer: null, product: null, serial: null,
      speed: null, max_power_ma: null, max_streams: null, interfaces: [] };
    devices.push(device);
    return device;
  };
  for (const line of splitLines(text)) {
    const header = LSUSB_LINE.exec(line);
    if (header) {
      current = start();
      current.vid = header[3].toLowerCase();
      current.pid = header[4].toLowerCase();
      continue;
    }
    if (line.trim() === 'Device Descriptor:' && (current === null || current.bcd_device !== null)) {
      current = start();
      continue;
    }
    const speed = LSUSB_V_SPEED.exec(line);
    if (speed) {
      current = current || start();
      const number = Number(speed[1]) * (speed[2] === 'G' ? 1000 : 1);
      current.speed = LINK_SPEEDS[number] || null;
      continue;
    }
    const field = lsusbField(line);
    if (!field) continue;
    current = current || start();
    const [name, value, rest] = field;
    const id = (name === 'idVendor' || name === 'idProduct') ? LSUSB_V_ID.exec(value) : null;
    if (id) {
      current[name === 'idVendor' ? 'vid' : 'pid'] = id[1].toLowerCase();
    } else if (name === 'bcdDevice' || name === 'bcdUSB') {
      current[name === 'bcdDevice' ? 'bcd_device' : 'bcd_usb'] = bcdFromDotted(value);
    } else if (name === 'iManufacturer' || name === 'iProduct' || name === 'iSerial') {
      current[{ iManufacturer: 'manufacturer', iProduct: 'product', iSerial: 'serial' }[name]] = rest || null;
    } else if (name === 'MaxPower' && MAX_POWER.test(value)) {
      current.max_power_ma = Number(value.slice(0, -2));
    } else if (name === 'MaxStreams' && isDigits(value)) {
      current.max_streams = Math.max(current.max_streams || 0, Number(value));
    } else if (name === 'bAlternateSetting') {
      current.interfaces.push({ alt: isDigits(value) ? Number(value) : null, class: null, protocol: null });
    } else if ((name === 'bInterfaceClass' || name === 'bInterfaceProtocol') && isDigits(value)) {
      if (!current.interfaces.length) current.interfaces.push({ alt: null, class: null, protocol: null });
      current.interfaces[current.interfaces.length - 1][name === 'bInterfaceClass' ? 'class' : 'protocol'] = Number(value);
    }
  }
  for (const device of devices) {
    const storage = device.interfaces.filter((i) => i.class === MASS_STORAGE_CLASS);
    if (storage.some((i) => i.protocol === PROTOCOL_UAS)) device.offers_uas = true;
    else if (storage.length && storage.every((i) => i.protocol !== null)) device.offers_uas = false;
    else device.offers_uas = null;
  }
  // A bare `lsusb` line makes a header with nothing under it; that is not `lsusb -v` output.
  return devices.filter((d) => d.bcd_device || d.interfaces.length || d.speed || d.product);
}

export function parseDmesg(text) {
  const devices = Object.create(null); // keyed by text from the paste: no inherited keys
  const events = [];
  const relevant = [];
  let lastPort = null;
  let inResetRound = false;
  const device = (port) => {
    if (!devices[port]) {
      devices[port] = { port, vid: null, pid: null, bcd_device: null, product: null, manufacturer: null,
        speed: null, driver: null, uas_refused: null, kernel_quirks: null };
    }
    return devices[port];
  };
  for (const raw of splitLines(text)) {
    const line = rstrip(raw);
    if (!line.trim()) continue;
    if (DMESG_RELEVANT.test(line)) relevant.push(line);
    for (const [kind, pattern] of DMESG_TROUBLE) {
      if (pattern.test(line)) {
        if (!(inResetRound && kind === 'reset' && USB_RESET.test(line))) events.push({ kind, line });
        inResetRound = inResetRound || (kind === 'reset' && !USB_RESET.test(line) && line.includes('reset_handler'));
        break;
      }
    }
    if (RESET_ROUND_END.test(line)) inResetRound = false;
    let m = DMESG_ENUMERATED.exec(line);
    if (m) { device(m[1]).speed = speedFromText(m[2]); lastPort = m[1]; continue; }
    m = DMESG_NEW_DEVICE.exec(line);
    if (m) {
      const entry = device(m[1]);
      entry.vid = m[2].toLowerCase();
      entry.pid = m[3].toLowerCase();
      if (m[4]) entry.bcd_device = bcdFromDotted(m[4]);
      lastPort = m[1];
      continue;
    }
    m = DMESG_STRING.exec(line);
    if (m) { device(m[1])[m[2].toLowerCase()] = m[3]; continue; }
    m = DMESG_UAS_REFUSED.exec(line);
    if (m) { device(m[1]).uas_refused = m[2]; continue; }
    m = DMESG_BOT.exec(line);
    if (m) { device(m[1] || m[2]).driver = 'usb-storage'; continue; }
    m = DMESG_QUIRKS_MATCH.exec(line);
    if (m) {
      for (const entry of Object.values(devices)) {
        if (entry.vid === m[1] && entry.pid === m[2]) entry.kernel_quirks = m[3].toLowerCase();
      }
      continue;
    }
    if (DMESG_UAS_HOST.test(line) && lastPort) device(lastPort).driver = 'uas';
  }
  return { devices, events, lines: relevant };
}

// macOS `ioreg`: USB devices and the storage driver found below each.
const IOREG_NODE = /^([ |]*)\+-o (.+?) {2}<class ([A-Za-z0-9_]+)/;
const IOREG_PROPERTY = /^[ |]*"([^"]+)" = (.*)$/;
const MAC_DEVICE_CLASSES = ['IOUSBHostDevice', 'IOUSBDevice'];
const MAC_UAS_CLASSES = ['IOUSBMassStorageUASDriver', 'IOUSBAttachedSCSI'];
const MAC_BOT_CLASSES = ['IOUSBMassStorageDriver', 'IOUSBMassStorageClass'];

// Python's str.strip('"'), by hand: the pattern /^"+|"+$/g was tried at every quote of a long run (quadratic).
function stripQuotes(value) {
  let start = 0;
  let end = value.length;
  while (start < end && value[start] === '"') start += 1;
  while (end > start && value[end - 1] === '"') end -= 1;
  return value.slice(start, end);
}

export function parseIoreg(text) {
  const devices = [];
  const stack = [];
  let lastNodeIsDevice = null;
  for (const line of splitLines(text)) {
    const node = IOREG_NODE.exec(line);
    if (node) {
      const depth = node[1].length;
      while (stack.length && stack[stack.length - 1][0] >= depth) stack.pop();
      let owner = stack.length ? stack[stack.length - 1][1] : null;
      const [, , name, cls] = node;
      if (MAC_DEVICE_CLASSES.includes(cls)) {
        const at = name.indexOf('@');
        const base = at < 0 ? name : name.slice(0, at);
        const location = at < 0 ? '' : name.slice(at + 1);
        owner = { name: base, location: HEX_NUMBER.test(location) ? parseInt(location, 16) : null,
          vid: null, pid: null, bcd_device: null, product: null, manufacturer: null, driver: null };
        devices.push(owner);
        lastNodeIsDevice = owner;
      } else {
        lastNodeIsDevice = null;
        if (owner !== null && owner.driver === null) {
          if (MAC_UAS_CLASSES.some((c) => cls.startsWith(c))) owner.driver = 'uas';
          else if (MAC_BOT_CLASSES.includes(cls)) owner.driver = 'usb-storage';
        }
      }
      stack.push([depth, owner]);
      continue;
    }
    const prop = IOREG_PROPERTY.exec(line);
    if (prop && lastNodeIsDevice !== null) {
      const key = prop[1];
      const value = prop[2].trim();
      const number = isDigits(value) ? Number(value) : null;
      const hex4 = (n) => n.toString(16).padStart(4, '0');
      if (key === 'idVendor' && number !== null) lastNodeIsDevice.vid = hex4(number);
      else if (key === 'idProduct' && number !== null) lastNodeIsDevice.pid = hex4(number);
      else if (key === 'bcdDevice' && number !== null) lastNodeIsDevice.bcd_device = hex4(number);
      else if (key === 'locationID' && number !== null) lastNodeIsDevice.location = number;
      else if (key === 'USB Product Name' || key === 'kUSBProductString') lastNodeIsDevice.product = stripQuotes(value);
      else if (key === 'USB Vendor Name' || key === 'kUSBVendorString') lastNodeIsDevice.manufacturer = stripQuotes(value);
    }
  }
  return devices.filter((d) => d.name !== 'Root Hub Simulation');
}

// macOS `system_profiler SPUSBDataType`. Both read a line whose trailing blanks are already trimmed:
// `(\S.*?)\s*$` backtracked over every blank of a value.
const SP_HEADING = /^(\s*)(\S.*?):$/;
const SP_FIELD = /^\s*([A-Za-z][A-Za-z0-9 .()/-]*?):\s+(\S.*)$/;
const SP_HEX_ID = /^0x([0-9a-fA-F]{4})/;
const SP_HEX_NUMBER = /^0x([0-9a-fA-F]+)/;
// Starts only where a number starts: searched from every digit of a long run, it was quadratic.
const MACOS_SPEED = /(?<![0-9.])([0-9.]+)\s*(Mb|Gb)/;

function macosSpeed(value) {
  const m = MACOS_SPEED.exec(value);
  if (!m) return null;
  const megabits = parseFloat(m[1]) * (m[2] === 'Gb' ? 1000 : 1);
  return LINK_SPEEDS[Math.trunc(megabits)] || null;
}

export function parseSystemProfiler(text) {
  const entries = [];
  let current = null;
  let mediaIndent = null;
  for (const raw of splitLines(text)) {
    const line = rstrip(raw);
    const heading = SP_HEADING.exec(line);
    if (heading) {
      const indent = heading[1].length;
      const title = heading[2].trim();
      if (mediaIndent !== null && indent > mediaIndent) continue; // a disk or volume name inside Media:
      mediaIndent = null;
      if (title === 'Media' && current !== null) { mediaIndent = indent; continue; }
      current = { product: title, vid: null, pid: null, bcd_device: null, manufacturer: null, speed: null,
        location: null, bsd_names: [] };
      entries.push(current);
      continue;
    }
    const field = SP_FIELD.exec(line);
    if (!field || current === null) continue;
    const [, key, value] = field;
    if (mediaIndent !== null) {
      if (key === 'BSD Name') current.bsd_names.push(value);
      continue;
    }
    if (key === 'Product ID' || key === 'Vendor ID') {
      const hex = SP_HEX_ID.exec(value);
      current[key === 'Product ID' ? 'pid' : 'vid'] = hex ? hex[1].toLowerCase() : null;
    } else if (key === 'Version') current.bcd_device = bcdFromDotted(value);
    else if (key === 'Manufacturer') current.manufacturer = value;
    else if (key === 'Speed') current.speed = macosSpeed(value);
    else if (key === 'Location ID') {
      const location = SP_HEX_NUMBER.exec(value);
      current.location = location ? parseInt(location[1], 16) : null;
    } else if (key === 'BSD Name') current.bsd_names.push(value);
  }
  return entries.filter((e) => e.pid && e.vid);
}

export function joinMacos(ioregDevices, profiler) {
  const byLocation = new Map();
  for (const d of ioregDevices) if (d.location !== null) byLocation.set(d.location, d);
  const joined = [];
  for (const entry of profiler) {
    const io = entry.location !== null ? byLocation.get(entry.location) || null : null;
    const driver = io ? io.driver : null;
    if (!entry.bsd_names.length && driver === null) continue;
    joined.push({ ...entry, driver, in_ioreg: io !== null });
  }
  const known = new Set(joined.map((e) => `${e.vid}|${e.pid}|${e.location}`));
  const locations = new Set(joined.map((e) => e.location));
  for (const io of ioregDevices) { // `ioreg -l` alone carries IDs too
    if (io.driver && io.vid && !known.has(`${io.vid}|${io.pid}|${io.location}`) && !locations.has(io.location)) {
      joined.push({ product: io.product || io.name, vid: io.vid, pid: io.pid, bcd_device: io.bcd_device,
        manufacturer: io.manufacturer, speed: null, location: io.location, bsd_names: [], driver: io.driver, in_ioreg: true });
    }
  }
  return joined;
}

// Every `vid:pid` in a paste, in the order probe.find_usb_ids() finds them.
export function findUsbIds(text) {
  const ids = new Set(); // in the order found, each once (an array's includes was quadratic on a long paste)
  const add = (vid, pid) => ids.add(`${vid.toLowerCase()}:${pid.toLowerCase()}`);
  for (const e of parseLsusb(text)) add(e.vid, e.pid);
  for (const e of parseLsusbVerbose(text)) if (e.vid && e.pid) add(e.vid, e.pid);
  for (const e of Object.values(parseDmesg(text).devices)) if (e.vid && e.pid) add(e.vid, e.pid);
  for (const e of parseSystemProfiler(text)) if (e.vid && e.pid) add(e.vid, e.pid);
  for (const m of String(text).matchAll(BARE_USB_ID)) add(m[1], m[2]);
  for (const m of String(text).matchAll(OTHER_USB_ID)) add(m[1] || m[3], m[2] || m[4]);
  return [...ids];
}

// ---------------------------------------------------------------------------
// Probe output (the probe, scripts/uasdb/probe/, prints its facts as `# ` comments and again under evidence.probe).
// ---------------------------------------------------------------------------
// These read lines whose trailing blanks are already trimmed (see the note on SP_FIELD).
const PROBE_HOST = /^[#\s]*host: .*\(([a-z0-9-]+)\)$|^\s*host: ([a-z0-9-]+)$/;
const PROBE_DEVICE = /^[#\s]*device (\S+): ([0-9a-f]{4}):([0-9a-f]{4})(?: bcdDevice ([0-9a-f]{4}))?(.*?)(?: speed (\d+M))?(?: usb [\d.]+)?$/;
const PROBE_INTERFACE = /^[#\s]*interface (\S+?):((?: class [0-9a-f]{2})?(?: protocol [0-9a-f]{2})?) driver (\S+)/;
const PROBE_OFFERS = /^[#\s]*offers UAS \(descriptors\): (yes|no)$/;
const PROBE_QUOTED = /"([^"]*)"/g;
const PROBE_STORAGE_CLASS = /class 08/;
const CMDLINE_QUIRKS = /usb-storage\.quirks=(\S*)/;
const PROBE_MODULE_QUIRKS = /^[#\s]*usb_storage quirks parameter: (\S*)/;
const QUIRK_ENTRY = /^([0-9a-fA-F]{4}):([0-9a-fA-F]{4}):([a-zA-Z]*)$/;
const MACHINE_MODEL = /Machine model: (.+)$/;

// The probe's `device` and `interface` lines -> devices keyed by port, with the driver bound to storage.
export function parseProbe(text) {
  const devices = Object.create(null); // keyed by text from the paste ("device __proto__: …" is just a name)
  let host = null;
  let last = null;
  for (const raw of splitLines(text)) {
    const line = rstrip(raw);
    let m = PROBE_HOST.exec(line);
    if (m) { host = host || m[1] || m[2]; continue; }
    m = PROBE_DEVICE.exec(line);
    if (m) {
      const strings = [...m[5].matchAll(PROBE_QUOTED)].map((s) => s[1]);
      if (!devices[m[1]]) {
        devices[m[1]] = { port: m[1], vid: m[2], pid: m[3], bcd_device: m[4] || null,
          manufacturer: strings.length > 1 ? strings[0] : null, product: strings.length ? strings[strings.length - 1] : null,
          speed: m[6] || null, driver: null, offers_uas: null };
      }
      last = devices[m[1]];
      continue;
    }
    m = PROBE_INTERFACE.exec(line);
    if (m && last && (m[1] === last.port || m[1].startsWith(`${last.port}:`))) {
      const storage = PROBE_STORAGE_CLASS.test(m[2]);
      if (m[3] !== '(none)' && (storage || !last.driver)) last.driver = m[3];
      continue;
    }
    m = PROBE_OFFERS.exec(line);
    if (m && last) last.offers_uas = m[1] === 'yes';
  }
  return { host, devices };
}

// The user's own usb-storage.quirks entries, from a kernel command line (dmesg, /proc/cmdline, probe) in the paste.
// At most MOST_QUIRK_ENTRIES, each ID once (Linux reads 127 characters of the parameter: about ten entries).
export const MOST_QUIRK_ENTRIES = 128;
export function pastedQuirks(text) {
  const entries = [];
  const seen = new Set();
  for (const line of splitLines(text)) {
    const m = CMDLINE_QUIRKS.exec(line) || PROBE_MODULE_QUIRKS.exec(line);
    if (!m) continue;
    for (const part of m[1].split(',')) {
      if (entries.length >= MOST_QUIRK_ENTRIES) return entries;
      const e = QUIRK_ENTRY.exec(part.trim());
      const id = e ? `${e[1]}:${e[2]}`.toLowerCase() : null;
      if (e && !seen.has(id)) {
        seen.add(id);
        entries.push({ id, letters: e[3].toLowerCase() });
      }
    }
  }
  return entries;
}

// The Raspberry Pi model named in dmesg ("Machine model: Raspberry Pi 4 Model B Rev 1.4"), if any.
export function machineModel(text) {
  for (const line of splitLines(text)) {
    const m = MACHINE_MODEL.exec(rstrip(line));
    if (m) return m[1];
  }
  return null;
}
