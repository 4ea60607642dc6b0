"""The benchmark's synthetic datasets pass validation, so the benchmark measures the real pipeline."""
import pytest

from uasdb.records.database import check
from uasdb.tools.synth import generate


@pytest.mark.slow  # validates a generated tree: a benchmark's tool
def test_synthetic_dataset_validates_cleanly(tmp_path):
    generate(tmp_path, 60, seed=7)
    result = check([tmp_path / "data"])
    # Synthetic vendor IDs are deliberately unregistered (never a real device): usb.ids rightly notes them.
    assert [p.render() for p in result.problems if p.rule != "usb-vendor-known"] == []
    assert all(p.severity == "warning" for p in result.problems)
    assert sum(r.kind == "adapter" for r in result.records) == 60


def test_generation_is_deterministic(tmp_path):
    first = generate(tmp_path / "a", 20, seed=3)
    second = generate(tmp_path / "b", 20, seed=3)
    assert [p.read_text() for p in first] == [p.read_text() for p in second]
