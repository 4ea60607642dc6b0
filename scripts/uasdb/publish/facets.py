"""Filters for the long pages (what to buy, USB IDs, chipsets, the naughty and nice lists): which choices each
filter offers and how many rows each matches. The export decides both, and what each row matches (its `facets`);
the page prints them as they are and site/assets/js/filter.js only hides the rows that do not match.

A row's `facets` maps a filter's key to the values the row matches, as a list: an enclosure that takes either kind
of M.2 drive matches both the NVMe and the M.2 SATA choice. A filter is offered only when the rows differ in it
(two choices or more); a filter with one choice would narrow nothing."""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

# (key, label, {value: title}): one filter, its choices in the order the page offers them.
Spec = tuple[str, str, Mapping[str, str]]


def facet(key: str, label: str, rows: Iterable[Mapping[str, Sequence[str]]], titles: Mapping[str, str]) -> dict[str, Any] | None:
    """{key, label, options: [{value, label, count}]} with the choices some row matches, in `titles` order, or None
    when fewer than two are left. A value no title names is an error in the caller, not a choice to drop."""
    counts = Counter(value for row in rows for value in dict.fromkeys(row.get(key, ())))
    unknown = sorted(set(counts) - set(titles))
    if unknown:
        raise ValueError(f"filter {key}: no title for {', '.join(unknown)}")
    options = [{"value": value, "label": title, "count": counts[value]} for value, title in titles.items() if counts[value]]
    return {"key": key, "label": label, "options": options} if len(options) > 1 else None


def facets(rows: Sequence[Mapping[str, Sequence[str]]], specs: Iterable[Spec]) -> list[dict[str, Any]]:
    """The filters worth offering over `rows` (each row's `facets`), in the order of `specs`."""
    return [f for key, label, titles in specs for f in [facet(key, label, rows, titles)] if f]


def slug(text: str) -> str:
    """A value for the address (?maker=via-labs): lower case, every run of other characters one hyphen."""
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")


def capitalised(titles: Mapping[str, str]) -> dict[str, str]:
    """The schema's titles ("a case for one drive") as choices in a list ("A case for one drive")."""
    return {value: title[:1].upper() + title[1:] for value, title in titles.items()}


def badge_titles(badges: Iterable[Mapping[str, Any] | None]) -> dict[str, str]:
    """The badges' words as choices, best verdict first (the badges' rank), keyed by their slug."""
    seen = {(b["rank"], b["short"]) for b in badges if b}
    return {slug(short): short for _, short in sorted(seen)}
