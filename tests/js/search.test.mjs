// search.js: the 404 page rewrites an ID address only to the site's own lower-case ID page, never off the site.
// These cases ran in Chromium (tests/site/test_site_ux.py) until issue 38; the cases and assertions are the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalIdPath } from '../../site/assets/js/search.js';

test("the 404 page only rewrites to the site own ID pages: /usb/152D/0578/ under /usb/", () => {
  assert.equal(canonicalIdPath("/usb/152D/0578/", "/usb/") ?? null, "/usb/152d/0578/");
});
test("the 404 page only rewrites to the site own ID pages: /usb/152D/0578 under /usb/", () => {
  assert.equal(canonicalIdPath("/usb/152D/0578", "/usb/") ?? null, "/usb/152d/0578/");
});
test("the 404 page only rewrites to the site own ID pages: /site/usb/152D/0578/ under /site/usb/", () => {
  assert.equal(canonicalIdPath("/site/usb/152D/0578/", "/site/usb/") ?? null, "/site/usb/152d/0578/");
});
test("the 404 page only rewrites to the site own ID pages: /usb/152d/0578/ under /usb/", () => {
  assert.equal(canonicalIdPath("/usb/152d/0578/", "/usb/") ?? null, null);
});
test("the 404 page only rewrites to the site own ID pages: //evil.example/usb/ABCD/1234 under /usb/", () => {
  assert.equal(canonicalIdPath("//evil.example/usb/ABCD/1234", "/usb/") ?? null, null);
});
test("the 404 page only rewrites to the site own ID pages: /%2F%2Fevil.example/usb/ABCD/1234 under /usb/", () => {
  assert.equal(canonicalIdPath("/%2F%2Fevil.example/usb/ABCD/1234", "/usb/") ?? null, null);
});
test("the 404 page only rewrites to the site own ID pages: /%5Cevil.example/usb/ABCD/1234 under /usb/", () => {
  assert.equal(canonicalIdPath("/%5Cevil.example/usb/ABCD/1234", "/usb/") ?? null, null);
});
test("the 404 page only rewrites to the site own ID pages: /%5C%5Cevil.example/usb/ABCD/1234/ under /usb/", () => {
  assert.equal(canonicalIdPath("/%5C%5Cevil.example/usb/ABCD/1234/", "/usb/") ?? null, null);
});
test("the 404 page only rewrites to the site own ID pages: /x/usb/ABCD/1234/ under /usb/", () => {
  assert.equal(canonicalIdPath("/x/usb/ABCD/1234/", "/usb/") ?? null, null);
});
test("the 404 page only rewrites to the site own ID pages: /usb/ABCD/1234/%E0%A4%A under /usb/", () => {
  assert.equal(canonicalIdPath("/usb/ABCD/1234/%E0%A4%A", "/usb/") ?? null, null);
});
test("the 404 page only rewrites to the site own ID pages: /usb/ABCD/1234/ under //evil.example/usb/", () => {
  assert.equal(canonicalIdPath("/usb/ABCD/1234/", "//evil.example/usb/") ?? null, null);
});
