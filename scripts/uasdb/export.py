"""Export records with their computed verdicts: the data Hugo renders and the static JSON API.

`uasdb export --out DIR` writes
  DIR/site.json             everything the templates need, in one file (Hugo reads it as hugo.Data.generated.site)
  DIR/api/v1/...            the public JSON API and adapters.csv, copied into the site as static files
What Linux, usb.ids and smartmontools already know is joined on by kernel_export.py (see docs/kernel.md).
Every JSON file of the API is wrapped as {"schema_version", "generated_at", "result"}.
The export refuses to run on data with errors, so nothing invalid or partial is published.
"""
from __future__ import annotations

import csv
import datetime
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

from .database import DATA_DIR, REPO_ROOT, check
from .kernel_export import add_reference
from .verdicts import PLATFORMS, VERDICT_TEXT, adapter_verdict, combined_quirk_line

API_SCHEMA_VERSION = 1


def _generated_at() -> str:
    # Reproducible builds: honour SOURCE_DATE_EPOCH, else the last commit touching data/, else now.
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        epoch = _git(["log", "-1", "--format=%ct", "--", "data"]) or None
    moment = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc) if epoch else datetime.datetime.now(datetime.timezone.utc)
    return moment.replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _git(args: List[str]) -> str:
    try:
        return subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _last_changes() -> Dict[str, Dict[str, str]]:
    """First and last commit date of every data file, from one `git log` call."""
    output = _git(["log", "--format=@%cs", "--name-only", "--", "data"])
    dates: Dict[str, Dict[str, str]] = {}
    current = ""
    for line in output.splitlines():
        if line.startswith("@"):
            current = line[1:]
        elif line.strip():
            entry = dates.setdefault(line.strip(), {"changed": current})
            entry["added"] = current  # log runs newest first, so the last one seen is the first commit
    return dates


def usb_key(vid: str, pid: str) -> str:
    return f"{vid}:{pid}"


def build(records) -> Dict[str, Any]:
    changes = _last_changes()
    chipsets = {r.data["id"]: r.data for r in records if r.kind == "chipset"}
    adapters: List[Dict[str, Any]] = []
    verdicts = []
    for record in sorted((r for r in records if r.kind == "adapter"), key=lambda r: r.data["id"]):
        verdict = adapter_verdict(record.data)
        verdicts.append(verdict)
        rel = str(Path(record.path).resolve().relative_to(REPO_ROOT)) if Path(record.path).resolve().is_relative_to(REPO_ROOT) else record.path
        entry = dict(record.data)
        entry["path"] = rel
        entry["changes"] = changes.get(rel, {})
        entry["verdict"] = verdict.as_dict()
        if entry.get("chipset") in chipsets:
            entry["chipset_name"] = chipsets[entry["chipset"]]["name"]
        adapters.append(entry)

    usb: Dict[str, Dict[str, Any]] = {}
    for adapter in adapters:
        for usb_id in adapter.get("usb_ids", []):
            slot = usb.setdefault(usb_key(usb_id["vid"], usb_id["pid"]), {"vid": usb_id["vid"], "pid": usb_id["pid"], "adapters": [], "chipsets": []})
            slot["adapters"].append(adapter["id"])
    for chipset in chipsets.values():
        for usb_id in chipset.get("usb_ids", []):
            slot = usb.setdefault(usb_key(usb_id["vid"], usb_id["pid"]), {"vid": usb_id["vid"], "pid": usb_id["pid"], "adapters": [], "chipsets": []})
            slot["chipsets"].append(chipset["id"])

    by_chipset: Dict[str, List[str]] = {}
    for adapter in adapters:
        if adapter.get("chipset"):
            by_chipset.setdefault(adapter["chipset"], []).append(adapter["id"])
    chipset_list = []
    for chipset_id in sorted(chipsets):
        entry = dict(chipsets[chipset_id])
        entry["adapters"] = by_chipset.get(chipset_id, [])
        chipset_list.append(entry)

    naughty = [a for a in adapters if a["verdict"]["list"] == "naughty"]
    nice = [a for a in adapters if a["verdict"]["list"] == "nice"]
    naughty_verdicts = [v for v in verdicts if v.listing == "naughty"]
    # add_reference joins what Linux, usb.ids and smartmontools already know (kernel_export.py).
    return add_reference({
        "adapters": adapters,
        "chipsets": chipset_list,
        "usb": dict(sorted(usb.items())),
        "lists": {
            "naughty": [a["id"] for a in naughty],
            "nice": [a["id"] for a in nice],
            "naughty_quirk_line": combined_quirk_line(naughty_verdicts),
        },
        "platforms": {name: {"label": spec["label"]} for name, spec in PLATFORMS.items()},
        "verdict_text": VERDICT_TEXT,
        "counts": {"adapters": len(adapters), "chipsets": len(chipset_list), "usb_ids": len(usb),
                   "reports": sum(len(a["reports"]) for a in adapters), "naughty": len(naughty), "nice": len(nice)},
    })


def _wrap(result: Any, generated_at: str) -> Dict[str, Any]:
    return {"schema_version": API_SCHEMA_VERSION, "generated_at": generated_at, "result": result}


def _write_json(path: Path, payload: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=False) + "\n", encoding="utf-8")


CSV_COLUMNS = ["id", "name", "vendor", "model", "kind", "drive_interface", "chipset", "usb_ids",
               "list", "pi4_uas", "pi4_boot", "pi5_uas", "pi3", "linux_uas", "macos_uas", "quirk_line", "reports"]


def adapters_csv(adapters: List[Dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for a in adapters:
        v = a["verdict"]
        writer.writerow([a["id"], a["name"], a.get("vendor", ""), a.get("model", ""), a["kind"], a.get("drive_interface", ""),
                         a.get("chipset", ""), " ".join(f"{u['vid']}:{u['pid']}" for u in a.get("usb_ids", [])),
                         v["list"] or "", v["uas"]["pi4"]["verdict"], v["boot"]["pi4"]["verdict"], v["uas"]["pi5"]["verdict"],
                         v["uas"]["pi3"]["verdict"], v["uas"]["linux"]["verdict"], v["uas"]["macos"]["verdict"],
                         v["quirk_line"] or "", len(a["reports"])])
    return out.getvalue()


def write(out_dir: Path, site: Dict[str, Any], generated_at: str) -> None:
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    site = dict(site, generated_at=generated_at)
    _write_json(out_dir / "site.json", site)
    api = out_dir / "static" / "api" / "v1"
    _write_json(api / "adapters.json", _wrap(site["adapters"], generated_at))
    for adapter in site["adapters"]:
        _write_json(api / "adapters" / f"{adapter['id']}.json", _wrap(adapter, generated_at))
    _write_json(api / "chipsets.json", _wrap(site["chipsets"], generated_at))
    adapters_by_id = {a["id"]: a for a in site["adapters"]}
    for key, slot in site["usb"].items():
        result = dict(slot, adapters=[{"id": i, "name": adapters_by_id[i]["name"], "verdict": adapters_by_id[i]["verdict"]}
                                      for i in slot["adapters"]])
        _write_json(api / "usb" / slot["vid"] / f"{slot['pid']}.json", _wrap(result, generated_at))
    _write_json(api / "lists.json", _wrap(site["lists"], generated_at))
    _write_json(api / "kernel.json", _wrap(site["kernel"], generated_at))
    (out_dir / "static" / "adapters.csv").write_text(adapters_csv(site["adapters"]), encoding="utf-8")


def run_export(out_dir: Path) -> int:
    result = check()
    if result.errors:
        for problem in result.errors:
            print(problem.render(), file=sys.stderr)
        print(f"export refused: {len(result.errors)} error(s) in data/ (run `uasdb validate`)", file=sys.stderr)
        return 1
    site = build(result.records)
    write(out_dir, site, _generated_at())
    counts = site["counts"]
    print(f"exported {counts['adapters']} adapters, {counts['chipsets']} chipsets, {counts['usb_ids']} USB IDs to {out_dir}")
    return 0
