"""One answer per product × platform and per USB ID × platform: what every surface says, decided here once.

An answer joins the engine's verdict and grade (engine.py) with what to do on that platform, in words:
  quirk        reports on this platform needed the line: it is offered, with its platform and count
  quirk-applied reports on this platform used the line without showing the failure it fixes
  not-needed   UAS works here without a quirk; another platform's line is named with where it came from, never offered
  tried        reports on this platform ran on usb-storage (what the `u` quirk does) and still failed
  nothing      UAS works here and no report anywhere needed a line
  no-fix       broken or disputed here, and no report here names a line that fixes it
  no-uas       the adapter (or this Pi) has no UAS: usb-storage is all there is
  untested     no verdict here: the expectation from related products (expectations.py), labelled, never counted
A line is offered (`line`, which a page may show with a Copy button) only for the platform whose reports needed it.
Product pages, /usb/<id>/, /check/, the lists, /quirks/, /buy/, chip pages, the CSV and the API print these
fields; the parity test (tests/test_answer_parity.py) walks every surface's file and checks they agree.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from .engine import ICON, LIST_PLATFORMS, PLATFORMS, effective_driver, has_trouble, plural

QUIRK_PREFIX = "usb-storage.quirks="


def _join(words: Sequence[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _label(platform: str) -> str:
    return PLATFORMS[platform]["label"]


def _on(platform: str) -> str:
    """"on a Raspberry Pi 4", "on a Linux PC", "on macOS"."""
    label = _label(platform)
    return f"on {label}" if PLATFORMS[platform]["linux"] is False and not PLATFORMS[platform]["pi"] else f"on a {label}"


def _here(platform: str) -> str:
    return "on this Pi" if PLATFORMS[platform]["pi"] else f"on {'a ' if PLATFORMS[platform]['linux'] else ''}{_label(platform)}"


def tried_without_help(record: Mapping[str, Any], platform: str) -> list[int]:
    """Reports (0-based) on `platform` that ran the adapter on usb-storage — with a quirk they name, or on the
    usb-storage driver on a host that has UAS — and still failed (stated broken, or errors or disconnects), not
    blamed on something else: the quirk was tried there and did not help."""
    spec = PLATFORMS[platform]
    if spec.get("no_uas_host") or not spec["linux"]:
        return []
    out = []
    for index, report in enumerate(record.get("reports", [])):
        if report.get("host") not in spec["hosts"] or report.get("blamed_on") not in (None, "adapter", "unknown"):
            continue
        on_usb_storage = "u" in (report.get("quirks") or "") or effective_driver(report) == "usb-storage"
        stated = report.get("uas")
        # A stated outcome decides (works-with-quirk: the trouble it lists was before the quirk); else the output.
        if on_usb_storage and (stated == "broken" or (stated is None and has_trouble(report))):
            out.append(index)
    return out


def _shipped(distributions: Sequence[Mapping[str, Any]], platform: str) -> list[dict[str, str]]:
    """The distributions whose images for this platform's hosts already set an entry (each once per entry)."""
    hosts = set(PLATFORMS[platform]["hosts"])
    return [{"name": d["name"], "entry": d["entry"]}
            for d in distributions if hosts & set(d.get("hosts") or [])]


def _shipped_text(shipped: Sequence[Mapping[str, str]]) -> str | None:
    if not shipped:
        return None
    entries = list(dict.fromkeys(d["entry"] for d in shipped))
    names = list(dict.fromkeys(d["name"] for d in shipped))
    return (f"{plural(len(names), 'distribution')} ship{'s' if len(names) == 1 else ''} {_join(entries)} "
            f"for it ({', '.join(names)})")


def _preserving(entries: Iterable[str], kernel: Mapping[str, Any] | None) -> list[str]:
    """Each entry as the line offers it: rewritten to keep the flags Linux sets for the ID by itself."""
    rewritten = {e["entry"]: e["preserving"] for e in (kernel or {}).get("quirk_entries", [])}
    return [rewritten.get(e, e) for e in entries]


def _linux(kernel: Mapping[str, Any] | None) -> str:
    return f"Linux {kernel['version']}" if kernel and kernel.get("version") else "Linux"


def _where_on(adapter: Mapping[str, Any], source: Mapping[str, Any], platform: str) -> str:
    """Where an entry came from on one platform: "Raspberry Pi 4, kernel 6.12.62-v8, 1 report" (a source's own
    `where` counts every platform's reports)."""
    reports = adapter.get("reports", [])
    mine = [n for n in source["reports"] if reports[n].get("host") in PLATFORMS[platform]["hosts"]]
    kernels = sorted({reports[n]["kernel"] for n in mine if reports[n].get("kernel")})
    return _label(platform) + (f", kernel {', '.join(kernels)}" if kernels else "") + f", {plural(len(mine), 'report')}"


def _sentence(platform: str, badge: str, text: str) -> str:
    return f"{PLATFORMS[platform]['label'].replace('Raspberry ', '')}: {badge}. {text}"


def product_answer(adapter: Mapping[str, Any], verdict: Any, platform: str,
                   shipped: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The answer for one product on one platform (the module docstring lists the kinds)."""
    pv = verdict.uas[platform]
    here = [s for s in verdict.quirk_sources if platform in s["platforms"]]
    elsewhere = [s for s in verdict.quirk_sources if platform not in s["platforms"]]
    tried = tried_without_help(adapter, platform)
    ships = _shipped(shipped, platform)
    strong = pv.confidence in ("confirmed", "disputed")
    elsewhere_text = "; ".join(f"{s['entry']} is what reports elsewhere needed ({s['where']})" for s in elsewhere)
    if not PLATFORMS[platform]["linux"] or PLATFORMS[platform].get("no_uas_host"):
        elsewhere = []  # a usb-storage.quirks line means nothing on macOS, Windows or a Pi with no UAS
    parts: list[str] = []
    line = None
    kind: str
    if here and strong:
        entries = [s["entry"] for s in here]
        where = "; ".join(f"{s['entry']}: {_where_on(adapter, s, platform)}" for s in here)
        line = QUIRK_PREFIX + ",".join(_preserving(entries, adapter.get("kernel")))
        keeps = line != QUIRK_PREFIX + ",".join(entries)
        if pv.verdict == "works-with-quirk" and pv.grade == "failure-not-shown":
            kind = "quirk-applied"
            parts.append(f"Reports {_here(platform)} ran it with this line ({where}); none shows it fail without it.")
        elif pv.verdict == "works-with-quirk":
            kind = "quirk"
            parts.append(f"Add this line: reports {_here(platform)} needed it ({where}).")
        else:
            kind = "quirk"
            parts.append(f"Reports {_here(platform)} disagree; those that needed a quirk used this line ({where}).")
    elif pv.verdict == "works" and pv.confidence == "confirmed":
        if elsewhere:
            kind = "not-needed"
            parts.append(f"Not needed {_here(platform)}: UAS works here without a quirk; {elsewhere_text}.")
        else:
            kind = "nothing"
            parts.append(f"Nothing to add: UAS works {_here(platform)} without a quirk.")
    elif pv.verdict in ("no-uas", "host-no-uas") and strong:
        kind = "no-uas"
        parts.append("Nothing to add: this Pi has no UAS, so usb-storage is all it uses." if pv.verdict == "host-no-uas"
                     else "Nothing to add: the adapter has no UAS, so it runs on usb-storage.")
    elif pv.verdict == "fixed":
        kind = "nothing"
        fixes = ", ".join(f"{f['component']} {f['version']}" for f in pv.fixed)
        parts.append(f"Nothing to add with a current release: the failure reported {_here(platform)} was fixed in {fixes}.")
    elif pv.verdict == "untested" or pv.confidence == "likely":
        kind = "untested"
        parts.append(f"No verdict {_here(platform)} yet" + (" (only unverified reports)." if pv.confidence == "likely" else "."))
        if elsewhere:
            parts.append(f"No report {_here(platform)} shows whether a quirk is needed here; {elsewhere_text}.")
    else:
        kind = "no-fix"
        if not tried:
            parts.append(f"No report {_here(platform)} names a line that fixes it." if not elsewhere else
                         f"No report {_here(platform)} shows whether a quirk helps; {elsewhere_text}.")
    if line and keeps:
        parts.append(f"The line keeps the flags {_linux(adapter.get('kernel'))} sets for this ID by itself, which a "
                     "usb-storage.quirks entry would otherwise replace.")
    if tried:
        if kind == "no-fix":
            kind = "tried"
        parts.append(f"The quirk was tried {_here(platform)} and did not help ({plural(len(tried), 'report')}: on "
                     "usb-storage it still failed).")
    ship_text = _shipped_text(ships)
    if ship_text and kind not in ("nothing", "no-uas"):
        parts.append(ship_text[0].upper() + ship_text[1:] + ".")
    text = " ".join(parts)
    expected = None
    if kind == "untested":
        expected = ((adapter.get("expected") or {}).get("uas") or {}).get(platform)
        if expected and expected.get("state") == "none":
            expected = None
        if expected:
            text += f" {expected['short']}, from related products (an expectation, never counted)."
    return {
        "platform": platform, "label": _label(platform),
        "verdict": pv.verdict, "grade": pv.grade, "short": pv.short, "tone": pv.tone, "icon": ICON[pv.tone],
        "confidence": pv.confidence, "basis_text": pv.basis_text,
        "do": kind, "text": text, "line": line,
        "entries": [s["entry"] for s in here] if line else [],
        "where": "; ".join(_where_on(adapter, s, platform) for s in here) if line else None,
        "elsewhere": [{"entry": s["entry"], "where": s["where"], "platforms": s["platforms"]} for s in elsewhere],
        "tried": [n + 1 for n in tried],
        "shipped": ships,
        "expected": expected["short"] if expected else None,  # the whole expectation is the adapter's `expected`
        "sentence": _sentence(platform, pv.short, text),
    }


def product_answers(adapter: Mapping[str, Any], verdict: Any,
                    distributions_by_id: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, dict[str, Any]]:
    shipped = [d for u in adapter.get("usb_ids", []) for d in distributions_by_id.get(f"{u['vid']}:{u['pid']}", [])]
    return {name: product_answer(adapter, verdict, name, shipped) for name in PLATFORMS}


def summary(answers: Mapping[str, Mapping[str, Any]]) -> str:
    """The product's answer per Pi first, then other tested platforms: a page's opening sentence and its preview."""
    pis = [answers[p] for p in LIST_PLATFORMS]
    rest = [a for name, a in answers.items() if name not in LIST_PLATFORMS and a["verdict"] not in ("untested",)
            and not PLATFORMS[name].get("no_uas_host")]
    parts = []
    for a in pis:
        parts.append(_pi_phrase(a))
    for a in rest:
        parts.append(f"{a['label']}: {a['short']}")
    return "; ".join(parts) + "."


def _pi_phrase(a: Mapping[str, Any]) -> str:
    label = a["label"].replace("Raspberry ", "")
    if a["do"] == "untested":
        return f"{label}: no verdict yet" + (f" ({a['expected'].lower()}, from related products)" if a["expected"] else "")
    tail = {"quirk": f", needs {', '.join(a['entries'])}", "quirk-applied": f", with {', '.join(a['entries'])}",
            "not-needed": ", no quirk needed", "nothing": ", no quirk needed",
            "tried": ", the quirk did not help"}.get(a["do"], "")
    return f"{label}: {a['short']}{tail}"


def id_answer(key: str, products: Sequence[Mapping[str, Any]], id_verdict: Mapping[str, Any], platform: str,
              shipped: Sequence[Mapping[str, Any]], expected: Mapping[str, Any] | None) -> dict[str, Any]:
    """The answer for a USB ID on one platform: each product's answer for it (only its entries for this ID) and,
    when they differ, both sides in one text. `products` are adapters with `answers` and `usb_ids`."""
    state = (id_verdict.get(platform) or {}).get("verdict", "untested")
    rows = []
    for adapter in products:
        a = adapter["answers"][platform]
        if a["verdict"] == "untested" and not a["elsewhere"]:
            continue
        mine = [e for e in a["entries"] if e.startswith(f"{key}:")]
        bcd = next((u.get("bcd_device") for u in adapter.get("usb_ids", []) if f"{u['vid']}:{u['pid']}" == key), None)
        rows.append({"id": adapter["id"], "name": adapter["name"], "verdict": a["verdict"], "grade": a["grade"],
                     "short": a["short"], "tone": a["tone"], "icon": a["icon"], "basis_text": a["basis_text"],
                     "do": a["do"], "text": a["text"], "line": _only(a["line"], key) if mine else None, "entries": mine,
                     "where": a["where"] if mine else None,
                     "elsewhere": [e for e in a["elsewhere"] if e["entry"].startswith(f"{key}:")],
                     "tried": a["tried"], "bcd_device": bcd})
    tested = [r for r in rows if r["verdict"] != "untested"]
    ships = _shipped(shipped, platform)
    if tested:
        worst = max(tested, key=lambda r: _RANK.get(r["verdict"], 0) * 10 + (r["grade"] is not None))
        short, tone, icon = ((worst["short"], worst["tone"], worst["icon"]) if state != "depends"
                             else ("Depends on the product", "warn", "!"))
    else:
        short, tone, icon = "Untested", "none", "?"
    needed = [r for r in tested if r["entries"]]
    entries = sorted({e for r in needed for e in r["entries"]})
    line = None
    if entries:
        flags = sorted({f for r in needed for entry in _preserving_of(r) for f in entry.split(":")[2]})
        line = f"{QUIRK_PREFIX}{key}:{''.join(flags)}"
    sides = [f"{r['name']}: {r['short']}" + _side_tail(r) for r in tested]
    parts = []
    if sides:
        parts.append(("Products with this ID disagree: " if state == "depends" else "") + "; ".join(sides) + ".")
    else:
        parts.append(f"No product with this ID has a verdict {_on(platform)} yet.")
        seen = {e["entry"]: e["where"] for r in rows for e in r["elsewhere"]}
        if seen:
            parts.append("; ".join(f"{entry} is what reports elsewhere needed ({where})" for entry, where in seen.items())
                         + "; no report here shows whether it is needed.")
    if line and set(line.rsplit(":", 1)[1]) != {f for e in entries for f in e.split(":")[2]}:
        parts.append(f"The line keeps the flags {_linux(products[0].get('kernel'))} sets for this ID by itself, "
                     "which a usb-storage.quirks entry would otherwise replace.")
    ship_text = _shipped_text(ships)
    if ship_text:
        parts.append(ship_text[0].upper() + ship_text[1:] + ".")
    if expected and not tested:
        parts.append(f"{expected['short']}, from related products (an expectation, never counted).")
    return {"platform": platform, "label": _label(platform), "verdict": state, "short": short, "tone": tone,
            "icon": icon, "products": rows, "line": line, "line_from": "; ".join(
                f"{r['name']} ({r['where']})" for r in needed) or None,
            "shipped": ships, "expected": expected["short"] if expected and not tested else None, "text": " ".join(parts)}


_RANK = {"works": 1, "no-uas": 2, "host-no-uas": 2, "fixed": 3, "works-with-quirk": 4, "mixed": 5, "broken": 6}


def _only(line: str | None, key: str) -> str | None:
    """A product's line cut to the entries for one USB ID."""
    mine = [e for e in (line or "")[len(QUIRK_PREFIX):].split(",") if e.startswith(f"{key}:")]
    return QUIRK_PREFIX + ",".join(mine) if mine else None


def _preserving_of(row: Mapping[str, Any]) -> list[str]:
    return (row["line"] or "")[len(QUIRK_PREFIX):].split(",") if row["line"] else row["entries"]


def _side_tail(row: Mapping[str, Any]) -> str:
    """" (8 reports · observed · 2019–2026; needs 152d:0578:u)": what a product's side rests on and what it does."""
    what = {"quirk": f"{'some reports needed' if row['verdict'] == 'mixed' else 'needs'} {', '.join(row['entries'])}", "quirk-applied": f"runs with {', '.join(row['entries'])}",
            "not-needed": "; ".join(f"not needed here: {e['entry']} came from {e['where']}" for e in row["elsewhere"])
            or "no quirk needed here", "nothing": "no quirk needed", "tried": "the quirk did not help"}
    parts = [p for p in (row["basis_text"], what.get(row["do"]) if row["entries"] or row["do"] not in ("quirk", "quirk-applied") else None) if p]
    return f" ({'; '.join(parts)})" if parts else ""


def with_answers(site: Mapping[str, Any], verdict_by_id: Mapping[str, Any],
                 only: Collection[str] | None = None) -> dict[str, Any]:
    """The catalog with every adapter's `answers` (per platform) and `answer_summary`, and every USB ID with
    products its `answers`. With `only`, just those adapters' (the watcher's first phase, which writes their
    files alone): the others and the USB IDs are left as they are."""
    by_id = site.get("distribution_ids") or {}
    adapters = []
    for adapter in site["adapters"]:
        if only is not None and adapter["id"] not in only:
            adapters.append(adapter)
            continue
        answers = product_answers(adapter, verdict_by_id[adapter["id"]], by_id)
        answer_summary = summary(answers)
        # The opening sentence (and meta description, feed entry, link preview) gives the answer per Pi first.
        adapters.append(dict(adapter, answers=answers, answer_summary=answer_summary,
                             summary=" ".join(p for p in (answer_summary, adapter.get("summary")) if p)))
    if only is not None:
        return dict(site, adapters=adapters)
    by_adapter = {a["id"]: a for a in adapters}
    usb = {}
    for key, slot in site["usb"].items():
        if not slot["adapters"]:
            usb[key] = slot
            continue
        products = [by_adapter[i] for i in slot["adapters"]]
        expected = slot.get("expected") or {}
        answers = {p: id_answer(key, products, slot.get("verdict") or {}, p, by_id.get(key, []),
                                expected.get(p) if (expected.get(p) or {}).get("state") not in (None, "none") else None)
                   for p in PLATFORMS}
        # A platform with nothing to say (no product there, nothing shipped, no expectation) is left out.
        usb[key] = dict(slot, answers={p: a for p, a in answers.items() if a["products"] or a["shipped"] or a["expected"]})
    return dict(site, adapters=adapters, usb=usb)


def naughty_quirk_entries(naughty: Sequence[Mapping[str, Any]], verdict_by_id: Mapping[str, Any],
                          usb: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per USB ID of the naughty products' quirk entries, with where each came from (platform, kernel,
    reports), whether a Pi report needed it (only those go in the combined line), and the products known to
    work without it that the same entry would also hit."""
    rows: dict[str, dict[str, Any]] = {}
    for adapter in naughty:
        for source in verdict_by_id[adapter["id"]].quirk_sources:
            row = rows.setdefault(source["usb_id"], {"usb_id": source["usb_id"], "flags": set(), "adapters": [],
                                                     "where": [], "pi": False})
            row["flags"].update(source["flags"])
            if adapter["id"] not in row["adapters"]:
                row["adapters"].append(adapter["id"])
            row["where"].append(f"{adapter['name']}: {source['where']}")
            row["pi"] = row["pi"] or bool(set(source["platforms"]) & set(LIST_PLATFORMS))
    out = []
    for usb_id in sorted(rows):
        row = rows[usb_id]
        flags = "".join(sorted(row["flags"]))
        sources = sorted(row["adapters"])
        working = [i for i in usb.get(usb_id, {}).get("works_on_uas", []) if i not in sources]
        out.append({"usb_id": usb_id, "entry": f"{usb_id}:{flags}", "line": f"{QUIRK_PREFIX}{usb_id}:{flags}",
                    "adapters": sources, "shared_with_working": working, "where": "; ".join(row["where"]),
                    "pi": row["pi"]})
    return out


def naughty_combined_line(entries: Sequence[Mapping[str, Any]]) -> str | None:
    """The naughty page's one line: the entries a Pi report needed, less those shared with a working product."""
    kept = [e["entry"] for e in entries if e["pi"] and not e["shared_with_working"]]
    return QUIRK_PREFIX + ",".join(kept) if kept else None
