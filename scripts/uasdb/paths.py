"""Where the repository's parts are, for every module that reads or writes them (the probe excepted: it ships
as one stand-alone file and finds a checkout's data/ by itself)."""
import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA_DIR = REPO_ROOT / "data"
# UASDB_SCHEMA_DIR: a copy of schema/ to read instead (tests prove a platform is one schema edit with it).
SCHEMA_DIR = Path(os.environ["UASDB_SCHEMA_DIR"]) if os.environ.get("UASDB_SCHEMA_DIR") else REPO_ROOT / "schema"
SITE_DIR = REPO_ROOT / "site"
ISSUE_FORM = REPO_ROOT / ".github" / "ISSUE_TEMPLATE" / "adapter-report.yml"


class OutsideFolder(ValueError):
    """A file that would be written outside the folder it belongs in."""


def inside(folder: Path, relative: str) -> Path:
    """`folder`/`relative`, or OutsideFolder when that path resolves outside `folder` (`..`, an absolute path, a
    symbolic link on the way). Every file the export, the watcher and the issue bot write goes through here, so
    no text from a record or an issue decides where a file lands."""
    # os.path.realpath is what Path.resolve() runs; on strings the check costs a third less (the export writes
    # hundreds of files, the watcher on every save).
    base = os.path.realpath(folder)
    target = os.path.realpath(os.path.join(base, relative))
    if target == base or not target.startswith(os.path.join(base, "")):
        raise OutsideFolder(f"{relative!r} would be written outside {folder}")
    return Path(folder) / relative
