"""`uasdb import-kernel PATH`: the kernel's own quirk tables, read from a source tree or tarball.

Reads, and cross-checks against each other:
  drivers/usb/storage/unusual_uas.h, unusual_devs.h   every UNUSUAL_DEV/COMPLIANT_DEV entry
  drivers/usb/storage/uas-detect.h                     IDs whose flags are decided at runtime
  drivers/usb/storage/usb.c                            the quirks= letters the code accepts, and
                                                       which flags a user entry replaces
  include/linux/usb_usual.h                            every US_FL_* flag and its value
  Documentation/admin-guide/kernel-parameters.txt      the documented usb-storage.quirks= letters
  Makefile                                             the version
and writes data/kernel/linux-<VERSION.PATCHLEVEL>.yaml.
"""
from __future__ import annotations

import re
import sys
import tarfile
from pathlib import Path
from typing import Any

from . import cparse
from .common import Flow, SourceError, debian_package, decode, dump_yaml, header, write_generated

UNUSUAL_UAS = "drivers/usb/storage/unusual_uas.h"
UNUSUAL_DEVS = "drivers/usb/storage/unusual_devs.h"
UAS_DETECT = "drivers/usb/storage/uas-detect.h"
USB_C = "drivers/usb/storage/usb.c"
USB_USUAL = "include/linux/usb_usual.h"
PARAMETERS = "Documentation/admin-guide/kernel-parameters.txt"
MAKEFILE = "Makefile"
NEEDED = (MAKEFILE, PARAMETERS, USB_USUAL, USB_C, UAS_DETECT, UNUSUAL_DEVS, UNUSUAL_UAS)
TABLES = (UNUSUAL_UAS, UNUSUAL_DEVS)

ENTRY_MACROS = ("UNUSUAL_DEV", "COMPLIANT_DEV")
# USUAL_DEV lines match whole interface classes, not IDs: counted, not listed.
CLASS_MACROS = ("USUAL_DEV",)
ENTRY_ARGS = ("vid", "pid", "bcd_min", "bcd_max", "vendor", "product", "protocol", "transport", "init", "flags")


# --- reading the tree -----------------------------------------------------------------------------

def read_sources(path: Path) -> dict[str, str]:
    """The needed files of a kernel tree (a folder, or a tarball read member by member)."""
    path = Path(path)
    if path.is_dir():
        found = {}
        for name in NEEDED:
            member = path / name
            if not member.is_file():
                raise SourceError(str(path), 0, f"{name} is missing", "give the top folder of a complete kernel source tree")
            found[name] = decode(member.read_bytes(), name)
        return found
    if path.is_file():
        return _read_tarball(path)
    raise SourceError(str(path), 0, "no such file or folder", "give a kernel source tree or a linux-source tarball")


def _read_tarball(path: Path) -> dict[str, str]:
    found: dict[str, str] = {}
    try:
        # Streaming mode: one pass, only the needed members are read, nothing is extracted.
        with tarfile.open(path, mode="r|*") as archive:
            for member in archive:
                name = member.name.split("/", 1)[1] if "/" in member.name else member.name
                if name in NEEDED and member.isfile() and name not in found:
                    handle = archive.extractfile(member)
                    found[name] = decode(handle.read(), name) if handle else ""
                    if len(found) == len(NEEDED):
                        break
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise SourceError(str(path), 0, f"cannot read the tarball: {exc}", "give a .tar, .tar.gz or .tar.xz kernel source archive") from None
    missing = [n for n in NEEDED if n not in found]
    if missing:
        raise SourceError(str(path), 0, f"the tarball lacks {', '.join(missing)}", "give a complete linux-source tarball")
    return found


# --- parsing --------------------------------------------------------------------------------------

def parse_version(text: str) -> tuple[str, str]:
    """('6.12', '6.12.117') from the top-level Makefile."""
    values = {}
    for key in ("VERSION", "PATCHLEVEL", "SUBLEVEL", "EXTRAVERSION"):
        match = re.search(rf"^{key}\s*=[ \t]*(\S*)[ \t]*$", text, re.M)
        if match is None:
            raise SourceError(MAKEFILE, 0, f"no `{key} =` line", "is this the top-level Makefile of a kernel tree?")
        values[key] = match.group(1)
    for key in ("VERSION", "PATCHLEVEL"):
        if not values[key].isdigit():
            line = text[: text.index(f"{key} =")].count("\n") + 1
            raise SourceError(MAKEFILE, line, f"{key} is `{values[key]}`, not a number")
    short = f"{values['VERSION']}.{values['PATCHLEVEL']}"
    release = short + (f".{values['SUBLEVEL']}" if values["SUBLEVEL"] else "") + values["EXTRAVERSION"]
    return short, release


def parse_flag_catalogue(text: str) -> list[dict[str, Any]]:
    """Every US_FLAG(NAME, value) of usb_usual.h, in bit order."""
    flags: list[dict[str, Any]] = []
    for match in re.finditer(r"US_FLAG\(\s*([A-Z0-9_]+)\s*,\s*(0x[0-9a-fA-F]+)\s*\)", text):
        flags.append({"name": match.group(1), "value": f"0x{int(match.group(2), 16):08x}",
                      "line": text.count("\n", 0, match.start()) + 1})
    if not flags:
        raise SourceError(USB_USUAL, 0, "no US_FLAG(NAME, value) lines found", "has the flag list moved upstream?")
    names = [f["name"] for f in flags]
    for flag in flags:
        if names.count(flag["name"]) > 1:
            raise SourceError(USB_USUAL, flag["line"], f"flag {flag['name']} is defined twice")
    return sorted(flags, key=lambda f: int(f["value"], 16))


def parse_letter_table(text: str, known_flags: set[str]) -> dict[str, dict[str, Any]]:
    """The `usb-storage.quirks=` letters documented in kernel-parameters.txt.

    Each letter also gets the driver(s) it matters for, from the "uas only" / "not on uas" notes."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if re.match(r"\s+usb-storage\.quirks=\s*$", line)), None)
    if start is None:
        raise SourceError(PARAMETERS, 0, "no `usb-storage.quirks=` entry", "has the parameter been renamed upstream?")
    table: dict[str, dict[str, Any]] = {}
    current: str | None = None
    notes: dict[str, str] = {}
    for index in range(start + 1, len(lines)):
        line = lines[index]
        if re.match(r"\t[^\t\s]", line):  # the next parameter starts at one tab
            break
        letter_line = re.match(r"\s+([a-z]) = ([A-Za-z0-9_]+)\b(.*)$", line)
        if letter_line:
            letter, flag = letter_line.group(1), letter_line.group(2)
            if letter in table:
                raise SourceError(PARAMETERS, index + 1, f"letter {letter} is documented twice")
            if flag not in known_flags:
                raise SourceError(PARAMETERS, index + 1, f"letter {letter} names {flag}, which {USB_USUAL} does not define")
            table[letter] = {"flag": flag, "line": index + 1}
            current = letter
            notes[letter] = letter_line.group(3)
        elif current and re.match(r"\s+Example:", line):
            current = None
        elif current:
            notes[current] += " " + line.strip()
    if not table:
        raise SourceError(PARAMETERS, start + 1, "no `x = FLAG` letter lines under usb-storage.quirks=")
    for letter, note in notes.items():
        note = " ".join(note.split())
        if "uas only" in note:
            table[letter]["drivers"] = "uas"
        elif "not on uas" in note:
            table[letter]["drivers"] = "usb-storage"
        else:
            table[letter]["drivers"] = "both"
    return dict(sorted(table.items()))


MASK_START = re.compile(r"\bmask\s*=\s*\(")


def _mask(body: str):
    r"""The text inside `mask = ( … );`: up to the first `;` after `mask = (`, which must follow `)`. One pass: the
    next `;` is found once for every `mask = (` before it (`\(([^;]*)\)\s*;` read on to it from each one)."""
    semicolon = -1
    for start in MASK_START.finditer(body):
        if semicolon < start.end():
            semicolon = body.find(";", start.end())
            if semicolon == -1:
                return None
        inside = body[start.end():semicolon].rstrip()
        if inside.endswith(")"):
            return inside[:-1]
    return None


def parse_user_quirk_code(text: str) -> tuple[dict[str, str], set[str], int]:
    """From usb_stor_adjust_quirks() in usb.c: letter -> flag as the code reads them, and the mask
    of flags a matching user entry clears before setting its own."""
    code = cparse.strip_comments(text, USB_C)
    start, end = cparse.function_body(code, "usb_stor_adjust_quirks", USB_C)
    body = code[start:end]
    line = code.count("\n", 0, start) + 1
    letters = dict(re.findall(r"case\s+'([a-z])'\s*:\s*f\s*\|=\s*US_FL_([A-Z0-9_]+)\s*;", body))
    mask_match = _mask(body)
    if not letters or mask_match is None:
        raise SourceError(USB_C, line, "cannot find the letter switch and the flag mask in usb_stor_adjust_quirks()",
                          "has the function changed upstream?")
    mask = set(re.findall(r"US_FL_([A-Z0-9_]+)", mask_match))
    return letters, mask, line


def check_letters_against_code(documented: dict[str, dict[str, Any]], coded: dict[str, str], mask: set[str], code_line: int) -> None:
    """The documentation and the code must agree, or the letter table would mislead users."""
    for letter in sorted(set(documented) | set(coded)):
        doc_flag = documented.get(letter, {}).get("flag")
        if doc_flag != coded.get(letter):
            raise SourceError(PARAMETERS, documented.get(letter, {}).get("line", 0),
                              f"letter {letter}: documented as {doc_flag or 'nothing'}, but {USB_C}:{code_line} reads it as {coded.get(letter) or 'nothing'}")
    letter_flags = set(coded.values())
    if mask != letter_flags:
        raise SourceError(USB_C, code_line, f"the flags a user entry clears ({', '.join(sorted(mask ^ letter_flags))} differ) are not exactly the lettered flags",
                          "the rule `a user entry replaces the lettered flags` no longer holds; update the importer")


def _hex4(arg: str, what: str, file: str, line: int) -> str:
    if not re.fullmatch(r"0[xX][0-9a-fA-F]{1,4}|[0-9]+", arg):
        raise SourceError(file, line, f"{what} `{arg}` is not a 16-bit number")
    value = int(arg, 0) if arg.lower().startswith("0x") else int(arg, 10)
    if value > 0xFFFF:
        raise SourceError(file, line, f"{what} `{arg}` is larger than 0xffff")
    return f"{value:04x}"


def parse_table(text: str, file: str, known_flags: set[str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every UNUSUAL_DEV/COMPLIANT_DEV entry of one header, plus what the header defines and includes."""
    parsed = cparse.read_header(text, file, ENTRY_MACROS + CLASS_MACROS)
    entries: list[dict[str, Any]] = []
    counts = {name: 0 for name in ENTRY_MACROS + CLASS_MACROS}
    for call in parsed.calls:
        counts[call.name] += 1
        if call.name in CLASS_MACROS:
            if len(call.args) != 2:
                raise SourceError(file, call.line, f"{call.name} has {len(call.args)} arguments, expected 2")
            continue
        entries.append(_entry(call, file, known_flags))
    if not entries:
        raise SourceError(file, 0, "no UNUSUAL_DEV entries found", "is this the right file?")
    extras = {
        "counts": {k.lower(): v for k, v in counts.items()},
        "defines": [{"name": d.argument.split()[0], "condition": d.condition, "file": file, "line": d.line}
                    for d in parsed.directives if d.name == "define" and d.argument],
        "includes": [{"file": file, "line": d.line, "includes": _include_target(d.argument, file),
                      **({"condition": d.condition} if d.condition else {})}
                     for d in parsed.directives if d.name == "include"],
    }
    return entries, extras


def _include_target(argument: str, file: str) -> str:
    name = argument.strip('"<>')
    return str(Path(file).parent / name) if argument.startswith('"') else name


def _entry(call: cparse.Call, file: str, known_flags: set[str]) -> dict[str, Any]:
    if len(call.args) != len(ENTRY_ARGS):
        raise SourceError(file, call.line, f"{call.name} has {len(call.args)} arguments, expected {len(ENTRY_ARGS)}",
                          "(vid, pid, bcdMin, bcdMax, vendor, product, protocol, transport, init, flags)")
    args = dict(zip(ENTRY_ARGS, call.args, strict=True))
    where = dict(zip(ENTRY_ARGS, call.arg_lines, strict=True))
    entry: dict[str, Any] = {
        "vid": _hex4(args["vid"], "vendor ID", file, where["vid"]),
        "pid": _hex4(args["pid"], "product ID", file, where["pid"]),
        "bcd_min": _hex4(args["bcd_min"], "lowest bcdDevice", file, where["bcd_min"]),
        "bcd_max": _hex4(args["bcd_max"], "highest bcdDevice", file, where["bcd_max"]),
    }
    if int(entry["bcd_min"], 16) > int(entry["bcd_max"], 16):
        raise SourceError(file, where["bcd_min"], f"bcdDevice range {entry['bcd_min']}-{entry['bcd_max']} is empty")
    for key in ("vendor", "product"):
        value = cparse.string_value(args[key])
        if value is None:
            raise SourceError(file, where[key], f"{key} name `{args[key]}` is not a string literal")
        entry[key] = value
    entry["flags"] = Flow(_flags(args["flags"], file, where["flags"], known_flags))
    for key, default in (("protocol", "USB_SC_DEVICE"), ("transport", "USB_PR_DEVICE"), ("init", "NULL")):
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", args[key]):
            raise SourceError(file, where[key], f"{key} `{args[key]}` is not a plain name")
        if args[key] != default:
            entry[key] = args[key]
    if call.name != "UNUSUAL_DEV":
        entry["macro"] = call.name
    entry["file"] = file
    entry["line"] = call.line
    if call.condition:
        entry["condition"] = call.condition
    return entry


def _flags(expression: str, file: str, line: int, known_flags: set[str]) -> list[str]:
    text = expression.strip()
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    if text == "0":
        return []
    names = []
    for part in text.split("|"):
        part = part.strip().strip("()").strip()
        match = re.fullmatch(r"US_FL_([A-Z0-9_]+)", part)
        if not match:
            raise SourceError(file, line, f"cannot read `{part}` in the flags `{expression}`", "expected US_FL_NAME | US_FL_NAME or 0")
        if match.group(1) not in known_flags:
            raise SourceError(file, line, f"US_FL_{match.group(1)} is not defined in {USB_USUAL}")
        names.append(match.group(1))
    return sorted(set(names), key=names.index)


# The device properties uas_use_uas_driver() tests, as the fields a pasted `lsusb -v` gives (probe/parsers.py, paste.js):
# bMaxPower == N (lsusb prints it as MaxPower in mA; only 0 reads the same in both units), the link speed below
# SuperSpeed, and the streams of the SuperSpeed endpoint companion.
DEVICE_TESTS = (
    (re.compile(r"^udev->actconfig->desc\.bMaxPower\s*==\s*0$"), lambda m: {"field": "max_power_ma", "op": "==", "value": 0}),
    (re.compile(r"^udev->speed\s*<\s*USB_SPEED_SUPER$"), lambda m: {"field": "speed_mbps", "op": "<", "value": 5000}),
    (re.compile(r"^usb_ss_max_streams\([^()]*\)\s*==\s*(\d+)$"),
     lambda m: {"field": "max_streams", "op": "==", "value": int(m.group(1))}),
)


def parse_decision_steps(code: str, start: int, end: int, line: int, known_flags: set[str]) -> list[dict[str, Any]]:
    """An `if … else if … else` chain on device properties inside a vendor test -> ordered steps
    [{when: {field, op, value}, flags}, …, {flags}] (the last, without `when`, is the `else`)."""
    steps: list[dict[str, Any]] = []
    at = start
    while True:
        match = re.compile(r"\s*(?:else\s+)?if\s*\(").match(code, at)
        if not match:
            break
        close = cparse.matching_paren(code, match.end() - 1, UAS_DETECT)
        condition = " ".join(code[match.end():close].split())
        when = None
        for pattern, build in DEVICE_TESTS:
            found = pattern.match(condition)
            if found:
                when = build(found)
        if when is None:
            raise SourceError(UAS_DETECT, line, f"cannot read the device test `{condition}`",
                              "teach DEVICE_TESTS in scripts/uasdb/ingest/importers/kernel.py this property")
        brace = code.index("{", close)
        block_end = cparse.matching_brace(code, brace, UAS_DETECT, cparse.Lines(code))
        steps.append({"when": when, "flags": Flow(_flags_in(code[brace:block_end], known_flags, line))})
        at = block_end + 1
    otherwise = re.compile(r"\s*else\s*\{").match(code, at)
    if steps and otherwise:
        block_end = cparse.matching_brace(code, otherwise.end() - 1, UAS_DETECT, cparse.Lines(code))
        steps.append({"flags": Flow(_flags_in(code[otherwise.end():block_end], known_flags, line))})
    if steps and code[(block_end + 1) if otherwise else at:end].strip(" \t\n;{}"):
        raise SourceError(UAS_DETECT, line, "statements after the device tests", "has uas_use_uas_driver() changed upstream?")
    return steps


def _flags_in(code: str, known_flags: set[str], line: int) -> list[str]:
    flags = []
    for flag in re.findall(r"\|=\s*US_FL_([A-Z0-9_]+)", code):
        if flag not in known_flags:
            raise SourceError(UAS_DETECT, line, f"US_FL_{flag} is not defined in {USB_USUAL}")
        if flag not in flags:
            flags.append(flag)
    return flags


def parse_runtime_checks(text: str, known_flags: set[str]) -> list[dict[str, Any]]:
    """The ID tests in uas_use_uas_driver(): flags the kernel adds while probing, maybe only
    after looking at the device (MaxPower, link speed, streams, strings)."""
    code = cparse.strip_comments(text, UAS_DETECT)
    start, end = cparse.function_body(code, "uas_use_uas_driver", UAS_DETECT)
    checks = []
    for match in re.finditer(r"\bif\s*\(", code[start:end]):
        at = start + match.start()
        depth = code.count("{", start, at) - code.count("}", start, at)
        if depth != 1:  # only the function's own top-level if statements
            continue
        close = cparse.matching_paren(code, start + match.end() - 1, UAS_DETECT)
        condition = code[start + match.end():close]
        if "idVendor" not in condition:
            continue
        body_start = close + 1
        while code[body_start].isspace():
            body_start += 1
        if code[body_start] == "{":
            body_end = cparse.matching_brace(code, body_start, UAS_DETECT, cparse.Lines(code))
        else:
            body_end = code.index(";", body_start)
        body = code[body_start:body_end + 1]
        line = code.count("\n", 0, at) + 1
        vendors = re.findall(r"idVendor\s*\)\s*==\s*(0x[0-9a-fA-F]+)", condition)
        if len(vendors) != 1:
            raise SourceError(UAS_DETECT, line, "cannot read the vendor ID this test compares against")
        products = sorted({f"{int(p, 16):04x}" for p in re.findall(r"idProduct\s*\)\s*==\s*(0x[0-9a-fA-F]+)", condition)})
        flags = []
        for flag in re.findall(r"\|=\s*US_FL_([A-Z0-9_]+)", condition + body):
            if flag not in known_flags:
                raise SourceError(UAS_DETECT, line, f"US_FL_{flag} is not defined in {USB_USUAL}")
            if flag not in flags:
                flags.append(flag)
        if not flags:
            raise SourceError(UAS_DETECT, line, "a vendor test that sets no US_FL_* flag", "has uas_use_uas_driver() changed upstream?")
        decided_by = [name for token, name in (("bMaxPower", "max-power"), ("speed", "link-speed"),
                                               ("max_streams", "streams")) if token in condition + body]
        check: dict[str, Any] = {"vid": f"{int(vendors[0], 16):04x}"}
        if products:
            check["pids"] = Flow(products)
        check["flags"] = Flow(flags)
        if decided_by:
            check["decided_by"] = Flow(decided_by)
            inner = body_start + 1 if code[body_start] == "{" else body_start
            steps = parse_decision_steps(code, inner, body_end, line, known_flags)
            if steps:
                check["steps"] = steps
        strings = dict(re.findall(r'strcmp\s*\(\s*udev->(manufacturer|product)\s*,\s*"([^"]*)"\s*\)', condition))
        if strings:
            check["strings"] = dict(sorted(strings.items()))
        check["file"] = UAS_DETECT
        check["line"] = line
        checks.append(check)
    if not checks:
        raise SourceError(UAS_DETECT, code.count("\n", 0, start) + 1, "no idVendor tests found in uas_use_uas_driver()",
                          "has the runtime detection moved upstream?")
    return checks


def parse_kernel(sources: dict[str, str]) -> dict[str, Any]:
    """Everything the generated file holds, from the texts of the needed files."""
    short, release = parse_version(sources[MAKEFILE])
    catalogue = parse_flag_catalogue(sources[USB_USUAL])
    known = {f["name"] for f in catalogue}
    letters = parse_letter_table(sources[PARAMETERS], known)
    coded, mask, code_line = parse_user_quirk_code(sources[USB_C])
    check_letters_against_code(letters, coded, mask, code_line)
    letter_of = {info["flag"]: letter for letter, info in letters.items()}
    for flag in catalogue:
        if flag["name"] in letter_of:
            flag["letter"] = letter_of[flag["name"]]

    entries: list[dict[str, Any]] = []
    files: dict[str, Any] = {}
    defines: list[dict[str, Any]] = []
    includes: list[dict[str, Any]] = []
    for name in TABLES:
        found, extras = parse_table(sources[name], name, known)
        entries.extend(found)
        files[name] = extras["counts"]
        defines.extend(extras["defines"])
        includes.extend(extras["includes"])
    entries.sort(key=lambda e: (e["vid"], e["pid"], e["bcd_min"], e["bcd_max"], e["file"], e["line"]))
    return {
        "version": short,
        "release": release,
        "files": files,
        "quirk_letters": letters,
        "user_entry_replaces": Flow(sorted(mask)),
        "flags": catalogue,
        "defines": defines,
        "includes": includes,
        "runtime": parse_runtime_checks(sources[UAS_DETECT], known),
        "entries": entries,
    }


# --- the command ----------------------------------------------------------------------------------

def output_path(data_dir: Path, version: str) -> Path:
    return data_dir / "kernel" / f"linux-{version}.yaml"


def render(data: dict[str, Any], command: str, package: tuple[str, str] | None) -> str:
    what = f"Linux {data['release']}"
    ordered = {"version": data["version"], "release": data["release"]}
    if package:
        what += f" (Debian package {package[0]} {package[1]})"
        ordered["debian_package"] = {"name": package[0], "version": package[1]}
    ordered.update((k, v) for k, v in data.items() if k not in ordered)
    return header(command, what) + dump_yaml(ordered)


def run_import_kernel(path: str, data_dir: Path, check: bool = False) -> int:
    command = f"uasdb import-kernel {path}"
    try:
        data = parse_kernel(read_sources(Path(path)))
    except SourceError as error:
        print(f"{error}", file=sys.stderr)
        print("import-kernel: nothing written", file=sys.stderr)
        return 1
    text = render(data, command, debian_package(Path(path)) if Path(path).is_file() else None)
    status = write_generated(output_path(data_dir, data["version"]), text, check, command)
    if status == 0 and not check:
        counts = ", ".join(f"{name.rsplit('/', 1)[1]}: {sum(v for k, v in c.items() if k != 'usual_dev')} entries"
                           for name, c in data["files"].items())
        ids = len({(e["vid"], e["pid"]) for e in data["entries"]})
        print(f"Linux {data['release']}: {counts}; {ids} distinct USB IDs; {len(data['quirk_letters'])} quirk letters; "
              f"{len(data['runtime'])} runtime checks")
    return status
