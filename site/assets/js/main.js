// The site's one script: copy buttons, sortable tables, the filters of long pages, search, open disclosures for printing.
// Every page is complete without it.
import { initCopyButtons } from './copy.js';
import { initTables } from './table.js';
import { initFilters } from './filter.js';
import { initSearch } from './search.js';

initCopyButtons(document);
initTables(document);
initFilters(document);
for (const form of document.querySelectorAll('form[data-search]')) initSearch(form);
window.addEventListener('beforeprint', () => {
  for (const d of document.querySelectorAll('details')) d.open = true;
});
