// Forgiving search: the words a query means, read against the vocabulary the export writes
// (scripts/uasdb/publish/search_vocabulary.py, /search/vocabulary.json). Pure functions, no DOM or fetch.
//
// Pagefind matches words and their prefixes only. Each word of a query that is neither a known word nor the start
// of one is corrected to the nearest known word within one edit (words of 4 to 6 letters) or two (7 or more), a
// swap of two neighbouring letters counting as one: "sabrant" -> Sabrent, "samsng t7" -> Samsung T7. Ties go to
// the commoner word (the vocabulary lists the most used first). Short words are never corrected.

const SHORTEST_CORRECTED = 4;
const TWO_EDITS_FROM = 7;

// The edit distance between a and b (insertions, deletions, substitutions, and swaps of neighbours), or max + 1
// as soon as it must exceed max: only the band of width 2 * max + 1 around the diagonal is computed.
export function editDistance(a, b, max) {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const far = max + 1;
  let before = null;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => (j <= max ? j : far));
  for (let i = 1; i <= a.length; i += 1) {
    const current = new Array(b.length + 1).fill(far);
    current[0] = i <= max ? i : far;
    let best = current[0];
    for (let j = Math.max(1, i - max); j <= Math.min(b.length, i + max); j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (before && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      current[j] = Math.min(d, far);
      best = Math.min(best, current[j]);
    }
    if (best > max) return far;
    [before, previous] = [previous, current];
  }
  return Math.min(previous[b.length], far);
}

// The vocabulary file's `result`-less JSON, indexed for lookups.
export function indexVocabulary(raw) {
  const words = (raw && Array.isArray(raw.words) ? raw.words : []).filter((w) => typeof w === 'string');
  const display = new Map();
  for (const word of words) if (!display.has(word.toLowerCase())) display.set(word.toLowerCase(), word);
  return {
    words: [...display.keys()],
    display,
    chips: new Map(Object.entries(raw?.chips || {})),
    vendors: new Map(Object.entries(raw?.vendors || {})),
  };
}

const USB_ID = /^[0-9a-f]{4}:[0-9a-f]{4}$/;

// The known word `word` was meant to be, or null when it is known already, too short, a prefix being typed, an ID,
// or too far from every known word.
export function correction(word, vocab) {
  if (word.length < SHORTEST_CORRECTED || vocab.display.has(word) || USB_ID.test(word) || /^[0-9.]+$/.test(word)) return null;
  if (vocab.words.some((known) => known.startsWith(word))) return null;
  const max = word.length >= TWO_EDITS_FROM ? 2 : 1;
  let best = null;
  let bestDistance = max + 1;
  for (const known of vocab.words) {
    if (known.length < SHORTEST_CORRECTED) continue;
    const d = editDistance(word, known, Math.min(max, bestDistance - 1));
    if (d < bestDistance) { best = known; bestDistance = d; if (d === 1) break; }
  }
  return best;
}

// A typed word without the punctuation around it: from its first letter or digit to its last letter, digit or `+`
// ("usb3+"), in one pass (the pattern /^[^a-z0-9]+|[^a-z0-9+]+$/g read a run of "!" again from each one).
const WORD_INSIDE = (c) => (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
export function trimWord(w) {
  let start = 0;
  let end = w.length;
  while (start < end && !WORD_INSIDE(w[start])) start += 1;
  while (end > start && !WORD_INSIDE(w[end - 1]) && w[end - 1] !== '+') end -= 1;
  return w.slice(start, end);
}

// What a query means: {search (the words to give Pagefind), suggestion (the query as the vocabulary spells it, when
// a word was corrected; else null), chips [[name, id]] and vendors [label] it names, usbId (the first vid:pid word)}.
// `correct` false reads the words as typed (the visitor asked for that), still finding the chips and vendors named.
export function readQuery(query, vocab, correct = true) {
  const typed = query.trim().split(/\s+/).filter(Boolean);
  const lower = typed.map((w) => trimWord(w.toLowerCase()));
  let corrected = false;
  const meant = lower.map((w) => {
    const fixed = vocab && correct ? correction(w, vocab) : null;
    if (fixed) corrected = true;
    return fixed || w;
  });
  const spelled = meant.map((w, i) => vocab?.display.get(w) || (meant[i] === lower[i] ? typed[i] : w));
  const chips = [];
  const vendors = [];
  if (vocab) {
    for (const w of meant) if (vocab.chips.has(w) && !chips.some((c) => c[1] === vocab.chips.get(w)[1])) chips.push(vocab.chips.get(w));
    // A vendor is named by its whole spelling ("icy box"), or by the start of it ("startech", "western").
    const padded = ` ${meant.join(' ')} `;
    const names = (key) => padded.includes(` ${key} `) || meant.some((w) => w.length >= SHORTEST_CORRECTED && key.startsWith(w));
    for (const [key, label] of vocab.vendors) if (names(key) && !vendors.includes(label)) vendors.push(label);
  }
  return {
    search: corrected ? meant.join(' ') : query.trim(),
    suggestion: corrected ? spelled.join(' ') : null,
    chips,
    vendors,
    usbId: meant.find((w) => USB_ID.test(w)) || null,
  };
}
