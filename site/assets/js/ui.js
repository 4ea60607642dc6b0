// Small DOM helpers shared by the check page and the quirk builder. Text always goes in as text nodes:
// record fields are data, never markup.
import params from '@params';

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export const code = (text) => el('code', {}, text);

// Our plain-words texts (FLAG_PLAIN) mark commands with backticks: those become <code>.
export const words = (text) => String(text).split(/`([^`]+)`/).map((part, i) => (i % 2 ? code(part) : part));

// Tone -> icon, from scripts/uasdb/verdicts/engine.py (ICON) through the page's params.
const ICON = params.tone_icon;

// The verdict badge of layouts/_partials/verdict/badge.html: an icon and a word, never colour alone. Takes an
// exported platform verdict (its short word and tone come from scripts/uasdb/verdicts/engine.py) or a verdict word.

export function badge(verdict, kind) {
  if (verdict && typeof verdict === 'object') {
    const tone = verdict.tone || 'none';
    const parts = [el('span', { class: 'badge-icon', 'aria-hidden': 'true' }, ICON[tone] || '?'), ` ${verdict.short}`];
    const out = el('span', { class: `badge tone-${tone}` }, ...parts);
    return verdict.verdict !== 'untested' && verdict.basis_text
      ? [out, ' ', el('span', { class: 'basis small' }, verdict.basis_text)] : out;
  }
  const words = kind === 'boot' ? params.boot_verdict_short : params.verdict_short;
  const tone = params.verdict_tone?.[verdict] || 'none';
  return el('span', { class: `badge tone-${tone}` }, el('span', { class: 'badge-icon', 'aria-hidden': 'true' }, ICON[tone]),
    ` ${words[verdict] || verdict}`);
}

export const platformLabel = (name) => (params.platforms[name] ? params.platforms[name].label : name);
export const platforms = params.platforms;

// A quirk line that breaks only between entries (as layouts/_partials/quirk-line.html does); its
// textContent is exactly the line.
export function fillQuirkLine(target, line) {
  const [prefix, value] = [line.slice(0, line.indexOf('=') + 1), line.slice(line.indexOf('=') + 1)];
  const parts = [el('span', { class: 'nw' }, prefix)];
  value.split(',').forEach((entry, i) => {
    if (i) parts.push(',', el('wbr'));
    parts.push(el('span', { class: 'nw' }, entry));
  });
  target.replaceChildren(...parts);
  return target;
}

// The JSON API's files, fetched once per page and unwrapped from their {schema_version, generated_at, result}.
const cache = new Map();
export function loadApi(url) {
  if (!cache.has(url)) {
    cache.set(url, fetch(url, { credentials: 'same-origin' }).then((response) => {
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      return response.json();
    }).then((payload) => payload.result).catch((error) => {
      cache.delete(url); // let a later try fetch again
      throw error;
    }));
  }
  return cache.get(url);
}

// The adapters reporting each USB ID, from adapters.json.
export function adaptersById(adapters) {
  const byId = new Map();
  for (const adapter of adapters) {
    for (const u of adapter.usb_ids || []) {
      const key = `${u.vid}:${u.pid}`;
      if (!byId.has(key)) byId.set(key, []);
      if (!byId.get(key).includes(adapter)) byId.get(key).push(adapter);
    }
  }
  return byId;
}
