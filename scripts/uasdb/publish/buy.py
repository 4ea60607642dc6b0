"""The what-to-buy page's model (/api/v1/buy/<slug>.json): the platform's ranking as export.buy_rankings made it,
the other platforms' pages, and the page's filters (publish/facets.py): what sort of product (the schema's `kind`),
which drive it takes (`drive_interface`) and, on a Pi, whether it boots. Every row of the page's three tables
(`products`, `avoid`, `expected`) carries the values it matches in `facets`; `facets` lists the filters."""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from ..records.vocabulary import DRIVE_INTERFACE_TITLES, KIND_TITLES
from .facets import Spec, capitalised, facets

SECTIONS = ("products", "avoid", "expected")
KINDS = capitalised(KIND_TITLES)
# An enclosure that takes either M.2 drive is offered to people with either drive.
DRIVE_VALUES = {"nvme-sata": ["nvme", "m2-sata"]}
DRIVES = dict({v: t for v, t in DRIVE_INTERFACE_TITLES.items() if v not in DRIVE_VALUES}, **{"not-stated": "Not stated"})
# The boot verdict on this Pi, in the words of its badge, coarse enough for a buyer's question: does it boot?
BOOTS = {"yes": "Boots", "likely": "Likely boots (unverified reports)", "workaround": "Boots with a workaround",
         "no": "Does not boot, or only sometimes", "disputed": "Boot reports disagree",
         "fixed": "A boot failure, fixed since", "untested": "No boot report"}


def boots(boot: Optional[Mapping[str, Any]]) -> str:
    """The BOOTS choice a row's boot verdict falls under (no verdict: an untested or expected product)."""
    boot = boot or {}
    verdict = boot.get("verdict", "untested")
    if verdict == "works":
        return "yes" if boot["confidence"] == "confirmed" else "likely"
    return {"works-with-workaround": "workaround", "fails": "no", "intermittent": "no", "mixed": "disputed",
            "fixed": "fixed"}.get(verdict, "untested")


def row_facets(row: Mapping[str, Any], adapter: Mapping[str, Any], pi: bool) -> Dict[str, List[str]]:
    drive = adapter.get("drive_interface") or "not-stated"
    values = {"kind": [adapter["kind"]], "drive": DRIVE_VALUES.get(drive, [drive])}
    if pi:
        values["boots"] = [boots(row.get("boot"))]
    return values


def specs(buy: Mapping[str, Any]) -> List[Spec]:
    offered: List[Spec] = [("kind", "Kind", KINDS), ("drive", "Drive", DRIVES)]
    if buy["pi"]:
        offered.append(("boots", f"Boots {buy['short']}", BOOTS))
    return offered


def model(buy: Mapping[str, Any], catalog: Mapping[str, Any], adapters: Mapping[str, Mapping[str, Any]]) -> Dict[str, Any]:
    sections = {name: [dict(row, facets=row_facets(row, adapters[row["id"]], buy["pi"])) for row in buy[name]]
                for name in SECTIONS}
    others = [{"slug": o["slug"], "short": o["short"]} for name in catalog["buy_order"]
              for o in [catalog["buy"][name]] if o["slug"] != buy["slug"]]
    rows = [row["facets"] for name in SECTIONS for row in sections[name]]
    return dict(buy, **sections, others=others, facets=facets(rows, specs(buy)))
