"""Putting it together: probe, render, and the command line."""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional

from .assess import assess, summary_lines
from .bench import BenchPlan, check_bench_targets, explain_bench, run_benchmarks
from .common import (
    ISSUE_URL,
    PROBE_VERSION,
    REPORT_END,
    REPORT_START,
    SITE_URL,
    SKELETON_END,
    SKELETON_START,
    ProbeError,
    printable,
)
from .linux import read_linux_devices, read_linux_system
from .macos import read_macos
from .output import default_data_dir, load_index, report_dict, report_text, skeleton_text
from .system import COMMANDS, Device, Env, System


@dataclass
class ProbeResult:
    system: System
    devices: List[Device]
    notes: List[str]

    def as_json(self) -> Dict[str, Any]:
        system = dict(vars(self.system))
        if system.get("dmesg"):
            system["dmesg"] = {"events": system["dmesg"]["events"], "devices": system["dmesg"]["devices"]}
        return {"probe_version": PROBE_VERSION, "system": system,
                "devices": [dict(vars(d), usb_id=d.usb_id, driver=d.driver,
                                 interfaces=[vars(i) for i in d.interfaces]) for d in self.devices],
                "notes": self.notes}


def probe(env: Env, os_kind: Optional[str] = None) -> ProbeResult:
    kind = os_kind or ("macos" if sys.platform == "darwin" else "linux" if sys.platform.startswith("linux") else sys.platform)
    if kind == "macos":
        system, devices = read_macos(env)
    elif kind == "linux":
        devices = read_linux_devices(env)
        system = read_linux_system(env)
    else:
        raise ProbeError(f"the probe reads Linux sysfs or macOS ioreg; this is {platform.system() or kind}. "
                         "Open the adapter-report issue form and fill it in by hand instead.")
    return ProbeResult(system, devices, env.notes)


def render(result: ProbeResult, handle: Optional[str], today: datetime.date, index: Optional[Dict[str, List[str]]],
           site_url: str, throughput: Optional[Dict[str, List[Dict[str, Any]]]] = None) -> str:
    """The whole output: summary as comments, then one report block per device (and a new-file
    skeleton for IDs the database does not know)."""
    evidence = "\n".join(summary_lines(result.system, result.devices, result.notes))
    out = [f"# uasdb probe {PROBE_VERSION}: paste everything below into the adapter report form,",
           f"# {ISSUE_URL}",
           "#"]
    out += ["# " + line for line in evidence.splitlines()]
    for device in result.devices:
        finding = assess(device, result.system)
        report = report_dict(device, result.system, finding, handle, today, evidence,
                             (throughput or {}).get(device.usb_id, []))
        lines = report_text(report, finding.comments)
        known = (index or {}).get(device.usb_id, [])
        out.append("#")
        if known:
            for adapter_id in known:
                out.append(f"# {device.usb_id} is in uasdb: {adapter_id} ({site_url.rstrip('/')}/adapters/{adapter_id}/)")
            out.append("# Several products can share one USB ID: add the report to the record that is your product.")
        elif index is not None:
            out.append(f"# {device.usb_id} is not in the database yet: a new adapter file follows the report.")
        out.append(REPORT_START.format(usb_id=device.usb_id))
        out.extend(lines)
        out.append(REPORT_END)
        if index is not None and not known:
            record_id, skeleton = skeleton_text(device, lines)
            out.append(SKELETON_START.format(id=record_id))
            out.extend(skeleton)
            out.append(SKELETON_END)
    return "\n".join(out) + "\n"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="probe", description="Describe this computer's USB storage adapters as a uasdb report (read-only by default).")
    parser.add_argument("--handle", help="your GitHub handle, for `source: {tested_by: ...}`")
    parser.add_argument("--root", default="/", metavar="DIR", help="read sysfs and /proc under DIR instead of / (for tests)")
    parser.add_argument("--captured", metavar="DIR", help="replay command output from DIR/<name>.txt instead of running "
                        f"commands ({', '.join(sorted(COMMANDS))})")
    parser.add_argument("--os", choices=("linux", "macos"), help="read as this system (default: the running one)")
    parser.add_argument("--data", metavar="DIR", help="the repository's data/ folder, to look the adapter up (default: the "
                        "checkout this file is in, if any)")
    parser.add_argument("--api", metavar="FILE", help="a saved copy of the site's api/v1/adapters.json, to look the adapter up")
    parser.add_argument("--site-url", default=SITE_URL, help=argparse.SUPPRESS)
    parser.add_argument("--date", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print the facts as JSON instead of a report")
    bench = parser.add_argument_group("benchmarks (off unless asked for)")
    bench.add_argument("--bench-read", metavar="DEVICE", help="time reads from this block device, e.g. /dev/sda (read-only)")
    bench.add_argument("--bench-write", metavar="DIR", help="time writes to a temporary file in this folder on the mounted drive")
    bench.add_argument("--bench-size", type=int, default=512, metavar="MiB", help="how much to read or write (default 512)")
    bench.add_argument("--bench-seconds", type=float, default=10.0, metavar="S", help="length of each random 4K test (default 10)")
    bench.add_argument("--yes", action="store_true", help="do not ask before benchmarking")
    parser.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)
    return parser


def _confirm(lines: List[str], assume_yes: bool) -> bool:
    for line in lines:
        _say(line)
    if assume_yes:
        return True
    if not sys.stdin.isatty():
        print("not running the benchmarks: no terminal to confirm on (add --yes)", file=sys.stderr)
        return False
    answer = input("Run them? [y/N] ").strip().lower()
    return answer in ("y", "yes")


def _say(message: str) -> None:
    """A message on stderr: paths, notes and errors can quote what a device or a file said."""
    print(printable(message), file=sys.stderr)


def main(argv: Optional[List[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _main(args)
    except ProbeError as exc:
        _say(f"probe: {exc}")
        return 2
    except KeyboardInterrupt:
        _say("probe: interrupted")
        return 130
    except Exception as exc:  # never a traceback for a user; --debug shows it
        if args.debug:
            raise
        _say(f"probe: unexpected {type(exc).__name__}: {exc}. Nothing was changed. Please report this with the "
             "output of `python3 probe.py --debug`.")
        return 3


def _main(args: argparse.Namespace) -> int:
    if args.handle and not re.fullmatch(r"[A-Za-z0-9-]{1,39}", args.handle):
        raise ProbeError(f"--handle {args.handle!r} is not a GitHub handle (letters, digits, hyphens)")
    root = Path(args.root)
    if not root.is_dir():
        raise ProbeError(f"--root {args.root} is not a directory")
    live = root.resolve() == Path("/")
    env = Env(root=root, live=live, captured=Path(args.captured) if args.captured else None)
    today = datetime.date.fromisoformat(args.date) if args.date else datetime.date.today()
    result = probe(env, args.os)
    if args.json:  # JSON escapes every control character but DEL
        print(json.dumps(result.as_json(), indent=2, default=str).replace("\x7f", "\\u007f"))
        return 0 if result.devices else 1
    if not result.devices:
        message = "no USB storage device found"
        if result.system.os_kind == "linux":
            message += " in sysfs (no interface of class 08). Is the adapter plugged in and powered? `lsusb` should list it"
        _say(f"probe: {message}.")
        for note in result.notes:
            _say(f"probe: note: {note}")
        return 1
    data_dir = Path(args.data) if args.data else default_data_dir()
    if data_dir is not None and not (data_dir / "adapters").is_dir():
        raise ProbeError(f"--data {data_dir}: no adapters/ folder inside (give the repository's data/ folder)")
    index = load_index(data_dir, Path(args.api) if args.api else None)
    throughput: Dict[str, List[Dict[str, Any]]] = {}
    if args.bench_read or args.bench_write:
        plan = BenchPlan(args.bench_read, args.bench_write, args.bench_size, args.bench_seconds)
        check_bench_targets(plan)
        if _confirm(explain_bench(plan), args.yes):
            target = _device_for_bench(result.devices, args.bench_read)
            throughput[target.usb_id] = run_benchmarks(plan, progress_enabled=sys.stderr.isatty())
    # Every value that came from a device or a file is escaped where it was read; this pass catches anything else.
    sys.stdout.write(printable(render(result, args.handle, today, index, args.site_url, throughput), lines=True))
    return 0


def _device_for_bench(devices: List[Device], block_path: Optional[str]) -> Device:
    """The adapter whose disk is being benchmarked (the only one, or the one owning /dev/sdX)."""
    if block_path:
        name = os.path.basename(os.path.realpath(block_path))
        for device in devices:
            if name in device.block_devices:
                return device
    if len(devices) == 1:
        return devices[0]
    raise ProbeError("several USB storage devices are attached; name the disk with --bench-read so the figures "
                     "go to the right adapter, or unplug the others")
