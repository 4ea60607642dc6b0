"""uasdb: validator, verdict engine and tooling for the USB storage adapter compatibility database."""

__version__ = "0.1.0"


def relax_gc() -> None:
    """Collect cycles less often. Checking and exporting builds millions of small objects that live until the
    process ends (records, verdicts, page models) and hold no cycles worth freeing early; at CPython's default
    thresholds the collector walks them again and again, a third of the export's time at 10,000 products
    (`uasdb bench`). Memory stays the same: nothing here waits on the collector to be freed."""
    import gc
    gc.set_threshold(100_000, 50, 100)
