// Search over the built site with Pagefind's JS API, loaded from our own origin on first use.
// Results are built with DOM methods; Pagefind's excerpt is parsed inertly and only its text and <mark>s kept.
// Typos are corrected against the export's vocabulary (search-words.js), and a chip, vendor or USB ID named among
// the words puts its pages first.
import { indexVocabulary, readQuery } from './search-words.js';
function safeExcerpt(html) {
  const fragment = document.createDocumentFragment();
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  for (const node of doc.body.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) {
      fragment.append(node.textContent);
    } else if (node.nodeName === 'MARK') {
      const mark = document.createElement('mark');
      mark.textContent = node.textContent;
      fragment.append(mark);
    } else {
      fragment.append(node.textContent);
    }
  }
  return fragment;
}

// USB IDs are typed in many ways (152d:0578, 0x152d 0x0578, VID_152D&PID_0578) or pasted as a whole lsusb
// line (Bus 002 Device 003: ID 152d:0578 JMicron…); adapter pages index each spelling, and a query that is one
// is searched in the canonical vid:pid form, with the ID's own page put first.
export function usbIdOf(q) {
  const text = q.trim().toLowerCase();
  const m = text.match(/^(?:id\s+)?(?:vid_|0x)?([0-9a-f]{4})(?:[\s:&_\-.]*(?:pid_|0x)?|)([0-9a-f]{4})$/);
  if (m) return `${m[1]}:${m[2]}`;
  const line = text.match(/\bid ([0-9a-f]{4}):([0-9a-f]{4})\b/);
  return line ? `${line[1]}:${line[2]}` : null;
}

// The search's state in the address bar (?q=…&chipset=…), so a search can be linked and survives reload.
export function stateToSearch(query, filters) {
  const params = new URLSearchParams();
  if (query) params.set('q', query);
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// A page's verdict badges, as adapter pages give them to Pagefind: "tone|words" pairs split by ";".
function badges(meta) {
  if (!meta) return null;
  const box = el('span', { class: 'result-badges' });
  for (const pair of meta.split(';')) {
    const [tone, words] = pair.split('|');
    if (words) box.append(el('span', { class: `badge tone-${tone}` }, words), ' ');
  }
  return box.childNodes.length ? box : null;
}

export function initSearch(form) {
  const input = form.querySelector('input[type="search"]');
  const results = form.querySelector('[data-results]');
  const status = form.querySelector('.search-status');
  const filterBox = form.querySelector('[data-filters]');
  let pagefind = null;
  let loading = null;
  const selects = {};
  for (const select of filterBox.querySelectorAll('select[data-filter]')) {
    selects[select.dataset.filter] = select;
    select.addEventListener('change', run);
  }
  // Only the page's main search owns the address bar (the 404 page's box prefills from the path instead).
  const ownsUrl = form.hasAttribute('data-address-state');
  const idNote = el('p', { class: 'search-id-note', hidden: '' });
  results.before(idNote);
  const suggest = el('p', { class: 'search-suggest', 'aria-live': 'polite', hidden: '' });
  idNote.before(suggest);
  let asTyped = null; // a query the visitor asked to search as typed, not corrected

  async function load() {
    if (pagefind) return pagefind;
    if (!loading) {
      loading = import(form.dataset.pagefind).then(async (module) => {
        await module.options({ excerptLength: 24 });
        await module.init();
        pagefind = module;
        return module;
      }).catch(() => {
        status.textContent = 'Search is not available here (the index is built by `make site`).';
        return null;
      });
    }
    return loading;
  }

  let vocabulary = null;
  function loadVocabulary() {
    if (!vocabulary) {
      // Optional: without it the search still runs, only uncorrected.
      vocabulary = fetch(form.dataset.vocabulary).then((r) => (r.ok ? r.json() : null)).then(indexVocabulary).catch(() => null);
    }
    return vocabulary;
  }

  function activeFilters() {
    const filters = {};
    for (const [key, select] of Object.entries(selects)) if (select.value) filters[key] = select.value;
    return filters;
  }

  let generation = 0;
  async function run() {
    const mine = ++generation;
    const module = await load();
    if (!module || mine !== generation) return;
    const raw = input.value.trim();
    const filters = activeFilters();
    if (ownsUrl) history.replaceState(history.state, '', `${location.pathname}${stateToSearch(raw, filters)}${location.hash}`);
    if (!raw && Object.keys(filters).length === 0) {
      results.replaceChildren();
      idNote.hidden = true;
      suggest.hidden = true;
      status.textContent = '';
      return;
    }
    const wholeId = raw ? usbIdOf(raw) : null;
    const vocab = raw && !wholeId ? await loadVocabulary() : null;
    if (mine !== generation) return;
    const meant = raw && !wholeId ? readQuery(raw, vocab, raw !== asTyped)
      : { search: raw, suggestion: null, chips: [], vendors: [], usbId: null };
    const usbId = wholeId || meant.usbId;
    const search = await module.debouncedSearch(wholeId || meant.search || null, { filters }, 60);
    if (search === null || mine !== generation) return;
    showSuggestion(meant.suggestion, raw);
    const pending = search.results.slice(0, 20).map((r) => r.data());
    if (usbId || meant.chips.length || meant.vendors.length) {
      // An ID's own page goes first when it has one (filters narrow the adapters, so then it is left out);
      // otherwise say plainly that no product reports the ID. Then a named chip's page and its adapters, then
      // the named vendor's adapters, then the rest.
      const [items, own, leads] = await Promise.all([Promise.all(pending), usbId ? idResult(usbId) : null,
        leadResults(module, meant, filters)]);
      if (mine !== generation) return;
      if (!usbId || own) idNote.hidden = true;
      else noExactMatch(usbId, mine);
      const first = own && Object.keys(filters).length === 0 ? [own] : [];
      const pool = ranked([...items, ...leads], meant).filter((item) => !first.some((f) => f.url === item.url));
      const total = pool.length + Math.max(0, search.results.length - items.length) + first.length;
      render([...first, ...pool].slice(0, 20), total);
      return;
    }
    idNote.hidden = true;
    // Show the best few as soon as their fragments arrive, then the rest: each result is a separate fetch.
    const first = await Promise.all(pending.slice(0, 5));
    if (mine !== generation) return;
    render(first, search.results.length);
    if (pending.length <= first.length) return;
    const top = await Promise.all(pending);
    if (mine !== generation) return;
    render(top, search.results.length);
  }

  // The pages of the chips and vendors a query names (readQuery): each chip's own page (the result of a search for
  // its name that is its page) and its adapters, and each vendor's adapters, by the search's own filters. A chip or
  // vendor the visitor's filters already rule out adds nothing. Each asks for the name *with* its filter: every
  // adapter page names its chip and vendor, and a search by filter alone would load every chunk of the index.
  async function leadResults(module, meant, filters) {
    const found = [];
    const data = async (search, count) => Promise.all(search.results.slice(0, count).map((r) => r.data()));
    for (const [name, id] of meant.chips) {
      if (filters.chipset && filters.chipset !== name) continue;
      if (Object.keys(filters).length === 0) {
        const own = (await data(await module.search(name), 5)).find((d) => d.url === `${form.dataset.chipsetBase}${id}/`);
        if (own) found.push(own);
      }
      found.push(...await data(await module.search(name, { filters: { ...filters, chipset: name } }), 20));
    }
    for (const label of meant.vendors) {
      if (filters.vendor && filters.vendor !== label) continue;
      found.push(...await data(await module.search(label, { filters: { ...filters, vendor: label } }), 20));
    }
    return found;
  }

  // One entry per page, the named chip's own page first, then the pages that match more of what the query names
  // (its chip counts twice a vendor), otherwise in the search's order.
  function ranked(items, meant) {
    const seen = new Set();
    const unique = items.filter((item) => !seen.has(item.url) && seen.add(item.url));
    const chipPages = new Set(meant.chips.map(([, id]) => `${form.dataset.chipsetBase}${id}/`));
    const has = (item, key, value) => (item.filters?.[key] || []).includes(value);
    const score = (item) => (chipPages.has(item.url) ? 100 : 0)
      + 2 * meant.chips.filter(([name]) => has(item, 'chipset', name)).length
      + meant.vendors.filter((label) => has(item, 'vendor', label)).length;
    return unique.map((item, index) => ({ item, index, score: score(item) }))
      .sort((a, b) => b.score - a.score || a.index - b.index).map((entry) => entry.item);
  }

  // "Did you mean Samsung T7?": the results are for the corrected words; one press searches the words as typed.
  function showSuggestion(suggestion, raw) {
    if (!suggestion) {
      suggest.hidden = true;
      return;
    }
    const typed = el('button', { type: 'button', class: 'search-as-typed' }, `Search for “${raw}” as typed`);
    typed.addEventListener('click', () => { asTyped = raw; run(); input.focus(); });
    suggest.replaceChildren('Did you mean ', el('strong', {}, suggestion), '? Showing results for it. ', typed);
    suggest.hidden = false;
  }

  // USB ID pages are not in the search index (they repeat their products' text): whether an ID has a page,
  // and what to show for it, comes from the ID's API file, which exists exactly when the page does.
  async function idResult(usbId) {
    const [vid, pid] = usbId.split(':');
    try {
      const response = await fetch(`${form.dataset.usbApi}${vid}/${pid}.json`);
      if (!response.ok) return null;
      const id = (await response.json()).result;
      const named = id.usbids ? [id.usbids.vendor, id.usbids.product].filter(Boolean).join(', ') : '';
      return { url: `${form.dataset.usbBase}${vid}/${pid}/`, excerpt: id.linuxhw?.sentence || '',
               meta: { title: named ? `USB ID ${usbId} (${named})` : `USB ID ${usbId}`, type: 'USB ID', verdict: id.summary } };
    } catch {
      return null;
    }
  }

  let vendors = null;
  async function vendorName(vid) {
    if (!vendors) {
      vendors = fetch(form.dataset.vendors).then((r) => (r.ok ? r.json() : null)).then((j) => j?.result?.vendors || {})
        .catch(() => ({}));
    }
    return (await vendors)[vid] || null;
  }

  async function noExactMatch(usbId, mine) {
    const vendor = await vendorName(usbId.split(':')[0]);
    if (mine !== generation) return;
    const report = new URL(form.dataset.reportUrl);
    report.searchParams.set('title', `${report.searchParams.get('title') || ''}${usbId}`);
    report.searchParams.set('usb_id', usbId);
    // replaceChildren takes nodes and strings only (an array would be printed as its String()), so the
    // sentence is spread flat here, as `el` does for its children.
    const vendorWords = vendor ? ['usb.ids names vendor ', el('code', {}, usbId.split(':')[0]), ` ${vendor}. `]
      : ['usb.ids does not name vendor ', el('code', {}, usbId.split(':')[0]), '. '];
    idNote.replaceChildren(
      el('strong', {}, 'No product in uasdb reports ', el('code', {}, usbId), '.'), ' ',
      ...vendorWords,
      'Results below match other IDs or words. ',
      el('a', { href: `${form.dataset.checkPage}?ids=${usbId}` }, 'Check this ID'),
      ' (what Linux does with it by itself) or ', el('a', { href: report.href, 'data-report-link': '' }, 'add your report'), '.');
    idNote.hidden = false;
  }

  function render(items, total) {
    results.replaceChildren();
    for (const item of items) {
      const li = document.createElement('li');
      const link = document.createElement('a');
      link.className = 'result-title';
      link.href = item.url;
      link.textContent = item.meta?.title || item.url;
      li.append(link);
      if (item.meta?.type) {
        const type = document.createElement('span');
        type.className = 'small';
        type.textContent = ` · ${item.meta.type}`;
        li.append(type);
      }
      const shown = badges(item.meta?.badges);
      if (shown) li.append(' ', shown);
      if (item.meta?.verdict) {
        const verdict = document.createElement('p');
        verdict.className = 'result-verdict';
        verdict.textContent = item.meta.verdict;
        li.append(verdict);
      }
      const excerpt = document.createElement('p');
      excerpt.className = 'small';
      excerpt.append(safeExcerpt(item.excerpt || ''));
      li.append(excerpt);
      results.append(li);
    }
    status.textContent = total === 0 ? 'No matches. Try the chipset name or the USB ID from lsusb.'
      : `${total} result${total === 1 ? '' : 's'}${total > items.length ? `, showing ${items.length}` : ''}`;
  }

  form.addEventListener('submit', (event) => { event.preventDefault(); run(); });
  input.addEventListener('input', run);
  form.addEventListener('focusin', load, { once: true });
  // Searching is what these pages are for: fetch the index while the browser is idle, so the first query
  // does not wait for Pagefind's script and WASM to download.
  if ('requestIdleCallback' in window) requestIdleCallback(() => load(), { timeout: 3000 });
  else setTimeout(load, 1000);
  // Windows and some tools print IDs in capitals: /usb/152D/0578/ is the page at /usb/152d/0578/.
  if (form.hasAttribute('data-from-address')) {
    const canonical = canonicalIdPath(location.pathname, form.dataset.usbBase);
    // Only ever within this site: its origin, under its USB ID pages (GitHub Pages serves this page for any path).
    const target = canonical && new URL(canonical + location.search + location.hash, location.href);
    if (target && target.origin === location.origin && target.pathname.startsWith(form.dataset.usbBase)) {
      location.replace(target.href);
      return;
    }
  }
  // A linked search (?q=…&chipset=…) runs on load; the 404 page offers the words of the missing path.
  const params = new URLSearchParams(location.search);
  let started = false;
  for (const [key, select] of Object.entries(selects)) {
    const value = params.get(key);
    if (value && [...select.options].some((o) => o.value === value)) { select.value = value; started = true; filterBox.open = true; }
  }
  const q = params.get('q') || (form.hasAttribute('data-from-address') ? queryFromPath(location.pathname) : '');
  if (q) { input.value = q; started = true; }
  if (started) run();
}

// "/usb/152D/0578/" -> "152d:0578"; "/adapters/some-thing/" -> "some thing": what the visitor was after.
export function queryFromPath(path) {
  const parts = decodedPath(path).split('/').filter(Boolean);
  const id = usbIdOf(parts.slice(-2).join(':')) || usbIdOf(parts[parts.length - 1] || '');
  if (id) return id;
  const words = (parts[parts.length - 1] || '').replace(/\.html?$/, '').replace(/[-_]+/g, ' ').trim();
  return words;
}

// A path as the visitor typed it; a malformed escape (`%E0%A4%A`) leaves it as it is instead of throwing.
function decodedPath(path) {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

// The lower-case address of a USB ID page asked for in other capitals, or null when `path` is no such page. The
// answer is built from `usbBase` (the site's own /usb/ path) and the two IDs alone: nothing before `usb/` in the
// asked path is kept, so `//evil.example/usb/ABCD/1234` or `/%5Cevil.example/usb/…` cannot lead off the site.
export function canonicalIdPath(path, usbBase) {
  if (!/^\/(?![/\\])/.test(usbBase)) return null;
  const decoded = decodedPath(path);
  if (!decoded.startsWith(usbBase)) return null;
  const m = /^([0-9a-fA-F]{4})\/([0-9a-fA-F]{4})\/?$/.exec(decoded.slice(usbBase.length));
  if (!m) return null;
  const lower = `${usbBase}${m[1].toLowerCase()}/${m[2].toLowerCase()}/`;
  return lower === path ? null : lower;
}
