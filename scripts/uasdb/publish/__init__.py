"""Publishing: one model per page, one file per entity, read by Hugo and the browser alike.

`export.build` joins the records, their verdicts and what Linux, usb.ids, smartmontools, distributions and
linux-hardware.org know into one catalog (a dict held only in memory), in named steps that each return data: the
page modules below make their part of it (adapter_entries, usb_slots, chipset_entries, list_catalog,
buy_rankings, latest_reports) and the joins return the catalog with their facts added (with_...). The modules here turn that catalog into
the files the site is built from, each a page's whole model and, at the same address, its JSON API file. What
to say per product, USB ID and platform (the answers every page prints) is decided in verdicts/answer.py.

  adapter.py    /api/v1/adapters/<id>.json            an adapter page: the record, its verdicts, and `page`
  usb.py        /api/v1/usb/<vid>/<pid>.json           a USB ID page;  /api/v1/usb.json lists every ID
  chipset.py    /api/v1/chipsets/<id>.json             a chipset page; /api/v1/chipsets.json lists them all
  lists.py      /api/v1/lists.json                     the naughty and nice (and pending) pages
  buy.py        /api/v1/buy/<platform>.json            the what-to-buy pages, with their filters (kind, drive, boots)
  facets.py     (in the files above, and pages.json)    the long pages' filters: choices, counts, each row's values
  home.py       /api/v1/home.json                      the home page and the Atom feed
  rows.py       /api/v1/adapter-rows.json              one slim row per adapter: every table of adapters
  common.py     data/common.json, data/pages.json      what every page shares, and which pages to make;
                data/names.json                        every product's name by id, held once (titles, links by id)
  throughput.py (in each adapter)                     an adapter's throughput chart, each bar against its USB link
  labels.py     (in each adapter and row)              how the site names drive interfaces and vendors
  ../api_index.py  data/api_index.json                 the /api/v1/ page: every endpoint of API.md with its schema
  ../search_vocabulary.py  /search/vocabulary.json     the words the search corrects typos to, its chips and vendors

Fields a record has are kept as they are; what the export works out for a page sits under `page` (or in
files of their own), so raw and computed never mix. Templates only print what a model holds, and the content
adapter (site/content/_content.gotmpl) makes each page from data/pages.json, passing the address of its model.
`files.export_files` yields every file; the watcher behind `make serve` writes only those whose text changed.
It makes each product's page as it writes that product's file, and keeps adapters.json's pieces in a temporary
file, so that neither is held for every product at once (at 10,000 products, 60 MB and 240 MB).
"""
