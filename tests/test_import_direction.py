"""The package's imports run one way (scripts/uasdb/__init__.py): records -> verdicts -> publish. records/ reads
and checks the YAML and imports nothing above it; verdicts/ builds on records/; publish/ on both. A module that
imports upwards (three records/rules modules once imported verdicts.engine) makes the packages a cycle."""
import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scripts" / "uasdb"
# What each layer may import besides itself: the stand-alone probe and paths.py sit below everything.
BELOW = {"paths", "probe", "__init__"}
ALLOWED = {
    "records": {"records"} | BELOW,
    "verdicts": {"records", "verdicts"} | BELOW,
    "publish": {"records", "verdicts", "publish"} | BELOW,
}


def _imports(path: Path):
    """(line, the uasdb part imported) for every import of a uasdb module in the file, at any depth (inside
    functions too), relative or absolute."""
    module = path.relative_to(PACKAGE.parent).with_suffix("").parts  # ("uasdb", "records", "rules", "evidence")
    package = module[:-1] if path.name != "__init__.py" else module[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                target = [*base, *(node.module.split(".") if node.module else [])]
            else:
                target = (node.module or "").split(".")
            names = [target] if node.module or not node.level else [[*target, a.name] for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name.split(".") for a in node.names]
        else:
            continue
        for name in names:
            if name[:1] == ["uasdb"] and len(name) > 1:
                part = name[1]
                known = (PACKAGE / part).is_dir() or (PACKAGE / f"{part}.py").is_file()
                yield node.lineno, part if known else "__init__"  # a name the package's __init__ defines


def _layer_files(layer: str):
    return sorted((PACKAGE / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_imports_run_one_way(layer):
    wrong = [f"{path.relative_to(PACKAGE.parent)}:{line}: imports uasdb.{target}"
             for path in _layer_files(layer) for line, target in _imports(path) if target not in ALLOWED[layer]]
    assert wrong == []


def test_the_guard_sees_an_upward_import(tmp_path, monkeypatch):
    """The check itself: a records module importing verdicts (relative, inside a function) is caught."""
    fake = tmp_path / "uasdb" / "records" / "rules"
    fake.mkdir(parents=True)
    (tmp_path / "uasdb" / "verdicts").mkdir()
    (fake / "bad.py").write_text("def f():\n    from ...verdicts.engine import PLATFORMS\n", encoding="utf-8")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", tmp_path / "uasdb")
    assert list(_imports(fake / "bad.py")) == [(2, "verdicts")]
