"""The class-wide guard of issue 39: every regular expression and every text-reading function, in Python and in the
site's JS, found by enumeration (never a hand-kept list), run on generated worst cases at 10× and 100× a base size.

- Python patterns: every `re.*` call with a literal pattern anywhere under scripts/uasdb/ (read from the syntax
  tree, so a pattern inside a function is found too), and every compiled pattern a module holds.
- JS patterns: every regular-expression literal in site/assets/js/*.js (the extractor of pattern_worst_cases.py).
- Python text functions: every function of uasdb whose required parameters are all text (`str` or `bytes`); the
  first such parameter gets the generated text, a parameter named like a path or an ID a fixed value. Modules that
  run programs or touch the network are left out by package (tools/, probe.bench, probe.cli).
- JS text functions: every exported function of the site's page-free modules, called with the generated text.

The worst cases come from the pattern itself: a sample match is generated from its parse tree (each repeat taken
none and once, each alternative in turn), and every prefix of a sample, every character of it and a few generic
characters (blank, letter, digit, colon, dot, `<`, tab, newline, `!`) is repeated to the size. A linear reader takes
about 10 times as long at 100× as at 10×; a quadratic one about 100 times. The test fails when the 100× run takes
over SUPERLINEAR times the 10× run and over FLOOR seconds (below that, timer noise decides).

Time is CPU time, not the clock's: on a shared machine a run that waited for a core would otherwise look slow, and a
wait of a few milliseconds is all it takes at these sizes. The thread's clock measures (the process's reads in
ticks while a CPU timer is armed, and came out 0 ms for 2.5 ms of work); the process's CPU timer cuts a run off.
"""
from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
import signal
import time
from collections.abc import Callable, Iterable

from helpers import REPO

try:
    from re import _constants as sre_constants
    from re import _parser as sre_parse  # Python 3.11+
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants  # type: ignore
    import sre_parse  # type: ignore

BASE = 250          # characters at 1×: the runs are at 2,500 and 25,000
SUPERLINEAR = 30    # 100× over 10×: about 10 when linear, about 100 when quadratic
FLOOR = 0.02        # CPU seconds: a 100× run faster than this passes whatever the ratio (a quadratic reader that
                    # passes at 25,000 characters spends under 0.08 s at 50,000, where the floor was 0.05 s before)
GENERIC = [" ", "a", "1", ":", ".", "<", "\t", "\n", "!", "-", "x", "/", "\"", "#", "(", "=", "0x", "a ", "1 ", "a:"]
SCRIPTS = REPO / "scripts" / "uasdb"
SITE_JS = REPO / "site" / "assets" / "js"
# tools/ reads only what uasdb, Hugo and Chromium wrote on this machine (benchmark logs and pages); its patterns and
# text functions are left out. Packages that run programs or touch the network are not called with junk either.
NOT_READ = ("scripts/uasdb/tools/", "uasdb.tools.")
NOT_CALLED = ("uasdb.tools.", "uasdb.probe.bench", "uasdb.probe.cli", "uasdb.publish.sitebuild", "uasdb.publish.watch",
              "uasdb.records.kernel_flags.__getattr__")
FIXED = {"path": "x.yaml", "name": "x", "usb_id": "152d:0578", "field_id": "usb_id", "folder": "data"}

_RE_CALLS = {"compile", "match", "search", "fullmatch", "finditer", "findall", "sub", "subn", "split"}
_FLAG_NAMES = {"I": re.I, "IGNORECASE": re.I, "M": re.M, "MULTILINE": re.M, "S": re.S, "DOTALL": re.S,
               "X": re.X, "VERBOSE": re.X, "A": re.A, "ASCII": re.A}


# ---------------------------------------------------------------------------------------------------------------
# Enumeration
# ---------------------------------------------------------------------------------------------------------------
def _flags(node: ast.AST | None) -> int | None:
    if node is None:
        return 0
    if isinstance(node, ast.Attribute) and node.attr in _FLAG_NAMES:
        return _FLAG_NAMES[node.attr]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = _flags(node.left), _flags(node.right)
        return None if left is None or right is None else left | right
    return None


ANCHORED = {"match", "fullmatch"}


# How each pattern is used, by its name in python_patterns(): "anchored" (only match/fullmatch: read from the
# start of the text) or "search" (from every position, as search, findall, sub and split read).
MODES: dict[str, str] = {}


def python_literal_patterns() -> dict[str, re.Pattern[str]]:
    """Every `re.<call>("literal", …)` under scripts/uasdb/, by `file:line`."""
    found: dict[str, re.Pattern[str]] = {}
    for path in sorted(SCRIPTS.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if not re.search(r"\bre\b", source):
            continue  # no name `re` anywhere, so no re.<call>: not parsed
        nodes = list(ast.walk(ast.parse(source)))  # walked once: each pass below reads the list
        names = _compiled_names(nodes)
        # The one parent asked about: the attribute a call is read from (`re.compile(…).match`).
        parents = {id(node.value): node for node in nodes if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Call)}
        for node in nodes:
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _RE_CALLS
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "re" and node.args):
                continue
            pattern = node.args[0]
            if not (isinstance(pattern, ast.Constant) and isinstance(pattern.value, str)):
                continue
            flag_node = next((k.value for k in node.keywords if k.arg == "flags"), None)
            if flag_node is None:
                position = {"compile": 1, "match": 2, "search": 2, "fullmatch": 2, "finditer": 2, "findall": 2,
                            "split": 3, "sub": 4, "subn": 4}[node.func.attr]
                flag_node = node.args[position] if len(node.args) > position else None
            flags = _flags(flag_node)
            name = f"{path.relative_to(REPO)}:{node.lineno}"
            found[name] = re.compile(pattern.value, flags or 0)
            if node.func.attr in ANCHORED:
                MODES[name] = "anchored"
            elif node.func.attr == "compile" and id(node) in parents:
                MODES[name] = "anchored" if parents[id(node)].attr in ANCHORED else "search"  # re.compile(…).match(…)
            elif node.func.attr == "compile":
                methods = names.get(node.lineno)
                MODES[name] = "anchored" if methods and methods <= ANCHORED else "search"
            else:
                MODES[name] = "search"
    return found


def _compiled_names(nodes: list[ast.AST]) -> dict[int, set]:
    """For each `NAME = re.compile(…)` (by its line), the methods the module calls on NAME; a NAME used in any
    other way (passed on, put in a table) gets "*", so it counts as searched. `nodes`: the module's, walked."""
    assigned: dict[str, int] = {}
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute) \
                and node.value.func.attr == "compile":
            assigned[node.targets[0].id] = node.value.lineno
    methods: dict[int, set] = {line: set() for line in assigned.values()}
    attributes = set()
    for node in nodes:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in assigned:
            methods[assigned[node.value.id]].add(node.attr)
            attributes.add(id(node.value))
    for node in nodes:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in assigned and id(node) not in attributes:
            methods[assigned[node.id]].add("*")
    return methods


def python_module_patterns() -> dict[str, re.Pattern[str]]:
    """Every compiled pattern a uasdb module holds at its top level (also in lists, tuples and dicts of them)."""
    found: dict[str, re.Pattern[str]] = {}
    for module in _modules():
        for name, value in vars(module).items():
            for index, pattern in enumerate(_patterns_in(value)):
                if pattern.pattern and isinstance(pattern.pattern, str):
                    found[f"{module.__name__}.{name}[{index}]"] = pattern
    return found


def _patterns_in(value, depth: int = 0):
    if isinstance(value, re.Pattern):
        yield value
    elif depth < 3 and isinstance(value, (list, tuple)):
        for item in value:
            yield from _patterns_in(item, depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for item in value.values():
            yield from _patterns_in(item, depth + 1)


def _modules():
    import uasdb
    for info in pkgutil.walk_packages(uasdb.__path__, "uasdb."):
        if not info.name.endswith("__main__"):
            yield importlib.import_module(info.name)


def python_patterns() -> dict[str, re.Pattern[str]]:
    """Both enumerations, each pattern once (the first name it was found under)."""
    seen: dict[tuple[str, int], str] = {}
    out: dict[str, re.Pattern[str]] = {}
    for name, pattern in {**python_literal_patterns(), **python_module_patterns()}.items():
        key = (pattern.pattern, pattern.flags)
        if key not in seen and not name.startswith(NOT_READ):
            seen[key] = name
            out[name] = pattern
    return out


def javascript_patterns() -> dict[str, tuple[str, str]]:
    """Every regular-expression literal of site/assets/js/*.js, by `file:index`, as (source, flags)."""
    from pattern_worst_cases import _ANY_JS, _split_literal, _without_comments
    found: dict[str, tuple[str, str]] = {}
    for path in sorted(SITE_JS.glob("*.js")):
        text = _without_comments(path.read_text(encoding="utf-8"))
        for index, literal in enumerate(dict.fromkeys(_ANY_JS.findall(text))):
            found[f"{path.name}:{index}:{literal[:60]}"] = _split_literal(literal)
    return found


def python_text_functions() -> dict[str, Callable[[str], object]]:
    """Every function of uasdb whose required parameters are all text, as a one-argument caller."""
    found: dict[str, Callable[[str], object]] = {}
    for module in _modules():
        if module.__name__.startswith(NOT_CALLED + NOT_READ):
            continue
        for name, function in vars(module).items():
            qualified = f"{module.__name__}.{name}"
            if not inspect.isfunction(function) or function.__module__ != module.__name__ or qualified.startswith(NOT_CALLED):
                continue
            caller = _text_caller(function)
            if caller is not None:
                found[qualified] = caller
    return found


def _text_caller(function) -> Callable[[str], object] | None:
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return None
    required = [p for p in parameters if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    kinds = [{str: "str", bytes: "bytes"}.get(p.annotation, p.annotation) for p in required]
    if not required or any(k not in ("str", "bytes") for k in kinds):
        return None
    text_index = next((i for i, p in enumerate(required) if p.name not in FIXED), None)
    if text_index is None:
        return None

    def call(text: str):
        arguments = []
        for index, (parameter, kind) in enumerate(zip(required, kinds, strict=True)):
            value = text if index == text_index else FIXED.get(parameter.name, "x")
            arguments.append(value.encode("utf-8", "surrogatepass") if kind == "bytes" else value)
        return function(*arguments)
    return call


# ---------------------------------------------------------------------------------------------------------------
# Worst cases
# ---------------------------------------------------------------------------------------------------------------
_CANDIDATES = " a1:.-_x/<>\"'#=()[]{}!?,;+*&%@A0Z9\tz"


def _in_class(char: str, items) -> bool:
    code = ord(char)
    negate = False
    hit = False
    for op, arg in items:
        if op is sre_constants.NEGATE:
            negate = True
        elif op is sre_constants.LITERAL:
            hit = hit or code == arg
        elif op is sre_constants.RANGE:
            hit = hit or arg[0] <= code <= arg[1]
        elif op is sre_constants.CATEGORY:
            hit = hit or _category(char, arg)
    return hit != negate


def _category(char: str, category) -> bool:
    name = str(category)
    base = {"DIGIT": char.isdigit(), "WORD": char.isalnum() or char == "_", "SPACE": char.isspace(),
            "LINEBREAK": char == "\n"}
    for key, value in base.items():
        if name.endswith("NOT_" + key):
            return not value
        if name.endswith(key):
            return value
    return False


def _sample(items, mode: str, branch: int, depth: int = 0) -> str:
    """A string the parsed pattern matches (roughly: lookarounds and back-references are left out)."""
    out = []
    for op, arg in items:
        if depth > 30:
            break
        if op is sre_constants.LITERAL:
            out.append(chr(arg))
        elif op is sre_constants.NOT_LITERAL:
            out.append("a" if arg != ord("a") else "b")
        elif op is sre_constants.ANY:
            out.append("a")
        elif op is sre_constants.IN:
            out.append(next((c for c in _CANDIDATES if _in_class(c, arg)), ""))
        elif op is sre_constants.CATEGORY:
            out.append(next((c for c in _CANDIDATES if _category(c, arg)), ""))
        elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT) or str(op) == "POSSESSIVE_REPEAT":
            low, high, sub = arg
            count = low if mode == "min" else max(low, min(high, 1))
            out.append(_sample(sub, mode, branch, depth + 1) * min(count, 8))
        elif op is sre_constants.SUBPATTERN:
            out.append(_sample(arg[-1], mode, branch, depth + 1))
        elif str(op) == "ATOMIC_GROUP":
            out.append(_sample(arg, mode, branch, depth + 1))
        elif op is sre_constants.BRANCH:
            alternatives = arg[1]
            out.append(_sample(alternatives[branch % len(alternatives)], mode, branch, depth + 1))
        # AT, ASSERT, ASSERT_NOT, GROUPREF and the rest match no characters of their own here
    return "".join(out)


def samples(source: str, flags: int = 0) -> list[str]:
    try:
        parsed = sre_parse.parse(source, flags)
    except (re.error, TypeError, ValueError, OverflowError, RecursionError):
        return [piece for piece in re.split(r"[\\^$.|?*+()\[\]{}]+", source) if piece]
    found = []
    for mode in ("min", "one"):
        for branch in range(4):
            text = _sample(list(parsed), mode, branch)
            if text and text not in found:
                found.append(text)
    return found


def units_for(source: str, flags: int = 0) -> list[tuple[str, str]]:
    """(prefix, unit) pairs: every prefix of every sample repeated, and each sample's proper prefixes followed by
    a run of each generic character."""
    units: dict[tuple[str, str], None] = {}
    for sample in samples(source, flags):
        sample = sample[:40]
        for end in range(1, len(sample) + 1):
            units[("", sample[:end])] = None
        for char in dict.fromkeys(sample):
            units[("", char)] = None
    for sample in samples(source, flags)[:2]:
        sample = sample[:40]
        for end in range(1, len(sample)):
            for char in (" ", "a"):
                units[(sample[:end], char)] = None
    for char in GENERIC:
        units[("", char)] = None
    return list(units)


def worst_text(prefix: str, unit: str, size: int) -> str:
    return prefix + unit * max(1, (size - len(prefix)) // len(unit)) + "\u00a7"


# ---------------------------------------------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------------------------------------------
class TooSlow(Exception):
    pass


def _interrupt(signum, frame):
    raise TooSlow()


def timed(run: Callable[[], object], limit: float, enough: float = 0.002, patient: bool = False) -> float:
    """CPU seconds `run` took (the faster of two), or infinity when it ran past `limit` CPU seconds (`patient`: when
    both did). The second run is skipped when the first took at most `enough` seconds: the faster of two could only
    be faster still, so a verdict of "fast enough" stands after one run."""
    previous = signal.signal(signal.SIGPROF, _interrupt)
    best = float("inf")
    try:
        for _ in range(2):
            signal.setitimer(signal.ITIMER_PROF, limit)  # this process's CPU time: the thread's, as it runs alone
            started = time.thread_time()
            try:
                run()
            except TooSlow:
                if patient:
                    continue  # past the limit: the second run decides
                return float("inf")
            except Exception:  # noqa: BLE001 - a reader may refuse junk; how long it took to refuse is what counts
                pass
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
            best = min(best, time.thread_time() - started)
            if best <= enough:
                break
    finally:
        signal.signal(signal.SIGPROF, previous)
    return best


def superlinear(run_at: Callable[[int], Callable[[], object]]) -> str | None:
    """None when 100× takes about ten times 10×, else what was measured. A run that looks superlinear is measured
    again (a collection or another process can stall one run); both must look so. The 100× run is cut off at the
    time that fails it (a run past it fails whatever it would have taken) and run once only when that passes."""
    for _ in range(2):
        ten = timed(run_at(10 * BASE), 1.0)
        if ten == float("inf"):
            return "over 1 s at 10×"
        allowed = max(FLOOR, SUPERLINEAR * ten)
        hundred = timed(run_at(100 * BASE), min(5.0, allowed), enough=allowed, patient=True)
        if not (hundred > FLOOR and hundred > SUPERLINEAR * ten):
            return None
    if hundred == float("inf"):
        return f"{ten * 1000:.1f} ms at 10×, over {min(5.0, allowed) * 1000:.1f} ms at 100×"
    return f"{ten * 1000:.1f} ms at 10×, {hundred * 1000:.1f} ms at 100×"


def slow_cases(run_at_unit: Callable[[str, str, int], Callable[[], object]], units: Iterable[tuple[str, str]]) -> list[str]:
    """The first worst case that grows faster than linearly (one is enough to fail, and each costs seconds)."""
    for prefix, unit in units:
        found = superlinear(lambda size, prefix=prefix, unit=unit: run_at_unit(prefix, unit, size))
        if found:
            return [f"{prefix!r} + {unit!r}×n: {found}"]
    return []
