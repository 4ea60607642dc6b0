"""Where the repository's parts are, for every module that reads or writes them (the probe excepted: it ships
as one stand-alone file and finds a checkout's data/ by itself)."""
import os
from collections.abc import Iterator, Sequence
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
    symbolic link on the way). Every file the export, the watcher and the issue bot write goes through here (or
    through a `Folder`, which checks the same way), so no text from a record or an issue decides where a file lands."""
    return Folder(folder).path(relative)


class Folder:
    """A folder that many files are written into, each path checked as `inside` checks it. Each sub-folder's real
    path is worked out once per Folder, from its parent's: one `lstat` per new folder and one per file, where
    resolving every component of every path was a third of a small export's time (an export writes hundreds of
    files, thousands at scale). Make one per pass (an export, a save), so a folder swapped for a link later is seen."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._base = os.path.realpath(folder)
        self._prefix = os.path.join(self._base, "")
        self._real: dict[str, str] = {"": self._base}  # sub-folder as written (posix, relative) -> its real path

    def _resolve(self, parent: str, name: str) -> str:
        """The real path of `name` in the (real, link-free) folder `parent`: a plain name adds itself; `..`, `.`,
        an empty name or a link is resolved in full."""
        candidate = os.path.join(parent, name)
        if name in ("", ".", "..") or os.path.islink(candidate):
            return os.path.realpath(candidate)
        return candidate

    def _real_folder(self, relative: str) -> str:
        real = self._real.get(relative)
        if real is None:
            above, _, name = relative.rpartition("/")
            real = self._resolve(self._real_folder(above), name)
            self._real[relative] = real
        return real

    def path(self, relative: str) -> Path:
        self.checked(relative)
        return self.folder / relative

    def checked(self, relative: str) -> str:
        """`path`, as text: for a writer of many files that needs a Path only for those it writes."""
        if os.path.isabs(relative):
            target = os.path.realpath(relative)
        else:
            parent, _, name = relative.rpartition("/")
            target = self._resolve(self._real_folder(parent), name)
        if target == self._base or not target.startswith(self._prefix):
            raise OutsideFolder(f"{relative!r} would be written outside {self.folder}")
        return os.path.join(self.folder, relative)


def walk_files(root: str | Path, skip: Sequence[str | Path] | frozenset[str] = (), prefix: str = ""
               ) -> Iterator[tuple[str, os.DirEntry]]:
    """(path relative to `root` with /, entry) of every entry under the folder `root` that is not a folder, sorted,
    not following links (a link, even to a folder, is an entry of its own), except under `skip`. Plain os calls on
    text paths: at 10,000 products public/ holds 90,000 files."""
    skipped = skip if isinstance(skip, frozenset) else frozenset(os.fspath(s) for s in skip)
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.path in skipped:
            continue
        if entry.is_dir(follow_symlinks=False):
            yield from walk_files(entry.path, skipped, f"{prefix}{entry.name}/")
        else:
            yield prefix + entry.name, entry
