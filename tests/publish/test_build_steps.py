"""`export.build` is a list of named steps that each return data (issue 35, item 7): a step that wrote into the
catalog it was given instead would make a page depend on the order the steps run in, and the watcher behind
`make serve` keeps parts of earlier catalogs (BuildCache) that a write would change under it."""
import copy
from pathlib import Path

import pytest

import uasdb.publish.export as export
from uasdb.records.database import check

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "site-data"
# The steps that take the catalog so far, in the order build runs them.
STEPS = ["with_distributions", "with_popularity", "with_reference", "with_wanted", "with_expectations",
         "with_answers", "_with_page_facts"]


def _guarded(name, real, ran):
    def guarded(site, *args, **kwargs):
        before = copy.deepcopy(site)
        result = real(site, *args, **kwargs)
        assert site == before, f"{name} changed the catalog it was given"
        assert result is not site, f"{name} returned the catalog it was given"
        ran.append(name)
        return result
    return guarded


def test_no_step_of_build_changes_the_catalog_it_is_given(monkeypatch):
    ran = []
    for name in STEPS:
        monkeypatch.setattr(export, name, _guarded(name, getattr(export, name), ran))
    result = check(export.record_folders([FIXTURES]))
    assert result.errors == []
    site = export.build(result.records)
    assert ran == STEPS
    assert site["adapters"] and all("answers" in a and "kernel" in a for a in site["adapters"])
    # Each product's page is made as its file is written (export_files), from the finished catalog: writing the
    # files changes nothing in it either.
    before = copy.deepcopy(site)
    files = dict(export.export_files(site, "2026-01-01T00:00:00Z"))
    assert site == before
    assert all(f"api/v1/adapters/{a['id']}.json" in files for a in site["adapters"])


@pytest.mark.slow  # three guarded builds, each step's input deep-copied and compared: about 1 s of CPU
def test_no_step_changes_what_the_watchers_cache_keeps(monkeypatch):
    """With the watcher's BuildCache, later exports share what earlier ones worked out (the expectations memo's
    published dicts among them): no step may change any of it, in the first export or the next."""
    from uasdb.publish.adapter import BuildCache
    ran = []
    for name in STEPS:
        monkeypatch.setattr(export, name, _guarded(name, getattr(export, name), ran))
    result = check(export.record_folders([FIXTURES]))
    cache = BuildCache()
    first = export.build(result.records, cache=cache)
    assert export.build(result.records, cache=cache) == first == export.build(result.records)
    assert ran == STEPS * 3
