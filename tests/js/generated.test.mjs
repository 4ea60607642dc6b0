// A generated-input harness for the site's page-free readers (issue 39): thousands of pastes and links built from
// the formats' own words and random text, from a fixed seed (a failure prints its input and reproduces). The
// properties are what the check page promises: no exception, only real IDs, a result link that holds nothing from
// the paste but the result, and reads back as itself; capped, deduplicated lists; no inherited key found by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { analysePaste, resultFromQuery, resultQuery } from '../../site/assets/js/check-core.js';
import { findUsbIds, pastedQuirks, MOST_QUIRK_ENTRIES } from '../../site/assets/js/paste.js';
import { parseEntries, MOST_ENTRIES } from '../../site/assets/js/quirks-core.js';
import { normalise, terms } from '../../site/assets/js/filter.js';
import { readQuery } from '../../site/assets/js/search-words.js';

// As the Python property tests (tests/helpers.py examples): the full 3,000 inputs per property in `make test`, the
// first quarter of the same seeded sequence in the fast lane (`make check` sets UASDB_FAST_LANE), which runs on
// every commit.
const RUNS = process.env.UASDB_FAST_LANE ? 750 : 3000;
const ID = /^[0-9a-f]{4}:[0-9a-f]{4}$/;
const KEYS = new Set(['host', 'd', 'q', 'x', 'o']);
const KERNEL = { letters: [...'abcdefghijklmnopqrstuvwxyz'].map((letter) => ({ letter, flag: letter.toUpperCase() })) };
const WORDS = ['Bus 002 Device 003: ID ', '152d:0578', '174c:55AA', ' JMicron', '\n', ' ', '\t', ':', ',', '0x', '  idVendor ',
  '  idProduct ', 'Device Descriptor:\n', 'usb 2-1: ', 'New USB device found, idVendor=', ', idProduct=', 'scsi host0: uas',
  '/:  Bus 02.Port 1: Dev 1, Class=root_hub, Driver=xhci_hcd/4p, 5000M\n', '    |__ Port 1: Dev 3, If 0, Class=Mass Storage, Driver=uas, 5000M\n',
  'Product ID: 0x0578\n', 'Vendor ID: 0x152d\n', '+-o ', '"idVendor" = 5421\n', 'usb-storage.quirks=', '152d:0578:u', ',174c:55aa:k',
  'VID_152D&PID_0578', '&platform=pi5', '&d=dead:beef', 'constructor', '__proto__', 'toString', '# device 2-1: 152d:0578 "x" speed 5000M\n',
  '# interface 2-1:1.0 class 08 protocol 62 driver uas\n', 'uas_eh_abort_handler 0 uas-tag 1\n', 'reset SuperSpeed USB device number 2\n',
  'Under-voltage detected!\n', 'Machine model: Raspberry Pi 4 Model B Rev 1.4\n', '\u202e', '\u3164', '\ufffe', 'é', '%', '=', '&', '#', '?'];
const LINK_WORDS = ['d=', 'q=', 'x=', 'o=', 'host=', 'platform=', '&', ',', ':', '152d:0578', '174c:55aa', 'from:', 'tdlp', 'disk', 'drv:uas',
  'at:5000M', 'bcd:0100', 'ma:896', 'streams:32', 'uas:yes', 'refused:ignored', 'reset:2', 'io-error:1', 'constructor', '__proto__',
  'toString', 'hasOwnProperty', 'uas:5000M:t', '-:-:d', 'pi4', '%26', '%2C', '152d:0578:u', '!', '.'];

function random(seed) { // mulberry32
  let a = seed;
  return () => {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generate(next, words, most) {
  const parts = [];
  const n = Math.floor(next() * most);
  for (let i = 0; i < n; i += 1) {
    if (next() < 0.8) parts.push(words[Math.floor(next() * words.length)]);
    else parts.push(String.fromCharCode(...Array.from({ length: 1 + Math.floor(next() * 4) }, () => Math.floor(next() * 0x3000))));
  }
  return parts.join('');
}

function each(seed, words, most, check) {
  const next = random(seed);
  for (let run = 0; run < RUNS; run += 1) {
    const input = generate(next, words, most);
    try { check(input); } catch (error) { error.message = `input ${JSON.stringify(input)}: ${error.message}`; throw error; }
  }
}

test('a paste gives only real IDs, each once, and a result link holding nothing but the result', () => {
  each(39, WORDS, 40, (text) => {
    const found = analysePaste(text);
    const ids = found.devices.map((d) => d.id);
    assert.ok(ids.every((id) => ID.test(id)), ids.join(' '));
    assert.equal(new Set(ids).size, ids.length);
    const query = resultQuery(found);
    const params = new URLSearchParams(query);
    assert.ok([...params.keys()].every((k) => KEYS.has(k)), query);
    assert.ok(!/[\s#?]/.test(query), query);
    assert.deepEqual(findUsbIds(text), [...new Set(findUsbIds(text))]);
  });
});

test('a result link reads back as the same link', () => {
  each(40, WORDS, 40, (text) => {
    const query = resultQuery(analysePaste(text));
    if (!query.includes('d=') && !query.includes('o=')) return;
    const again = resultFromQuery(new URLSearchParams(query));
    assert.equal(resultQuery(again), query);
  });
});

test('any link text is read without an exception, an inherited key or an uncapped list', () => {
  each(41, LINK_WORDS, 60, (link) => {
    const result = resultFromQuery(new URLSearchParams(link));
    if (result === null) return;
    assert.ok(result.devices.every((d) => ID.test(d.id) && d.sources.every((s) => typeof s === 'string')));
    assert.ok(result.trouble.every((e) => typeof e.kind === 'string' && !(e.kind in Object.prototype)));
    assert.ok(result.orphans.every((o) => typeof o.source === 'string'));
    assert.ok(result.quirks.length <= 128 && new Set(result.quirks.map((q) => q.id)).size === result.quirks.length);
    assert.ok(result.host === null || /^[a-z0-9-]{1,24}$/.test(result.host));
  });
});

test('quirk lines, typed or pasted, give valid entries, each ID once, capped', () => {
  each(42, WORDS, 40, (text) => {
    const pasted = pastedQuirks(text);
    assert.ok(pasted.length <= MOST_QUIRK_ENTRIES && new Set(pasted.map((q) => q.id)).size === pasted.length);
    assert.ok(pasted.every((q) => ID.test(q.id) && /^[a-z]*$/.test(q.letters)));
    const typed = parseEntries(text, KERNEL, { allowBare: true });
    assert.ok(typed.entries.length <= MOST_ENTRIES);
    assert.ok(typed.entries.every((e) => ID.test(e.id) && /^[a-z]*$/.test(e.letters)));
  });
});

test('filter and search words are plain, and reading them twice changes nothing', () => {
  each(43, [...WORDS, ...LINK_WORDS, '...', '!!!', 'two-bay', '2.5"'], 30, (text) => {
    const once = normalise(text);
    assert.match(once, /^ (?:[a-z0-9.]+ )*$|^  $/);
    assert.equal(normalise(once), once);
    assert.ok(terms(text).every((t) => typeof t === 'function' || typeof t === 'object' || typeof t === 'string'));
    const meant = readQuery(text, null);
    assert.equal(typeof meant, 'object');
  });
});
