// The check page reads a pasted dmesg's link speed with speedFromText (site/assets/js/paste.js): every spelling the
// kernel has printed for a new device's speed must give lsusb -t's figure, as the Python probe's parser does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { speedFromText } from '../../site/assets/js/paste.js';

const CASES = [
  ['high-speed', '480M'],
  ['SuperSpeed', '5000M'],
  ['SuperSpeed Gen 1', '5000M'],
  ['SuperSpeed Gen 1x1', '5000M'],
  ['SuperSpeed Gen 1x2', '10000M'],
  ['SuperSpeedPlus Gen 2', '10000M'],
  ['SuperSpeedPlus Gen 2x2', '20000M'],
  ['SuperSpeed Plus', '10000M'],
  ['SuperSpeed Plus Gen 2x1', '10000M'],
  ['SuperSpeed Plus Gen 1x2', '10000M'],
  ['SuperSpeed Plus Gen 2x2', '20000M'],
  ['full-speed', null],
];

for (const [words, speed] of CASES) {
  test(`"${words}" is ${speed}`, () => {
    assert.equal(speedFromText(words), speed);
  });
}
