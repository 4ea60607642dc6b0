// Per-ID data for the browser tools (/check/ and /quirks/), fetched as a paste or a line needs it, never the
// whole database (scripts/uasdb/publish/files.py writes these):
//   ids/<vid>/<pp>.json      which of a vendor's product IDs (starting with pp) have a file, and a few of its products
//   usb/<vid>/<pid>.json     an ID's products (with slim verdicts), distributions, expectation and kernel entries
//   kernel-letters.json      the kernel's version, letters, flag words and runtime checks, without per-ID tables
//   usbids/<vv>.json         usb.ids names of the vendors whose ID starts with vv
//   shards.json              which of the ids/ and usbids/ shards exist (so none is asked for in vain)
import { loadApi } from './ui.js';

const shardList = (api) => loadApi(`${api}shards.json`).then((s) => ({ ids: new Set(s.ids), usbids: new Set(s.usbids) }));

// The kernel object the tools work with (kernel.json's shape): letters and runtime checks from kernel-letters.json,
// `builtin` and `groups` filled in per ID as each ID's file arrives.
export async function loadKernel(api) {
  const letters = await loadApi(`${api}kernel-letters.json`);
  return { ...letters, builtin: {}, groups: {} };
}

const split = (id) => { const [vid, pid] = id.split(':'); return { vid, pid }; };

// For each ID: its file's `result`, or null when the database has no file for it. Fills kernel.builtin and
// kernel.groups for the IDs that have one.
export async function loadIdFiles(api, ids, kernel) {
  const unique = [...new Set(ids)];
  const existing = (await shardList(api)).ids;
  const none = { pids: [], related: [] };
  const shards = new Map();
  for (const id of unique) {
    const { vid, pid } = split(id);
    const key = `${vid}/${pid.slice(0, 2)}`;
    if (!shards.has(key)) shards.set(key, existing.has(key) ? loadApi(`${api}ids/${key}.json`).catch(() => none) : Promise.resolve(none));
  }
  const files = new Map(await Promise.all(unique.map(async (id) => {
    const { vid, pid } = split(id);
    const shard = await shards.get(`${vid}/${pid.slice(0, 2)}`);
    if (!shard.pids.includes(pid)) return [id, null];
    const file = await loadApi(`${api}usb/${vid}/${pid}.json`).catch(() => null);
    if (file && kernel) {
      kernel.builtin[id] = file.check.builtin;
      kernel.groups[id] = file.check.groups;
    }
    return [id, file];
  })));
  const related = new Map();
  for (const id of unique) {
    const { vid, pid } = split(id);
    related.set(id, (await shards.get(`${vid}/${pid.slice(0, 2)}`)).related);
  }
  return { files, related };
}

// usb.ids' names for these vendor IDs' shards: { vendors: {vid: name}, products: {"vid:pid": name} }.
export async function loadUsbIds(api, vids) {
  const existing = (await shardList(api)).usbids;
  const heads = [...new Set(vids.map((vid) => vid.slice(0, 2)))].filter((h) => existing.has(h));
  const shards = await Promise.all(heads.map((h) => loadApi(`${api}usbids/${h}.json`).catch(() => ({ vendors: {}, products: {} }))));
  return shards.reduce((all, s) => ({ vendors: { ...all.vendors, ...s.vendors }, products: { ...all.products, ...s.products } }),
    { vendors: {}, products: {} });
}
