"""Putting it together: probe, render, and the command line."""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import sys
import webbrowser
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from .assess import assess, summary_lines
from .bench import BenchPlan, check_bench_targets, explain_bench, run_benchmarks
from .common import (
    PROBE_VERSION,
    REPORT_END,
    REPORT_START,
    SITE_URL,
    SKELETON_END,
    SKELETON_START,
    ProbeError,
    printable,
)
from .formlink import LINK_LIMIT, form_url, report_title
from .linux import read_linux_devices, read_linux_system
from .macos import read_macos
from .output import default_data_dir, load_index, report_dict, report_text, skeleton_text
from .reportform import REPORT_FORM
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


@dataclass
class ReportLink:
    """The link that opens the report form for one adapter (and one candidate record), or the reason there is none."""
    usb_id: str
    adapter: Optional[str]          # the record the link names; None for a product not in uasdb (or no look-up)
    url: Optional[str]              # None when even the shortest box would not fit under LINK_LIMIT
    left_out: Optional[str] = None  # what the link's box leaves out, to fit
    too_long: int = 0               # the shortest full link's length, when it did not fit
    paste_url: Optional[str] = None  # without a url: the form with the USB ID and adapter only, to paste into


def _box_variants(usb_id: str, evidence: str, section: List[str], block: List[str]) -> List[Tuple[Optional[str], List[str]]]:
    """What the form's probe box can hold for one adapter, longest first, each with what it leaves out. The bot
    reads only the report block (uasdb.ingest.issue.probe_report): the candidates and the new adapter file
    (the form's own fields say which record) go first, then the summary, which the block repeats in evidence.probe.
    The block itself is never cut."""
    head = [f"# uasdb probe {PROBE_VERSION}: the report for {usb_id}, filled in by the probe's link", "#"]
    summary = ["# " + line for line in evidence.splitlines()] + ["#"]
    variants: List[Tuple[Optional[str], List[str]]] = [(None, head + summary + section)]
    if section != block:
        variants.append(("the list of records and the new adapter file", head + summary + block))
    variants.append(("the summary (the report repeats it under evidence.probe)", head[:1] + block))
    return variants


def report_links(usb_id: str, known: Optional[List[str]], evidence: str, section: List[str],
                 block: List[str]) -> List[ReportLink]:
    """One link per record the adapter may be (each named in the form's `adapter` field), plus one for a product
    not in uasdb when several share the ID; a single link without `adapter` when the ID is new or not looked up."""
    adapters: List[Optional[str]] = list(known or []) or [None]
    if len(adapters) > 1:
        adapters.append(None)
    links = []
    for adapter in adapters:
        fixed = {"title": report_title(f"{adapter} ({usb_id})" if adapter else usb_id), "usb_id": usb_id,
                 "adapter": adapter}
        shortest = 0
        for left_out, lines in _box_variants(usb_id, evidence, section, block):
            url = form_url({**fixed, "probe": printable("\n".join(lines), lines=True)})
            shortest = len(url)
            if shortest <= LINK_LIMIT:
                links.append(ReportLink(usb_id, adapter, url, left_out))
                break
        else:
            links.append(ReportLink(usb_id, adapter, None, too_long=shortest, paste_url=form_url(fixed)))
    return links


def render_links(links: List[ReportLink]) -> List[str]:
    """The links, each alone on its line so a terminal can open it, under a line saying which adapter it is for."""
    out = ["#", "# ---- report links: open the one for your adapter ----"]
    field = REPORT_FORM["fields"]["probe"]
    for usb_id in dict.fromkeys(link.usb_id for link in links):
        mine = [link for link in links if link.usb_id == usb_id]
        if len(mine) > 1:
            out.append(f"# {usb_id} is in several uasdb records: open the link of the one that is your product.")
        explained = False
        for link in mine:
            what = f"{usb_id} as {link.adapter}" if link.adapter else (
                f"{usb_id} as a product not in uasdb yet" if len(mine) > 1 else usb_id)
            if link.url is None:
                if not explained:
                    out.append(f"# The report for {usb_id} is too long for a link ({link.too_long:,} characters; GitHub "
                               f"refuses addresses over {LINK_LIMIT:,}), so paste it:")
                    out.append(f"# the link below fills in the USB ID (and the record it names); paste the report above, from "
                               f"`{REPORT_START.format(usb_id=usb_id)}` to `{REPORT_END}`, into its \"{field}\" box.")
                    explained = True
                out.append(f"# {what} (paste the report into it):")
                out.append(link.paste_url or "")
                continue
            out.append(f"# {what}" + (f" (left out of the link, as the form does not need it: {link.left_out}):"
                                      if link.left_out else ":"))
            out.append(link.url)
    return out


def render(result: ProbeResult, handle: Optional[str], today: datetime.date, index: Optional[Dict[str, List[str]]],
           site_url: str, throughput: Optional[Dict[str, List[Dict[str, Any]]]] = None) -> str:
    return render_with_links(result, handle, today, index, site_url, throughput)[0]


def render_with_links(result: ProbeResult, handle: Optional[str], today: datetime.date,
                      index: Optional[Dict[str, List[str]]], site_url: str,
                      throughput: Optional[Dict[str, List[Dict[str, Any]]]] = None) -> Tuple[str, List[ReportLink]]:
    """The whole output: summary as comments, then one report block per device (and a new-file
    skeleton for IDs the database does not know), then a link per adapter that opens the report form filled in."""
    evidence = "\n".join(summary_lines(result.system, result.devices, result.notes))
    out = [f"# uasdb probe {PROBE_VERSION}: open the link below for your adapter. It opens the adapter report form on GitHub",
           "# with this report filled in; answer what the probe cannot know (what happened, how you tested), then submit.",
           "# No browser here? Copy the link to a computer that has one: the link holds the whole report.",
           "#"]
    out += ["# " + line for line in evidence.splitlines()]
    links: List[ReportLink] = []
    for device in result.devices:
        finding = assess(device, result.system)
        report = report_dict(device, result.system, finding, handle, today, evidence,
                             (throughput or {}).get(device.usb_id, []))
        lines = report_text(report, finding.comments)
        known = (index or {}).get(device.usb_id, [])
        section: List[str] = []
        if known:
            for adapter_id in known:
                section.append(f"# {device.usb_id} is in uasdb: {adapter_id} ({site_url.rstrip('/')}/adapters/{adapter_id}/)")
            section.append("# Several products can share one USB ID: add the report to the record that is your product.")
        elif index is not None:
            section.append(f"# {device.usb_id} is not in the database yet: a new adapter file follows the report.")
        block = [REPORT_START.format(usb_id=device.usb_id), *lines, REPORT_END]
        section.extend(block)
        if index is not None and not known:
            record_id, skeleton = skeleton_text(device, lines)
            section.append(SKELETON_START.format(id=record_id))
            section.extend(skeleton)
            section.append(SKELETON_END)
        out.append("#")
        out.extend(section)
        links.extend(report_links(device.usb_id, known if index is not None else None, evidence, section, block))
    out.extend(render_links(links))
    return "\n".join(out) + "\n", links


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
    parser.add_argument("--open", action="store_true", help="also open the report link in this desktop's web browser "
                        "(without a desktop, open the printed link on a computer that has one)")
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
    text, links = render_with_links(result, args.handle, today, index, args.site_url, throughput)
    sys.stdout.write(printable(text, lines=True))
    if args.open:
        sys.stdout.flush()
        open_links(links)
    return 0


def has_desktop() -> bool:
    """Whether a graphical browser can open here: macOS and Windows always; elsewhere only with an X11 or Wayland
    display (over SSH to a Pi without a desktop, webbrowser would start a text browser in the terminal instead)."""
    if sys.platform == "darwin" or os.name == "nt":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def open_links(links: List[ReportLink]) -> None:
    """--open: each adapter's link in the browser, when it has exactly one (with several records to choose from, or
    a report too long for a link, the person picks from the printed lines)."""
    if not has_desktop():
        _say("probe: --open: no desktop here (no DISPLAY or WAYLAND_DISPLAY); open the link printed above on a "
             "computer with a web browser.")
        return
    for usb_id in dict.fromkeys(link.usb_id for link in links):
        mine = [link for link in links if link.usb_id == usb_id]
        if len(mine) != 1 or mine[0].url is None:
            why = "several records share the ID" if len(mine) > 1 else "the report is too long for a link"
            _say(f"probe: --open: not opening a link for {usb_id}: {why}; see the lines above.")
            continue
        if not webbrowser.open(mine[0].url):
            _say(f"probe: --open: no web browser could be started; open the link for {usb_id} printed above.")


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
