"""Where nobody has reported yet: an expectation built from related evidence. Beside verdicts.py, never part of it.

An expectation is not a verdict and never counts as one: it puts no product on a list, counts as tested nowhere,
and the site always labels it. For each product and platform (UAS on Pi 5, Pi 4, Linux PC, macOS; booting on
Pi 4 and Pi 5) without an observed or stated verdict, it gathers the related evidence (`Related.items_for`):

  the kernel's own decision for the ID (an unconditional IGNORE_UAS entry): a fact, not a guess;
  the same product on another platform (Pi 4 <-> Pi 5, a PC), saying what differs (VL805 vs RP1, power);
  other products with the same USB ID (and overlapping bcdDevice) on this platform or the other Pi; an ID that
  is a bridge maker's default (152d JMicron, 174c ASMedia…) counts like the chip, a product-specific one more;
  distributions that turn UAS off for the ID on this platform's images (together, one source);
  the same bridge chip; linux-hardware.org seeing `uas` bound on PCs.

Only verdicts that say enough carry over: a success used at 5 Gbit/s, a failure shown (never a bind-only
snapshot or a quirk whose need is unshown). Each item then decides, may only counter, or is context (`role`,
calibrated on the leave-one-out figures), and `decide` gives an expectation, "related evidence disagrees", or
"hints" (context only). `evaluate` measures all this by leave-one-out; /verdicts/ publishes the figures.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from ..records.vocabulary import BOOT_FOCUS_PLATFORMS, FOCUS_PLATFORMS, PLATFORM_SHORT
from .engine import HOST_PLATFORM, PLATFORMS, AdapterVerdict, adapter_verdict, short_platform

UAS_PLATFORMS = FOCUS_PLATFORMS
# How many of a group's products an item links to (it gives the group's size as `count`).
LINKED_PRODUCTS = 5
BOOT_PLATFORMS = BOOT_FOCUS_PLATFORMS
# What an expectation can say, per question, and the words for it.
UAS_CLASSES = {"works": "expected to work without a quirk", "needs-quirk": "expected to need a quirk (:u) or fail",
               "no-uas": "Linux uses usb-storage for it by itself"}
BOOT_CLASSES = {"boots": "expected to boot", "workaround": "expected to boot only with a workaround",
                "no-boot": "expected not to boot reliably"}
SHORT = {"works": "Expected to work", "needs-quirk": "Expected to need a quirk", "no-uas": "usb-storage by itself",
         "boots": "Expected to boot", "workaround": "Expected to need a workaround", "no-boot": "Expected not to boot"}
# The opposite-direction errors the evaluation counts: expected to work where the truth is trouble, and back.
OPPOSITE = {("works", "needs-quirk"), ("needs-quirk", "works"), ("boots", "no-boot"), ("no-boot", "boots")}
# What differs between the platforms, said whenever evidence crosses from one to another.
CROSSING = {
    ("pi4", "pi5"): "the Pi 5's USB 3 ports sit on its RP1 chip, not the Pi 4's VL805",
    ("pi5", "pi4"): "the Pi 4's USB 3 ports sit on its VL805 chip, not the Pi 5's RP1",
    ("linux", "pi4"): "a Pi 4 has a different USB 3 controller (VL805) and less power on its ports than a PC",
    ("linux", "pi5"): "a Pi 5 has a different USB 3 controller (RP1) and less power on its ports than a PC",
    ("pi4", "linux"): "PC USB controllers differ from the Pi 4's VL805",
    ("pi5", "linux"): "PC USB controllers differ from the Pi 5's RP1",
    ("linux", "macos"): "macOS has its own UAS driver",
    ("pi4", "macos"): "macOS has its own UAS driver",
    ("pi5", "macos"): "macOS has its own UAS driver",
}


def uas_class(pv: Any) -> Optional[str]:
    """The expectation class a counted UAS verdict falls in (None: not one an expectation can match)."""
    if pv.confidence not in ("confirmed",):
        return None
    return {"works": "works", "works-with-quirk": "needs-quirk", "broken": "needs-quirk", "no-uas": "no-uas"}.get(pv.verdict)


def transferable_uas_class(pv: Any) -> Optional[str]:
    """What a verdict may say about another product or platform: a success only when it is recommended (used at
    5 Gbit/s or faster: a bind-only snapshot says too little to carry over), a quirk only when its need is shown."""
    cls = uas_class(pv)
    if cls == "works" and not pv.recommended:
        return None
    if cls == "needs-quirk" and pv.grade == "failure-not-shown":
        return None
    return cls


def boot_class(pv: Any) -> Optional[str]:
    if pv.confidence not in ("confirmed",):
        return None
    return {"works": "boots", "works-with-workaround": "workaround", "fails": "no-boot",
            "intermittent": "no-boot"}.get(pv.verdict)


@dataclass
class Item:
    """One piece of related evidence and where it points."""
    tier: int
    direction: str
    kind: str                      # kernel, same-product, same-id, distribution, same-chip, linuxhw
    text: str
    link: Dict[str, Any] = field(default_factory=dict)
    # The sentence without the products it names, for a page that links each of them by name after it.
    summary: Optional[str] = None
    # False for evidence too thin to carry over (the same product's bind-only success elsewhere, or a quirk whose
    # need is not shown): shown beside an expectation as context, never deciding one.
    transferable: bool = True

    def as_dict(self) -> Dict[str, Any]:
        return {"tier": self.tier, "direction": self.direction, "kind": self.kind, "text": self.text,
                "summary": self.summary or self.text, **self.link}


@dataclass
class Expectation:
    platform: str
    question: str                  # uas or boot
    state: str                     # expected, disagree, none
    verdict: Optional[str] = None
    confidence: Optional[str] = None
    basis: List[Item] = field(default_factory=list)

    @property
    def short(self) -> str:
        if self.state == "expected":
            assert self.verdict is not None  # an expectation names its verdict
            return f"{SHORT[self.verdict]} ({self.confidence})"
        return {"disagree": "Related evidence disagrees", "hints": "Related hints only"}.get(self.state, "No expectation")

    @property
    def text(self) -> str:
        words = (UAS_CLASSES if self.question == "uas" else BOOT_CLASSES)
        where = f"{short_platform(self.platform)}: no {'UAS' if self.question == 'uas' else 'boot'} verdict from reports"
        if self.state == "none":
            return f"{where}, and nothing related is known yet."
        reasons = "; ".join(item.text for item in self.basis[:4]) + ("; …" if len(self.basis) > 4 else "")
        if self.state == "disagree":
            return f"{where} · no expectation, related evidence disagrees: {reasons}."
        if self.state == "hints":
            return (f"{where} · no expectation: the related evidence is too thin, or of kinds that have not "
                    f"predicted well (see /verdicts/): {reasons}.")
        assert self.verdict is not None  # the state is "expected", which names its verdict
        return f"{where} · {words[self.verdict]} ({self.confidence}): {reasons}."

    def as_dict(self) -> Dict[str, Any]:
        return {"state": self.state, "verdict": self.verdict, "confidence": self.confidence, "short": self.short,
                "text": self.text, "tone": "expect", "basis": [item.as_dict() for item in self.basis]}


def _on(platform: str) -> str:
    """"on a Pi 4", "on a Linux PC", "on a Mac", but "on Windows" (the schema's short names)."""
    return ("on " if platform == "windows" else "on a ") + PLATFORM_SHORT[platform]


def _bcd_overlaps(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    ra, rb = a.get("bcd_device"), b.get("bcd_device")
    if not ra or not rb:
        return True
    return not (ra["max"] < rb["min"] or rb["max"] < ra["min"])


class Related:
    """What the expectation reads besides the product itself: every product's verdict, who shares an ID or a
    chip, the kernel's tables, the distributions' shipped quirks and linux-hardware.org's table."""

    def __init__(self, adapters: Sequence[Mapping[str, Any]], verdicts: Mapping[str, AdapterVerdict],
                 kernel: Any = None, distributions: Sequence[Mapping[str, Any]] = (),
                 linuxhw: Optional[Mapping[str, Any]] = None, chipsets: Sequence[Mapping[str, Any]] = ()):
        self.adapters = {a["id"]: a for a in adapters}
        self.verdicts = dict(verdicts)
        self.kernel = kernel
        self.chipset_names = {c["id"]: c["name"] for c in chipsets}
        # Vendor IDs of bridge-chip makers (JMicron, ASMedia, Realtek, VIA…): a product reporting the chip's own
        # default ID may be any product built on that chip, so sharing such an ID says what sharing the chip says.
        self.chip_vendors = {u["vid"] for c in chipsets for u in c.get("usb_ids", [])}
        self.by_id: Dict[str, List[Tuple[str, Mapping[str, Any]]]] = {}
        self.by_chip: Dict[str, List[str]] = {}
        for a in adapters:
            for usb_id in a.get("usb_ids", []):
                self.by_id.setdefault(f"{usb_id['vid']}:{usb_id['pid']}", []).append((a["id"], usb_id))
            if a.get("chipset"):
                self.by_chip.setdefault(a["chipset"], []).append(a["id"])
        self.shipped: Dict[str, List[Tuple[Mapping[str, Any], Mapping[str, Any]]]] = {}
        for dist in distributions:
            for entry in dist.get("entries", []):
                if "u" in entry.get("flags", ""):
                    self.shipped.setdefault(f"{entry['vid']}:{entry['pid']}", []).append((dist, entry))
        self.linuxhw = {f"{d['vid']}:{d['pid']}": d for d in (linuxhw or {}).get("devices", [])}
        self._classes: Dict[Tuple[str, str, str], Optional[str]] = {}
        self._groups: Dict[Any, Dict[str, List[str]]] = {}
        self._member_sets: Dict[int, Tuple[List[str], frozenset]] = {}

    # -- evidence, one source at a time ----------------------------------------------------------------

    def kernel_items(self, ids: Sequence[Mapping[str, Any]], platform: str) -> List[Item]:
        if self.kernel is None or not PLATFORMS[platform]["linux"]:
            return []
        items = []
        for usb_id in ids:
            for entry in self.kernel.entries_for(usb_id["vid"], usb_id["pid"]):
                every_bcd = (entry.bcd_min, entry.bcd_max) == ("0000", "9999")
                if "IGNORE_UAS" in entry.flags and every_bcd and not entry.condition:
                    key = f"{usb_id['vid']}:{usb_id['pid']}"
                    items.append(Item(0, "no-uas", "kernel",
                                      f"Linux {self.kernel.version} turns UAS off for {key} by itself (IGNORE_UAS, "
                                      f"{entry.file.rsplit('/', 1)[-1]} line {entry.line})",
                                      {"usb_id": key, "file": entry.file, "line": entry.line}))
        return items

    def same_product_items(self, verdict: AdapterVerdict, platform: str, question: str) -> List[Item]:
        items = []
        others = BOOT_PLATFORMS if question == "boot" else UAS_PLATFORMS
        for other in others:
            if other == platform:
                continue
            pv = (verdict.boot if question == "boot" else verdict.uas).get(other)
            if pv is None:
                continue
            cls = boot_class(pv) if question == "boot" else transferable_uas_class(pv)
            thin = False
            if cls is None and question == "uas":
                # Too thin to carry over, but known: a page must not say "nothing related is known" about it.
                cls = uas_class(pv)
                thin = cls is not None
            if not cls:
                continue
            pis = {"pi4", "pi5"}
            if {platform, other} <= pis:
                tier = 1
            elif platform in pis and other == "linux":
                tier = 1 if cls == "needs-quirk" else 2      # a PC's failure carries over; its success less so
            elif platform == "linux" and other in pis:
                tier = 1 if cls == "works" else 2            # a Pi is the harder host
            else:
                tier = 4
            what = {"works": "UAS works", "needs-quirk": "needs a quirk or fails", "no-uas": "runs without UAS",
                    "boots": "boots", "workaround": "boots with a workaround", "no-boot": "does not boot reliably"}[cls]
            why = CROSSING.get((other, platform))
            if thin:
                what = {"works": "binds UAS", "needs-quirk": "has a quirk whose need is not shown"}.get(cls, what)
            items.append(Item(tier, cls, "same-product",
                              f"this product {what} {_on(other)} ({pv.basis_text})"
                              + ("; too thin to carry over" if thin else "")
                              + (f"; {why}" if why else ""), {"platform": other}, transferable=not thin))
        return items

    def _class(self, adapter_id: str, platform: str, question: str) -> Optional[str]:
        """What a product's own verdict on `platform` may say about another product (transferable_uas_class)."""
        key = (adapter_id, platform, question)
        if key not in self._classes:
            verdict = self.verdicts[adapter_id]
            pv = (verdict.boot if question == "boot" else verdict.uas).get(platform)
            self._classes[key] = (boot_class(pv) if question == "boot" else transferable_uas_class(pv)) if pv else None
        return self._classes[key]

    def _group(self, members: Sequence[str], platform: str, question: str, cache_key: Any) -> Dict[str, List[str]]:
        """direction -> member ids whose verdict on `platform` says it; worked out once per group (a chip's group
        can hold thousands of products)."""
        key = (cache_key, platform, question)
        if key not in self._groups:
            groups: Dict[str, List[str]] = {}
            for member in members:
                cls = self._class(member, platform, question)
                if cls:
                    groups.setdefault(cls, []).append(member)
            self._groups[key] = groups
        return self._groups[key]

    def _group_items(self, groups: Mapping[str, List[str]], skip: Iterable[str], platform: str, tier: int, kind: str,
                     what_they_share: str, link: Dict[str, Any]) -> List[Item]:
        skip = skip if isinstance(skip, (set, frozenset)) else set(skip)
        items = []
        for direction, members in groups.items():
            # A chip's group can hold thousands of products: count the others without copying the group, and
            # name only the first few (`count` says how many there are).
            count = len(members) - len(self._member_set(members) & skip)  # set & set walks the smaller one
            if not count:
                continue
            shown = list(itertools.islice((m for m in members if m not in skip), LINKED_PRODUCTS))
            names = ", ".join(self.adapters[m]["name"] for m in shown[:3]) + (", …" if count > 3 else "")
            verb = {"works": ("works", "work"), "needs-quirk": ("needs a quirk or fails", "need a quirk or fail"),
                    "no-uas": ("runs without UAS", "run without UAS"), "boots": ("boots", "boot"),
                    "workaround": ("boots with a workaround", "boot with a workaround"),
                    "no-boot": ("does not boot reliably", "do not boot reliably")}[direction][count != 1]
            who = f"{count} product{'s' if count != 1 else ''} with {what_they_share}"
            summary = f"{who} {verb} {_on(platform)}"
            items.append(Item(tier, direction, kind, f"{summary} ({names})",
                              dict(link, adapters=shown, names=[self.adapters[m]["name"] for m in shown], count=count,
                                   platform=platform), summary))
        return items

    def _member_set(self, members: List[str]) -> frozenset:
        key = id(members)
        cached = self._member_sets.get(key)
        if cached is None or cached[0] is not members:
            cached = self._member_sets[key] = (members, frozenset(members))
        return cached[1]

    def same_id_items(self, adapter_id: str, ids: Sequence[Mapping[str, Any]], platform: str, question: str,
                      tier: int) -> List[Item]:
        items = []
        for usb_id in ids:
            key = f"{usb_id['vid']}:{usb_id['pid']}"
            members = [m for m, other_usb in self.by_id.get(key, []) if _bcd_overlaps(usb_id, other_usb)]
            groups = (self._group(members, platform, question, ("id", key)) if not usb_id.get("bcd_device")
                      else self._group(members, platform, question, ("id", key, adapter_id)))
            items += self._group_items(groups, [adapter_id], platform, tier, "same-id", f"the same USB ID {key}",
                                       {"usb_id": key})
        return items

    def same_chip_items(self, adapter_id: str, chip: Optional[str], platform: str, question: str, tier: int,
                        skip: Iterable[str] = ()) -> List[Item]:
        if not chip:
            return []
        groups = self._group(self.by_chip.get(chip, []), platform, question, ("chip", chip))
        name = self.chipset_names.get(chip, chip)
        return self._group_items(groups, [adapter_id, *skip], platform, tier, "same-chip", f"the same {name} chip",
                                 {"chipset": chip})

    def distribution_items(self, ids: Sequence[Mapping[str, Any]], platform: str,
                           hidden_urls: Iterable[str] = ()) -> List[Item]:
        hidden = set(hidden_urls)
        items = []
        for usb_id in ids:
            key = f"{usb_id['vid']}:{usb_id['pid']}"
            for dist, entry in self.shipped.get(key, []):
                hosts = {HOST_PLATFORM.get(h) for h in dist.get("hosts", [])}
                if platform not in hosts or entry.get("added_in") in hidden:
                    continue
                items.append(Item(3, "needs-quirk", "distribution",
                                  f"{dist['name']} ships {key}:{entry['flags']} on its {short_platform(platform)} images",
                                  {"distribution": dist["id"], "url": entry.get("added_in") or dist.get("file")}))
        return items

    def linuxhw_items(self, ids: Sequence[Mapping[str, Any]], platform: str) -> List[Item]:
        if platform != "linux":
            return []
        items = []
        for usb_id in ids:
            key = f"{usb_id['vid']}:{usb_id['pid']}"
            row = self.linuxhw.get(key)
            if row and row.get("drivers") == ["uas"]:
                items.append(Item(4, "works", "linuxhw",
                                  f"linux-hardware.org saw {key} bound to uas on {row['computers']} computers "
                                  "(bound, not tested under load)", {"usb_id": key, "url": row.get("probe_url")}))
        return items

    # -- the expectation ---------------------------------------------------------------------------------

    def items_for(self, adapter: Mapping[str, Any], verdict: AdapterVerdict, platform: str, question: str,
                  hidden_urls: Iterable[str] = ()) -> List[Item]:
        ids = adapter.get("usb_ids", [])
        items: List[Item] = []
        if question == "uas":
            items += self.kernel_items(ids, platform)
        items += self.same_product_items(verdict, platform, question)
        for usb_id in ids:
            tier = 3 if usb_id["vid"] in self.chip_vendors else 2
            items += self.same_id_items(adapter["id"], [usb_id], platform, question, tier)
        if question == "uas":
            items += self.distribution_items(ids, platform, hidden_urls)
        sharing = {other for usb_id in ids for other, _ in self.by_id.get(f"{usb_id['vid']}:{usb_id['pid']}", [])}
        items += self.same_chip_items(adapter["id"], adapter.get("chipset"), platform, question, 3, skip=sharing)
        related = {"pi4": ("pi5",), "pi5": ("pi4",), "linux": (), "macos": ("linux",)}[platform]
        for other in related:
            for item in (self.same_id_items(adapter["id"], ids, other, question, 4)
                         + self.same_chip_items(adapter["id"], adapter.get("chipset"), other, question, 4, skip=sharing)):
                why = CROSSING.get((other, platform))
                because = f" ({why})" if why else ""
                items.append(Item(4, item.direction, item.kind, item.text + because, item.link,
                                  (item.summary or item.text) + because))
        if question == "uas":
            items += self.linuxhw_items(ids, platform)
        return items

    def expect(self, adapter: Mapping[str, Any], verdict: AdapterVerdict, platform: str, question: str,
               hidden_urls: Iterable[str] = ()) -> Expectation:
        return decide(platform, question, self.items_for(adapter, verdict, platform, question, hidden_urls))

    def expect_for_id(self, usb_id: Mapping[str, Any], platform: str, question: str = "uas") -> Expectation:
        """An ID-level expectation: what the ID's products, the kernel, distributions and chips say."""
        ids = [usb_id]
        key = f"{usb_id['vid']}:{usb_id['pid']}"
        items = self.kernel_items(ids, platform) if question == "uas" else []
        members = [m for m, _ in self.by_id.get(key, [])]
        items += self._group_items(self._group(members, platform, question, ("id", key)), [], platform,
                                   3 if usb_id["vid"] in self.chip_vendors else 2, "same-id", "this USB ID",
                                   {"usb_id": key})
        if question == "uas":
            items += self.distribution_items(ids, platform)
            items += self.linuxhw_items(ids, platform)
        return decide(platform, question, items)


PIS = ("pi4", "pi5")
# Independent sources (products, this product on another platform, the distributions together) that must agree,
# with nothing related against, for a strong expectation. Set on the leave-one-out figures: with two, a fifth of
# the strong expectations were wrong; with three, none were (docs/verdicts.md publishes the current figures).
STRONG_SOURCES = 3


def role(item: Item, platform: str, question: str) -> str:
    """"decide": the item may make an expectation; "counter": it cannot make one alone, but an expectation it
    contradicts is not given ("related evidence disagrees"); "context": shown beside, decides nothing.
    Calibrated on the leave-one-out figures (`uasdb verdicts --evaluate`, docs/verdicts.md): on a Pi, failures
    carry over from the same USB ID, from distributions that turn UAS off for it and from the same product
    elsewhere (right about four times in five), while other products' successes and the bridge chip alone do not
    (about one time in four); on a PC, only the same product's success on a Pi and a product-specific USB ID (not
    a bridge maker's default) say enough."""
    kind, direction = item.kind, item.direction
    if kind == "kernel":
        return "decide"
    if not item.transferable:
        return "context"
    if question == "boot":
        if kind == "same-product" or (kind == "same-id" and direction == "boots"):
            return "decide"
        return "context"
    if platform in PIS:
        if kind == "same-product":
            return "decide" if direction != "works" or item.link.get("platform") in PIS else "context"
        if kind in ("same-id", "distribution"):
            if direction in ("needs-quirk", "no-uas") or item.tier <= 2:
                return "decide"
            return "counter" if item.link.get("platform") == platform else "context"
        return "context"
    if platform == "linux":
        if kind == "same-product":
            return "decide" if direction == "works" and item.link.get("platform") in PIS else "context"
        return "decide" if kind == "same-id" and item.tier <= 2 else "context"
    return "decide" if kind == "same-product" and direction == "works" else "context"  # macOS


def source_count(items: List[Item]) -> int:
    """How many independent sources these items are: each other product (a group counts its products; a product
    is in one group only: same-chip items leave out the products that share the ID), this product on each other
    platform, and the distributions together as one (their lists copy one another)."""
    kinds = {f"{i.kind}:{i.link.get('platform', '')}" for i in items if i.kind not in ("distribution", "same-id", "same-chip")}
    return (sum(i.link.get("count", 0) for i in items if i.kind in ("same-id", "same-chip")) + len(kinds)
            + (1 if any(i.kind == "distribution" for i in items) else 0))


def decide(platform: str, question: str, items: List[Item]) -> Expectation:
    """The expectation from the items that may decide (`decides`); the rest are shown as context. A kernel
    entry is a fact. Deciding items that disagree give no expectation, unless the same product's own evidence
    settles it. Strong: STRONG_SOURCES independent sources agree and nothing related says otherwise;
    weak: fewer. Only context: state "hints" (shown, no expectation)."""
    if not items:
        return Expectation(platform, question, "none")
    items = sorted(items, key=lambda i: (i.tier, i.kind, i.text))
    kernel = [i for i in items if i.tier == 0]
    if kernel:
        return Expectation(platform, question, "expected", "no-uas", "strong", kernel)
    roles = {id(i): role(i, platform, question) for i in items}
    deciding = [i for i in items if roles[id(i)] == "decide"]
    counters = [i for i in items if roles[id(i)] == "counter"]
    context = [i for i in items if roles[id(i)] == "context"]
    if not deciding:
        return Expectation(platform, question, "hints", None, None, counters + context)
    directions = {i.direction for i in deciding + counters}
    deciding = deciding + counters
    if len(directions) > 1:
        own = {i.direction for i in deciding if i.kind == "same-product"}
        if len(own) != 1:
            return Expectation(platform, question, "disagree", None, None, deciding + context)
        direction = own.pop()
        agreeing = [i for i in deciding if i.direction == direction]
        against = [i for i in deciding if i.direction != direction]
        return Expectation(platform, question, "expected", direction, "weak", agreeing + against + context)
    direction = directions.pop()
    strong = source_count(deciding) >= STRONG_SOURCES and not any(i.direction != direction for i in context)
    if question == "boot" and any(i.kind != "same-product" for i in deciding):
        strong = False  # a boot rests on the bootloader release, the drive and power more than on the bridge
    return Expectation(platform, question, "expected", direction, "strong" if strong else "weak", deciding + context)


def open_cells(verdict: AdapterVerdict) -> List[Tuple[str, str]]:
    """(platform, question) pairs without an observed or stated verdict: where an expectation is shown."""
    cells = [(p, "uas") for p in UAS_PLATFORMS if verdict.uas[p].confidence not in ("confirmed", "disputed")]
    cells += [(p, "boot") for p in BOOT_PLATFORMS if verdict.boot[p].confidence not in ("confirmed", "disputed")]
    return cells


def expectations(adapter: Mapping[str, Any], verdict: AdapterVerdict, related: Related) -> Dict[str, Dict[str, Any]]:
    """{"uas": {platform: expectation}, "boot": {...}} for the open cells of one product."""
    out: Dict[str, Dict[str, Any]] = {"uas": {}, "boot": {}}
    for platform, question in open_cells(verdict):
        out[question][platform] = related.expect(adapter, verdict, platform, question).as_dict()
    return out


# -- leave-one-out evaluation ----------------------------------------------------------------------------

def _hide(adapter: Mapping[str, Any], platform: str) -> Tuple[Dict[str, Any], List[str]]:
    """The product without its reports on `platform`, and those reports' source URLs."""
    hosts = set(PLATFORMS[platform]["hosts"])
    kept = [r for r in adapter.get("reports", []) if r.get("host") not in hosts]
    urls = [r.get("source", {}).get("url") for r in adapter.get("reports", []) if r.get("host") in hosts]
    return dict(adapter, reports=kept), [u for u in urls if u]


def evaluate(related: Related) -> Dict[str, Any]:
    """Leave-one-out: for every product and platform with a counted verdict an expectation can match, hide that
    product's reports on that platform, expect from everything else, and compare. Shares are 0..1."""
    cells = []
    for adapter_id, adapter in sorted(related.adapters.items()):
        verdict = related.verdicts[adapter_id]
        for question, platforms in (("uas", UAS_PLATFORMS), ("boot", BOOT_PLATFORMS)):
            for platform in platforms:
                pv = (verdict.uas if question == "uas" else verdict.boot)[platform]
                # Judged against what is known well: a success used at 5 Gbit/s, a failure shown (a bind-only
                # snapshot is itself too thin to grade a guess against).
                truth = transferable_uas_class(pv) if question == "uas" else boot_class(pv)
                if truth is None:
                    continue
                hidden, urls = _hide(adapter, platform)
                # A platform's verdict reads only that platform's reports (uas_finding, boot_finding), so the
                # product's verdicts elsewhere are the same without the hidden ones: no need to judge it again.
                expectation = related.expect(hidden, verdict, platform, question, urls)
                if expectation.basis and expectation.basis[0].tier == 0:
                    continue  # the kernel's table for today's Linux, not a guess: older reports cannot grade it
                cells.append({"adapter": adapter_id, "platform": platform, "question": question, "truth": truth,
                              "state": expectation.state, "expected": expectation.verdict,
                              "confidence": expectation.confidence,
                              "basis": [i.text for i in expectation.basis]})
    return summarise(cells)


def _share(n: int, d: int) -> Optional[float]:
    return round(n / d, 4) if d else None


def summarise(cells: List[Dict[str, Any]]) -> Dict[str, Any]:
    def block(subset: List[Dict[str, Any]]) -> Dict[str, Any]:
        # Answered: an expectation, or "related evidence disagrees" (as the report says); hints alone are not.
        answered = [c for c in subset if c["state"] in ("expected", "disagree")]
        expected = [c for c in subset if c["state"] == "expected"]
        right = [c for c in expected if c["expected"] == c["truth"]]
        opposite = [c for c in expected if (c["expected"], c["truth"]) in OPPOSITE]
        by_conf = {}
        for level in ("strong", "weak"):
            at = [c for c in expected if c["confidence"] == level]
            by_conf[level] = {"cells": len(at), "agreement": _share(sum(c["expected"] == c["truth"] for c in at), len(at))}
        return {"cells": len(subset), "coverage": _share(len(answered), len(subset)),
                "expected": len(expected), "disagree": sum(c["state"] == "disagree" for c in subset),
                "agreement": _share(len(right), len(expected)),
                "agreement_by_confidence": {k: v["agreement"] for k, v in by_conf.items()},
                "cells_by_confidence": {k: v["cells"] for k, v in by_conf.items()},
                "opposite_errors": _share(len(opposite), len(expected))}
    result = block(cells)
    result["by_platform"] = {}
    for question, platforms in (("uas", UAS_PLATFORMS), ("boot", BOOT_PLATFORMS)):
        for platform in platforms:
            subset = [c for c in cells if c["platform"] == platform and c["question"] == question]
            if subset:
                result["by_platform"][f"{question}:{platform}"] = block(subset)
    result["wrong"] = [c for c in cells if c["state"] == "expected" and c["expected"] != c["truth"]]
    return result


def coverage(related: Related) -> Dict[str, Any]:
    """Per platform, the share of products with a verdict from reports (any, hearsay included), an expectation,
    or an explicit "related evidence disagrees": what a reader of each product page gets. A product with a
    verdict is counted as such even when an expectation is shown beside an unverified one."""
    result = {}
    for question, platforms in (("uas", UAS_PLATFORMS), ("boot", BOOT_PLATFORMS)):
        for platform in platforms:
            counts = {"products": 0, "verdict": 0, "expected": 0, "disagree": 0, "hints": 0, "none": 0}
            for adapter_id, adapter in related.adapters.items():
                verdict = related.verdicts[adapter_id]
                pv = (verdict.uas if question == "uas" else verdict.boot)[platform]
                counts["products"] += 1
                if pv.verdict != "untested":  # from reports, hearsay ("Likely …") and fixed failures included
                    counts["verdict"] += 1
                    continue
                counts[related.expect(adapter, verdict, platform, question).state] += 1
            answered = counts["verdict"] + counts["expected"] + counts["disagree"]
            result[f"{question}:{platform}"] = dict(counts, share=_share(answered, counts["products"]))
    return result


def related_from_records(records: Sequence[Any], data_dir: Any = None) -> Related:
    """The related-evidence context of checked records (database.check), with the kernel table and
    linux-hardware.org's table from `data_dir` (default: data/) when they are there."""
    from pathlib import Path

    from ..paths import DATA_DIR
    from ..records.reference import ReferenceDataError, load_kernel, load_linuxhw
    adapters = [r.data for r in records if r.kind == "adapter"]
    where = Path(data_dir) if data_dir else DATA_DIR
    try:
        kernel = load_kernel(where)
    except ReferenceDataError:
        kernel = None
    try:
        linuxhw = load_linuxhw(where)
    except ReferenceDataError:
        linuxhw = None
    return Related(adapters, {a["id"]: adapter_verdict(a) for a in adapters}, kernel,
                   [r.data for r in records if r.kind == "distribution"], linuxhw,
                   [r.data for r in records if r.kind == "chipset"])


def _percent(share: Optional[float]) -> str:
    return "—" if share is None else f"{100 * share:.0f}%"


def evaluation_text(result: Mapping[str, Any], products: Mapping[str, Any]) -> str:
    """`uasdb verdicts --evaluate` in words."""
    conf, n = result["agreement_by_confidence"], result["cells_by_confidence"]
    lines = [f"Leave-one-out over {result['cells']} cells (a product and platform with a verdict an expectation can "
             "be judged against: a success used at 5 Gbit/s, a failure shown, a boot outcome):",
             f"  coverage     {_percent(result['coverage'])} get an expectation or \"related evidence disagrees\"",
             f"  agreement    {_percent(result['agreement'])} of {result['expected']} expectations "
             f"(strong {_percent(conf['strong'])} of {n['strong']}, weak {_percent(conf['weak'])} of {n['weak']})",
             f"  opposite-direction errors  {_percent(result['opposite_errors'])} of the expectations",
             "  per platform:"]
    for key, block in result["by_platform"].items():
        lines.append(f"    {key:11} {block['cells']:3} cells, coverage {_percent(block['coverage'])}, "
                     f"agreement {_percent(block['agreement'])} of {block['expected']}, "
                     f"opposite {_percent(block['opposite_errors'])}")
    if result["wrong"]:
        lines.append("  wrong:")
        for cell in result["wrong"]:
            lines.append(f"    {cell['adapter']} {cell['question']} {cell['platform']}: expected {cell['expected']} "
                         f"({cell['confidence']}), reports say {cell['truth']}")
    lines.append("Products with a verdict from reports, an expectation or \"related evidence disagrees\":")
    for key, block in products.items():
        lines.append(f"    {key:11} {_percent(block['share'])} of {block['products']} (verdict {block['verdict']}, "
                     f"expected {block['expected']}, disagree {block['disagree']}, hints only {block['hints']}, "
                     f"nothing {block['none']})")
    return "\n".join(lines)
