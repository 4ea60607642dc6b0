"""The home page's model (/api/v1/home.json), which the Atom feed is made from too: the best picks of each
what-to-buy page, the newest reports, the counts and the most recently changed adapters."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..records.vocabulary import HOST_TITLES


def latest_reports(adapters: Sequence[Mapping[str, Any]], count: int = 6) -> list[dict[str, Any]]:
    """The newest dated reports across the database, for the home page."""
    dated = [(r["date"], a, n, r) for a in adapters for n, r in enumerate(a.get("reports", []), start=1) if r.get("date")]
    dated.sort(key=lambda t: (t[0], t[1]["id"], t[2]), reverse=True)
    return [{"date": d, "adapter": a["id"], "name": a["name"], "report": n, "host": r.get("host"),
             "host_label": HOST_TITLES.get(r.get("host"), "host not stated"), "source_title": r.get("source", {}).get("title")}
            for d, a, n, r in dated[:count]]


def home(catalog: Mapping[str, Any]) -> dict[str, Any]:
    """The home page and the Atom feed: best picks (recommended products only), the latest reports, the counts,
    and the 50 most recently changed adapters."""
    picks = [{"platform": name, "label": b["label"], "slug": b["slug"], "pi": b["pi"], "counts": b["counts"],
              "top": [{"id": p["id"], "vendor": p["vendor"], "model": p["model"], "basis_text": p["uas"]["basis_text"]}
                      for p in b["top"]]}
             for name in catalog["buy_order"] for b in [catalog["buy"][name]]]
    # Newest change first; on the same day, in id order (the catalog's).
    dated = sorted((a for a in catalog["adapters"] if a["changes"].get("changed")),
                   key=lambda a: a["changes"]["changed"], reverse=True)[:50]
    feed = [{"id": a["id"], "name": a["name"], "summary": a["summary"], "changed": a["changes"]["changed"],
             "added": a["changes"].get("added")} for a in dated]
    return {"picks": picks, "latest_reports": catalog["latest_reports"], "counts": catalog["counts"], "feed": feed}
