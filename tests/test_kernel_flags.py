"""One source of truth: the quirk letters come from the generated kernel file, and every flag has words."""
from pathlib import Path

import pytest
import yaml

from helpers import run_uasdb
from uasdb.records import kernel_flags
from uasdb.records.reference import ReferenceDataError, kernel_file, load_kernel

REPO = Path(__file__).resolve().parents[1]


def generated() -> dict:
    """The generated kernel file, read with libyaml as the tools read it (reference.py); pure-Python PyYAML took
    a quarter of a second for it."""
    return yaml.load(kernel_file().read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def test_letters_are_read_from_the_generated_file():
    letters = generated()["quirk_letters"]
    assert kernel_flags.quirk_letters() == {letter: info["flag"] for letter, info in letters.items()}
    assert kernel_flags.QUIRK_LETTERS["u"] == "IGNORE_UAS"


def test_every_kernel_flag_has_plain_words():
    catalogue = generated()["flags"]
    missing = sorted(f["name"] for f in catalogue if f["name"] not in kernel_flags.FLAG_PLAIN)
    assert not missing, f"add plain words for {missing} to FLAG_PLAIN in scripts/uasdb/records/kernel_flags.py"
    assert kernel_flags.flag_text("IGNORE_UAS") == "IGNORE_UAS (falls back to usb-storage)"


def test_newest_kernel_file_wins(tmp_path):
    (tmp_path / "kernel").mkdir()
    for version in ("6.9", "6.12"):
        (tmp_path / "kernel" / f"linux-{version}.yaml").write_text("")
    assert kernel_file(tmp_path).name == "linux-6.12.yaml"


def test_missing_reference_file_says_how_to_make_it(tmp_path):
    with pytest.raises(ReferenceDataError, match=r"run `uasdb import-kernel"):
        load_kernel(tmp_path)


def _uasdb(*args):
    return run_uasdb(*args, cwd=REPO, timeout=120)


def test_import_command_with_a_bad_path_fails_cleanly():
    result = _uasdb("import-kernel", "/nonexistent/linux.tar.xz")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "/nonexistent/linux.tar.xz: no such file or folder — give a kernel source tree or a linux-source tarball" in result.stderr


def test_import_commands_are_listed():
    result = _uasdb("--help")
    for name in ("import-kernel", "import-usbids", "import-drivedb"):
        assert name in result.stdout
