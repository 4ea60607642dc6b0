// Sortable tables: click a column header, or on a phone choose the column in a select. Filters: filter.js.
const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function cellValue(row, index) {
  const cell = row.children[index];
  if (!cell) return '';
  return cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent.trim();
}

function makeSortable(table) {
  const headers = table.tHead ? [...table.tHead.rows[0].cells] : [];
  const body = table.tBodies[0];
  if (!body || body.rows.length < 2) return null;
  const sortBy = (index, descending) => {
    headers.forEach((h) => { h.removeAttribute('aria-sort'); });
    headers[index].setAttribute('aria-sort', descending ? 'descending' : 'ascending');
    const rows = [...body.rows];
    rows.sort((a, b) => collator.compare(cellValue(a, index), cellValue(b, index)) * (descending ? -1 : 1));
    body.append(...rows);
  };
  headers.forEach((th, index) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'sort';
    button.textContent = th.textContent;
    th.textContent = '';
    th.appendChild(button);
    button.addEventListener('click', () => sortBy(index, th.getAttribute('aria-sort') === 'ascending'));
  });
  return { headers, sortBy };
}

// On a phone the table shows only the name and two verdicts: a select sorts by any column, hidden ones too. The
// page lays out the select (layouts/_partials/table-tools.html); this adds the table's columns to it.
function fillSortSelect(tools, sortable) {
  const select = tools.querySelector('select');
  sortable.headers.forEach((th, index) => {
    const option = document.createElement('option');
    option.value = String(index);
    option.textContent = th.textContent.trim();
    select.append(option);
  });
  select.addEventListener('change', () => { if (select.value) sortable.sortBy(Number(select.value), false); });
}

export function initTables(root) {
  const sortables = new Map();
  for (const table of root.querySelectorAll('table.sortable')) sortables.set(table, makeSortable(table));
  for (const tools of root.querySelectorAll('[data-table-tools]')) {
    const table = tools.nextElementSibling?.querySelector('table');
    if (table && sortables.get(table)) fillSortSelect(tools, sortables.get(table));
    else tools.hidden = true;  // a table of one row has nothing to sort
  }
}
