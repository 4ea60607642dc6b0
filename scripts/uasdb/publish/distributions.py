"""What distributions already set: joins data/distributions/ into the export.

  distributions                  every distribution quirk list as recorded
  usb[<vid:pid>].distributions   the distributions that ship an entry for that ID (name, flags, url, change, sentence)
  adapters[].distributions       the same, for each of the adapter's IDs
The check page and the quirk builder print `sentence` as it is; they decide nothing themselves.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

# GitHub change URLs the distribution files cite, and how a sentence names them.
_CHANGE_PATTERNS = [
    (re.compile(r"^https://github\.com/[^/]+/[^/]+/pull/(\d+)"), "PR #{}"),
    (re.compile(r"^https://github\.com/[^/]+/[^/]+/issues/(\d+)"), "issue #{}"),
    (re.compile(r"^https://github\.com/[^/]+/[^/]+/commit/([0-9a-f]{7})"), "commit {}"),
]


def change_label(url: str) -> str:
    """'PR #1864' for a pull request URL, 'commit f58c959' for a commit; 'the change' for anything else."""
    for pattern, label in _CHANGE_PATTERNS:
        match = pattern.match(url)
        if match:
            return label.format(match.group(1))
    return "the change"


def _host_words(hosts: list[str], host_labels: dict[str, str]) -> str:
    labels = [host_labels.get(h, h) for h in hosts]
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def distribution_facts(distributions: list[dict[str, Any]], host_labels: dict[str, str]) -> dict[str, list[dict[str, Any]]]:
    """usb id -> what each distribution ships for it, with the sentence the pages print."""
    by_id: dict[str, list[dict[str, Any]]] = {}
    for dist in sorted(distributions, key=lambda d: d["name"]):
        where = _host_words(dist["hosts"], host_labels)
        for entry in dist["entries"]:
            usb_id = f"{entry['vid']}:{entry['pid']}"
            line = f"{usb_id}:{entry['flags']}"
            by_id.setdefault(usb_id, []).append({
                "id": dist["id"], "name": dist["name"], "flags": entry["flags"], "entry": line,
                "url": entry["added_in"], "added_on": entry["added_on"], "file": dist["file"], "hosts": dist["hosts"],
                "reason": entry["reason"], "change": change_label(entry["added_in"]),
                "sentence": f"{dist['name']} already sets {line} on its {where} images (since {entry['added_on']}).",
            })
    return by_id


def with_distributions(site: Mapping[str, Any], distributions: list[dict[str, Any]],
                       facts: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """The catalog with the distributions and what each ships for an ID (`facts`, distribution_facts): on each
    USB slot and adapter, and whole under `distribution_ids`; every ID in `facts` has its USB slot already
    (export.build makes them)."""
    usb = {key: dict(slot, distributions=facts.get(f"{slot['vid']}:{slot['pid']}", [])) for key, slot in site["usb"].items()}
    adapters = [dict(adapter, distributions=adapter_distributions(adapter, facts)) for adapter in site["adapters"]]
    return dict(site, distributions=sorted(distributions, key=lambda d: d["id"]), usb=usb, adapters=adapters,
                distribution_ids=facts, counts=dict(site.get("counts", {}), distributions=len(distributions)))


def adapter_distributions(adapter: Mapping[str, Any], facts: Mapping[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """What distributions ship for each of the adapter's IDs (`facts`, distribution_facts), each with its ID."""
    return [dict(d, usb_id=f"{u['vid']}:{u['pid']}") for u in adapter.get("usb_ids", [])
            for d in facts.get(f"{u['vid']}:{u['pid']}", [])]
