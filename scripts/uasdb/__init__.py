"""uasdb: validator, verdict engine and tooling for the USB storage adapter compatibility database.

The package is grouped by role; imports run one way, records -> verdicts -> publish, with ingest and tools beside:

  cli.py       the `uasdb` command (every subcommand), paths.py where the repository's folders are
  records/     reading and checking the YAML records: loader (values with line:col), schema, rules/ (one rule per
               concern, one registry), database (check a tree), cache (each record's parse and checks, by content),
               fmt, the schema's vocabulary, the reference tables (kernel, usb.ids, smartmontools,
               linux-hardware.org) and the kernel's quirk letters
  verdicts/    engine.py (reports -> graded findings -> verdicts and lists) and expectations.py (labelled
               expectations from related products, with their leave-one-out accuracy)
  publish/     export.py (the catalog, built in named steps), one model module per page kind (adapter, usb, chipset,
               lists, buy, home, rows, common), each making its part of the catalog and its page's model,
               files.py (one file per entity, each its JSON API file), the kernel/distribution/linux-hardware
               joins, the watcher behind `make serve` (watch.py; preview.py makes an edited product's page first, from
               its record and the last export), the site build and its search index (search_index.py: search
               twins made from the export, indexed by Pagefind only when their words change)
  ingest/      turning published reports into records: the issue form and its parser, `uasdb new`, importers/
  tools/       maintainers' tools: benchmarks and their synthetic data, the generated field guide and rule table,
               the data diff for pull requests
  probe/       the stand-alone probe people run (bundled into /probe.py; Python 3.9 and the standard library only)
"""

__version__ = "0.1.0"


def relax_gc() -> None:
    """Collect cycles less often. Checking and exporting builds millions of small objects that live until the
    process ends (records, verdicts, page models) and hold no cycles worth freeing early; at CPython's default
    thresholds the collector walks them again and again, a third of the export's time at 10,000 products
    (`uasdb bench`). Memory stays the same: nothing here waits on the collector to be freed."""
    import gc
    gc.set_threshold(100_000, 50, 100)
