// Run by tests/test_linear_patterns.py (not a *.test.mjs: it reads its work from stdin). For each regular expression
// and each exported text function it is given, time it on each worst case at 10× and 100× the base size and report
// the first case that grows faster than linearly. The measure is the one tests/linear_guard.py describes.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const work = JSON.parse(readFileSync(0, 'utf8'));
const { base, superlinear, floor } = work;
const KERNEL = { letters: [...'abcdefghijklmnopqrstuvwxyz'].map((letter) => ({ letter, flag: letter.toUpperCase() })), builtin: {}, groups: {} };

const worst = (prefix, unit, size) => prefix + unit.repeat(Math.max(1, Math.floor((size - prefix.length) / unit.length))) + '\u00a7';

// CPU seconds of this process (as the Python side measures: a run that waited for a core must not look slow).
const cpu = () => { const { user, system } = process.cpuUsage(); return (user + system) / 1e6; };

// The faster of two runs; the second is skipped when the first took at most `enough` seconds (the faster of two
// could only be faster still, so "fast enough" stands after one run).
function timed(run, enough = 0.002) {
  let best = Infinity;
  for (let i = 0; i < 2; i += 1) {
    const started = cpu();
    try { run(); } catch { /* a reader may refuse junk: how long it took is what counts */ }
    best = Math.min(best, cpu() - started);
    if (best <= enough) break;
  }
  return best;
}

function firstSlow(makeRun, units) {
  for (const [prefix, unit] of units) {
    let slow = null;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const ten = timed(makeRun(worst(prefix, unit, 10 * base)));
      if (ten > 1) { slow = `over 1 s at 10×`; break; }
      const hundred = timed(makeRun(worst(prefix, unit, 100 * base)), Math.max(floor, superlinear * ten));
      if (!(hundred > floor && hundred > superlinear * ten)) { slow = null; break; }
      slow = `${(ten * 1000).toFixed(1)} ms at 10×, ${(hundred * 1000).toFixed(1)} ms at 100×`;
    }
    if (slow) return `${JSON.stringify(prefix)} + ${JSON.stringify(unit)}×n: ${slow}`;
  }
  return null;
}

const report = {};
for (const p of work.patterns || []) {
  let pattern;
  try { pattern = new RegExp(p.source, p.flags.includes('g') ? p.flags : `${p.flags}g`); } catch (e) { report[p.name] = `does not compile: ${e.message}`; continue; }
  report[p.name] = firstSlow((text) => () => text.replace(pattern, ''), p.units);
}
for (const m of work.modules || []) {
  let module;
  try { module = await import(pathToFileURL(m.path)); } catch (e) { report[`${m.name}:`] = `cannot import: ${e.message}`; continue; }
  for (const [name, fn] of Object.entries(module)) {
    if (typeof fn !== 'function') continue;
    const call = name === 'resultFromQuery'
      ? (text) => () => { for (const key of ['d', 'q', 'x', 'o', 'host']) fn(new URLSearchParams([[key, text]])); }
      : (text) => () => fn(text, KERNEL);
    report[`${m.name}:${name}`] = firstSlow(call, m.units);
  }
}
process.stdout.write(JSON.stringify(report));
