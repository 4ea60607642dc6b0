// The filter of a long page (layouts/_partials/filter/panel.html): a text box and the export's filters narrow the
// rows of every [data-filter-rows] in <main>. The choice lives in the address (?q=…&kind=…): a link shows the same
// rows, and back and forward step through the choices. Rows are only hidden: without this script all of them show.

// Bay counts are written both ways: "two-bay", "2-bay", "dual bay".
const NUMBER_WORDS = { one: '1', single: '1', two: '2', dual: '2', three: '3', four: '4', quad: '4', five: '5',
  six: '6', seven: '7', eight: '8', nine: '9', ten: '10' };
const SMALL_NUMBER = /^\d{1,2}$/;

// The words of `text`, lower case and without accents, split at anything but letters, digits and inner dots
// ("2.5" stays one word, "Inc." is "inc"), number words as digits.
function words(text) {
  return String(text).toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9.]+/).map(trimDots).filter(Boolean)
    .map((w) => (Object.hasOwn(NUMBER_WORDS, w) ? NUMBER_WORDS[w] : w));
}

// `w` without its leading and trailing dots, in one pass (the pattern /^\.+|\.+$/g read a run of dots again from
// each dot: 100,000 of them froze the tab).
export function trimDots(w) {
  let start = 0;
  let end = w.length;
  while (start < end && w[start] === '.') start += 1;
  while (end > start && w[end - 1] === '.') end -= 1;
  return w.slice(start, end);
}

// A row's text as the filter reads it: its words, one space apart and one at each end.
export const normalise = (text) => ` ${words(text).join(' ')} `;

// What a query asks for: each part between spaces must be in the row. A part is its words in a row ("2-bay" and
// "two-bay" are "2 bay"; "152d:0578" is "152d 0578"), found anywhere, as the filter always did, except that a part
// starting with a one- or two-digit number starts a word, and a number alone is not followed by a digit: "2" finds
// "2 bay" and "2.5", not "3.2" or "12". A small number before a word counts with it: "2 bay" is "2-bay".
export function terms(query) {
  const parts = String(query).split(/\s+/).map(words).filter((part) => part.length);
  const joined = [];
  for (let i = 0; i < parts.length; i += 1) {
    const [part, next] = [parts[i], parts[i + 1]];
    if (part.length === 1 && SMALL_NUMBER.test(part[0]) && next && /^[a-z]/.test(next[0])) {
      joined.push([...part, ...next]);
      i += 1;
    } else {
      joined.push(part);
    }
  }
  return joined.map((part) => {
    const phrase = part.join(' ');
    if (!SMALL_NUMBER.test(part[0])) return (text) => text.includes(phrase);
    if (part.length > 1) return (text) => text.includes(` ${phrase}`);
    const whole = new RegExp(` ${phrase}(?!\\d)`);
    return (text) => whole.test(text);
  });
}

export const matches = (text, query) => {
  const normalised = normalise(text);
  return terms(query).every((term) => term(normalised));
};

// Every text node, a space apart: cells and lines never run together ("480GB" + "JMS578"). What a row keeps behind
// a disclosure (the related products an expectation rests on) is about other products: a four-bay case whose
// expectation names a two-bay one is not a "2-bay" match.
const folded = (node) => {
  const details = node.parentElement?.closest('details');
  return details && !node.parentElement.closest('summary') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
};

function rowText(row) {
  const parts = [];
  const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT, { acceptNode: folded });
  while (walker.nextNode()) parts.push(walker.currentNode.nodeValue);
  return parts.join(' ');
}

function wire(panel) {
  const main = panel.closest('main') || document.body;
  const input = panel.querySelector('input[name="q"]');
  const selects = [...panel.querySelectorAll('select')];
  const status = panel.querySelector('[role="status"]');
  const clear = panel.querySelector('[data-filter-clear]');
  // A page of several lists says which of them has nothing left (data-none); the count speaks for the whole page.
  const lists = [...main.querySelectorAll('[data-filter-rows]')];
  const groups = lists.map((list) => {
    const box = list.closest('.scroll') || list;
    const none = document.createElement('p');
    none.className = 'small filter-none';
    none.textContent = list.dataset.none || 'Nothing here matches the filters.';
    none.hidden = true;
    box.after(none);
    const rows = [...list.children].map((row) => ({
      row, text: normalise(rowText(row)), facets: new Set((row.dataset.facets || '').split(' ')) }));
    return { box, none, rows };
  });
  const total = groups.reduce((n, group) => n + group.rows.length, 0);
  // What follows the filter besides the rows: each section's count ([data-section-count] in the list's section),
  // the rank column ([data-rank], renumbered over the rows shown) and the page's counts by section
  // ([data-count="<group>"] counts the shown rows of that data-group; "with_verdict" all rows with a group,
  // "no_model" those of them marked data-no-model).
  for (const group of groups) group.count = group.box.closest('section')?.querySelector('[data-section-count]');
  const counters = [...main.querySelectorAll('[data-count]')];
  const followFilter = () => {
    for (const group of groups) {
      const visible = group.rows.filter(({ row }) => !row.hidden);
      if (group.count) group.count.textContent = String(visible.length);
      visible.forEach(({ row }, n) => {
        const rank = row.querySelector('[data-rank]');
        if (rank) rank.textContent = String(n + 1);
      });
    }
    const shownRows = groups.flatMap((group) => group.rows).filter(({ row }) => !row.hidden && row.dataset.group);
    for (const counter of counters) {
      const key = counter.dataset.count;
      const counts = ({ row }) => key === 'with_verdict' || row.dataset.group === key
        || (key === 'no_model' && 'noModel' in row.dataset);
      counter.textContent = String(shownRows.filter(counts).length);
    }
  };

  const apply = () => {
    const wanted = terms(input.value);
    const chosen = selects.filter((s) => s.value).map((s) => `${s.name}=${s.value}`);
    let shown = 0;
    for (const group of groups) {
      let here = 0;
      for (const { row, text, facets } of group.rows) {
        const match = chosen.every((c) => facets.has(c)) && wanted.every((term) => term(text));
        row.hidden = !match;
        here += match ? 1 : 0;
      }
      group.box.hidden = group.rows.length > 0 && here === 0;
      shown += here;
    }
    for (const group of groups) group.none.hidden = !group.box.hidden || !shown || groups.length < 2;
    followFilter();
    status.textContent = shown ? `${shown} of ${total} shown` : `${status.dataset.none} 0 of ${total} shown.`;
    clear.hidden = !wanted.length && !chosen.length;
  };

  const fromAddress = () => {
    const params = new URLSearchParams(location.search);
    input.value = params.get('q') || '';
    for (const select of selects) {
      const value = params.get(select.name) || '';
      select.value = [...select.options].some((o) => o.value === value) ? value : '';
    }
  };
  // The address says what is chosen, in the controls' order, after any other parameter; a choice this page does not
  // offer (a link from another platform's page) is dropped.
  const toAddress = (push) => {
    const params = new URLSearchParams(location.search);
    for (const key of ['q', ...selects.map((s) => s.name)]) params.delete(key);
    if (input.value.trim()) params.set('q', input.value.trim());
    for (const select of selects) if (select.value) params.set(select.name, select.value);
    const search = params.toString() ? `?${params}` : '';
    if (search === location.search) return;
    history[push ? 'pushState' : 'replaceState'](null, '', `${location.pathname}${search}${location.hash}`);
  };

  // One history entry for each choice, and one for each stretch of typing.
  let typing = false;
  input.addEventListener('input', () => { apply(); toAddress(!typing); typing = true; });
  input.addEventListener('change', () => { typing = false; });
  for (const select of selects) {
    select.addEventListener('change', () => { typing = false; apply(); toAddress(true); });
  }
  clear.addEventListener('click', () => {
    input.value = '';
    for (const select of selects) select.value = '';
    typing = false;
    apply();
    toAddress(true);
    input.focus();
  });
  window.addEventListener('popstate', () => { typing = false; fromAddress(); apply(); });
  fromAddress();
  apply();
  toAddress(false);
}

export function initFilters(root) {
  for (const panel of root.querySelectorAll('[data-filter-panel]')) wire(panel);
}
