// Search over the built site with Pagefind's JS API, loaded from our own origin on first use.
// Results are built with DOM methods; Pagefind's excerpt is parsed inertly and only its text and <mark>s kept.
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

// USB IDs are typed in many ways (152d:0578, 0x152d 0x0578, VID_152D&PID_0578); pages index each
// spelling, and a query that looks like one is also searched in the canonical vid:pid form.
function normaliseQuery(q) {
  const m = q.trim().toLowerCase().match(/^(?:vid_|0x)?([0-9a-f]{4})(?:[\s:&_\-.]*(?:pid_|0x)?|)([0-9a-f]{4})$/);
  return m ? `${m[1]}:${m[2]}` : q;
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
  filterBox.hidden = false;

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
    if (!raw && Object.keys(filters).length === 0) {
      results.replaceChildren();
      status.textContent = '';
      return;
    }
    const search = await module.debouncedSearch(raw ? normaliseQuery(raw) : null, { filters }, 60);
    if (search === null || mine !== generation) return;
    // Show the best few as soon as their fragments arrive, then the rest: each result is a separate fetch.
    const pending = search.results.slice(0, 20).map((r) => r.data());
    const first = await Promise.all(pending.slice(0, 5));
    if (mine !== generation) return;
    render(first, search.results.length);
    if (pending.length <= first.length) return;
    const top = await Promise.all(pending);
    if (mine !== generation) return;
    render(top, search.results.length);
  }

  function render(items, total) {
    results.replaceChildren();
    for (const item of items) {
      const li = document.createElement('li');
      const link = document.createElement('a');
      link.className = 'result-title';
      link.href = item.url;
      link.textContent = (item.meta && item.meta.title) || item.url;
      li.append(link);
      if (item.meta && item.meta.type) {
        const type = document.createElement('span');
        type.className = 'small';
        type.textContent = ` · ${item.meta.type}`;
        li.append(type);
      }
      if (item.meta && item.meta.verdict) {
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
  const q = new URLSearchParams(location.search).get('q');
  if (q) { input.value = q; run(); }
}
