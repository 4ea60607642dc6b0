// filter.js: the long pages' text filter matches normalised words ("two-bay" is "2-bay", a number is a whole word).
// These cases ran in Chromium (tests/site/test_site_filters.py) until issue 38; the cases and assertions are the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matches } from '../../site/assets/js/filter.js';

test("the text filter: 'two-bay' in 'ICY BOX IB-RD3621U3 2-bay 3.5\" USB 3.0 RAID enclosure' is true", () => {
  assert.equal(matches("ICY BOX IB-RD3621U3 2-bay 3.5\" USB 3.0 RAID enclosure", "two-bay"), true);
});
test("the text filter: '2-bay' in 'Acasis EC-7352 two-bay enclosure' is true", () => {
  assert.equal(matches("Acasis EC-7352 two-bay enclosure", "2-bay"), true);
});
test("the text filter: '2-bay' in 'Thermaltake BlacX Duet USB 3.0 dual-bay SATA dock' is true", () => {
  assert.equal(matches("Thermaltake BlacX Duet USB 3.0 dual-bay SATA dock", "2-bay"), true);
});
test("the text filter: '2 bay' in 'Acasis EC-7352 two-bay enclosure' is true", () => {
  assert.equal(matches("Acasis EC-7352 two-bay enclosure", "2 bay"), true);
});
test("the text filter: 'two bay' in 'Acasis EC-7352 two-bay enclosure' is true", () => {
  assert.equal(matches("Acasis EC-7352 two-bay enclosure", "two bay"), true);
});
test("the text filter: '4-bay' in 'ORICO 9548U3 four-bay 3.5\" USB 3.0' is true", () => {
  assert.equal(matches("ORICO 9548U3 four-bay 3.5\" USB 3.0", "4-bay"), true);
});
test("the text filter: '2-bay' in 'Yottamaster 5-bay USB 3.1 Gen 2' is false", () => {
  assert.equal(matches("Yottamaster 5-bay USB 3.1 Gen 2", "2-bay"), false);
});
test("the text filter: '2' in 'Sabrent EC-UASP 2.5\" enclosure' is true", () => {
  assert.equal(matches("Sabrent EC-UASP 2.5\" enclosure", "2"), true);
});
test("the text filter: '2' in 'TerraMaster D2-310 USB 3.2 enclosure' is false", () => {
  assert.equal(matches("TerraMaster D2-310 USB 3.2 enclosure", "2"), false);
});
test("the text filter: '2-bay' in 'ORICO 12-bay rack' is false", () => {
  assert.equal(matches("ORICO 12-bay rack", "2-bay"), false);
});
test("the text filter: '152d:0578' in 'JMicron JMS578, 152d:0578' is true", () => {
  assert.equal(matches("JMicron JMS578, 152d:0578", "152d:0578"), true);
});
test("the text filter: '0578' in 'JMicron JMS578, 152d:0578' is true", () => {
  assert.equal(matches("JMicron JMS578, 152d:0578", "0578"), true);
});
test("the text filter: 'jms' in 'JMicron JMS578' is true", () => {
  assert.equal(matches("JMicron JMS578", "jms"), true);
});
test("the text filter: 'usb 3' in 'Inateck FE2004 USB 3.0' is true", () => {
  assert.equal(matches("Inateck FE2004 USB 3.0", "usb 3"), true);
});
test("the text filter: '2 bay' in 'Yottamaster 5-bay USB 3.1 Gen 2' is false", () => {
  assert.equal(matches("Yottamaster 5-bay USB 3.1 Gen 2", "2 bay"), false);
});
test("the text filter: '3.2 gen 2' in 'Inateck FE2004 USB 3.2 Gen 2' is true", () => {
  assert.equal(matches("Inateck FE2004 USB 3.2 Gen 2", "3.2 gen 2"), true);
});
test("the text filter: 'rhino   go' in 'Natec Rhino Go' is true", () => {
  assert.equal(matches("Natec Rhino Go", "rhino   go"), true);
});
test("the text filter: 'rhino stop' in 'Natec Rhino Go' is false", () => {
  assert.equal(matches("Natec Rhino Go", "rhino stop"), false);
});
test("the text filter: 'store n go' in \"Verbatim Store 'n' Go\" is true", () => {
  assert.equal(matches("Verbatim Store 'n' Go", "store n go"), true);
});
test("the text filter: 'cafe' in 'Café enclosure' is true", () => {
  assert.equal(matches("Café enclosure", "cafe"), true);
});
