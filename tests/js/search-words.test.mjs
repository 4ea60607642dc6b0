// search-words.js: typos corrected to the nearest known word, chips, vendors and USB IDs read from a query. These
// cases ran in Chromium (tests/site/test_site_search_typos.py) until issue 38; the cases and assertions are the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as m from '../../site/assets/js/search-words.js';

const VOCAB = {"words": ["USB", "enclosure", "Sabrent", "Samsung", "Book", "boot", "EC-SSHD", "T7", "JMS583", "JMS578", "ORICO", "StarTech.com", "Western", "Digital"], "chips": {"jms583": ["JMS583", "jms583"], "jms578": ["JMS578", "jms578"]}, "vendors": {"sabrent": "Sabrent", "samsung": "Samsung", "orico": "ORICO", "startech.com": "StarTech.com", "western digital": "Western Digital"}};

const read = (query, correct = true) => m.readQuery(query, m.indexVocabulary(VOCAB), correct);

// edit distance, bounded: [a, b, limit, distance]
test("edit distance is bounded: sabrant -> sabrent within 2", () => {
  assert.equal(m.editDistance("sabrant", "sabrent", 2), 1);
});
test("edit distance is bounded: sabrnt -> sabrent within 1", () => {
  assert.equal(m.editDistance("sabrnt", "sabrent", 1), 1);
});
test("edit distance is bounded: smasung -> samsung within 2", () => {
  assert.equal(m.editDistance("smasung", "samsung", 2), 1);
});
test("edit distance is bounded: kitten -> sitting within 3", () => {
  assert.equal(m.editDistance("kitten", "sitting", 3), 3);
});
test("edit distance is bounded: kitten -> sitting within 2", () => {
  assert.equal(m.editDistance("kitten", "sitting", 2), 3);
});
test("edit distance is bounded: sbrant -> sabrent within 2", () => {
  assert.equal(m.editDistance("sbrant", "sabrent", 2), 2);
});
test("edit distance is bounded: abcd -> wxyz within 2", () => {
  assert.equal(m.editDistance("abcd", "wxyz", 2), 3);
});
test("edit distance is bounded:  -> abc within 3", () => {
  assert.equal(m.editDistance("", "abc", 3), 3);
});
test("edit distance is bounded: same -> same within 0", () => {
  assert.equal(m.editDistance("same", "same", 0), 0);
});

// unknown words are corrected to the nearest known word: [query, search, suggestion]
test("unknown words are corrected to the nearest known word: sabrant", () => {
  const meant = read("sabrant");
  assert.deepEqual([meant.search, meant.suggestion ?? null], ["sabrent", "Sabrent"]);
});
test("unknown words are corrected to the nearest known word: sabrnt", () => {
  const meant = read("sabrnt");
  assert.deepEqual([meant.search, meant.suggestion ?? null], ["sabrent", "Sabrent"]);
});
test("unknown words are corrected to the nearest known word: samsng t7", () => {
  const meant = read("samsng t7");
  assert.deepEqual([meant.search, meant.suggestion ?? null], ["samsung t7", "Samsung T7"]);
});
test("unknown words are corrected to the nearest known word: sabret ec-sshd", () => {
  const meant = read("sabret ec-sshd");
  assert.deepEqual([meant.search, meant.suggestion ?? null], ["sabrent ec-sshd", "Sabrent EC-SSHD"]);
});
test("unknown words are corrected to the nearest known word: smasung", () => {
  const meant = read("smasung");
  assert.deepEqual([meant.search, meant.suggestion ?? null], ["samsung", "Samsung"]);
});
test("unknown words are corrected to the nearest known word: enclsoure", () => {
  const meant = read("enclsoure");
  assert.deepEqual([meant.search, meant.suggestion ?? null], ["enclosure", "enclosure"]);
});
test("unknown words are corrected to the nearest known word: boot", () => {
  const meant = read("boot");
  assert.deepEqual([meant.search, meant.suggestion ?? null], ["boot", null]);
});
test("unknown words are corrected to the nearest known word: sab", () => {
  const meant = read("sab");
  assert.deepEqual([meant.search, meant.suggestion ?? null], ["sab", null]);
});
test("unknown words are corrected to the nearest known word: samsu", () => {
  const meant = read("samsu");
  assert.deepEqual([meant.search, meant.suggestion ?? null], ["samsu", null]);
});
test("unknown words are corrected to the nearest known word: usbb", () => {
  const meant = read("usbb");
  assert.deepEqual([meant.search, meant.suggestion ?? null], ["usbb", null]);
});
test("unknown words are corrected to the nearest known word: xyzzyq", () => {
  const meant = read("xyzzyq");
  assert.deepEqual([meant.search, meant.suggestion ?? null], ["xyzzyq", null]);
});
test("unknown words are corrected to the nearest known word: 152d:0578", () => {
  const meant = read("152d:0578");
  assert.deepEqual([meant.search, meant.suggestion ?? null], ["152d:0578", null]);
});

test('chips, vendors and IDs among the words are found', () => {
  const meant = read('orico jms583 152d:0583');
  assert.deepEqual(meant.chips, [['JMS583', 'jms583']]);
  assert.deepEqual(meant.vendors, ['ORICO']);
  assert.equal(meant.usbId, '152d:0583');
  assert.deepEqual(read('startech enclosure').vendors, ['StarTech.com']); // the start of a vendor's name
  assert.deepEqual(read('western digtal').vendors, ['Western Digital']); // after correcting
  const asTyped = read('samsng t7', false);
  assert.ok((asTyped.suggestion ?? null) === null && asTyped.search === 'samsng t7');
});
