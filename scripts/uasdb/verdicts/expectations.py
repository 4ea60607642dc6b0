"""Where nobody has reported yet: an expectation built from related evidence. Beside verdicts.py, never part of it.

An expectation is not a verdict and never counts as one: it puts no product on a list, counts as tested nowhere,
and the site always labels it. For each product and platform (UAS on Pi 5, Pi 4, Linux PC, macOS; booting on
Pi 4 and Pi 5) without an observed or stated verdict, it gathers the related evidence (`Related.items_for`):

  the kernel's own decision for the ID (an unconditional IGNORE_UAS entry): a fact, not a guess;
  the same product on another platform (Pi 4 <-> Pi 5, a PC), saying what differs (VL805 vs RP1, power);
  other products with the same USB ID (and overlapping bcdDevice) on this platform or the other Pi, when they are
  the same hardware as far as anyone knows: an ID whose products name two chips, or SATA and NVMe drives, is a
  shared ID (`Related.shared_id`), its products hints like the chip;
  distributions that turn UAS off for the ID on this platform's images;
  the same bridge chip; linux-hardware.org seeing `uas` bound on PCs.

Only verdicts that say enough carry over: a success used at 5 Gbit/s (or the product's own use on the other Pi),
a failure shown (never a bind-only snapshot or a quirk whose need is unshown). Evidence is counted by origin
(`origin_groups`: a copied list, one cited source, records that may be one product count once). Each item then
decides, may only counter, or is context (`role`), and `decide` gives an expectation, "related evidence
disagrees" (evidence both ways), or "hints" (context only). `evaluate` measures this by leave-one-out, hiding
every copy of what it hides (`Related.without`); `publish_policy` keeps what the site says to what the
evaluation supports (`Related.expect`; `raw_expect` is the evidence alone); /verdicts/ publishes the figures.
"""
from __future__ import annotations

import functools
import itertools
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..records.reference import ReferenceDataError, load_kernel, load_linuxhw
from ..records.vocabulary import BOOT_FOCUS_PLATFORMS, FOCUS_PLATFORMS, PLATFORM_SHORT, RELATED_PLATFORMS
from .engine import HOST_PLATFORM, PLATFORMS, AdapterVerdict, adapter_verdict, plural, short_platform

UAS_PLATFORMS = FOCUS_PLATFORMS
# Which drives a bridge takes, by the schema's drive_interface: two products whose sets do not meet are different
# hardware whatever ID they report.
DRIVE_FAMILIES = {"sata": frozenset({"SATA"}), "msata": frozenset({"SATA"}), "m2-sata": frozenset({"SATA"}),
                  "nvme": frozenset({"NVMe"}), "nvme-sata": frozenset({"SATA", "NVMe"})}
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


def uas_class(pv: Any) -> str | None:
    """The expectation class a counted UAS verdict falls in (None: not one an expectation can match)."""
    if pv.confidence not in ("confirmed",):
        return None
    return {"works": "works", "works-with-quirk": "needs-quirk", "broken": "needs-quirk", "no-uas": "no-uas"}.get(pv.verdict)


def transferable_uas_class(pv: Any) -> str | None:
    """What a verdict may say about another product or platform: a success only when it is recommended (used at
    5 Gbit/s or faster: a bind-only snapshot says too little to carry over), a quirk only when its need is shown."""
    cls = uas_class(pv)
    if cls == "works" and not pv.recommended:
        return None
    if cls == "needs-quirk" and pv.grade == "failure-not-shown":
        return None
    return cls


def used_uas(pv: Any) -> bool:
    """UAS without a quirk, used or used for weeks on observed or stated evidence (not only bound, not only at
    480M), though no report gives the 5 Gbit/s link: enough for the same product on the other Pi."""
    return uas_class(pv) == "works" and any(f.outcome == "works" and f.depth != "bound" and not f.slow_only
                                           for f in pv.deciding)


def boot_class(pv: Any) -> str | None:
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
    link: dict[str, Any] = field(default_factory=dict)
    # What a page prints before the products it links (`link["adapters"]`, by id). No item's text names a product
    # (a rename would rewrite every related product's file), so this is the text; the API keeps it as `summary`.
    summary: str | None = None
    # False for evidence too thin to carry over (the same product's bind-only success elsewhere, or a quirk whose
    # need is not shown): shown beside an expectation as context, never deciding one.
    transferable: bool = True
    # Where the evidence comes from, one set of origin roots per product or entry it speaks for (Related.origins):
    # two that share a root are one origin. None: not traced (counted as `count` products, or one).
    origins: list[frozenset] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"tier": self.tier, "direction": self.direction, "kind": self.kind, "text": self.text,
                "summary": self.summary or self.text, **self.link}


def _entry_node(dist: Mapping[str, Any], entry: Mapping[str, Any]) -> str:
    return f"dist:{dist['id']}:{entry['vid']}:{entry['pid']}"


@dataclass
class Expectation:
    platform: str
    question: str                  # uas or boot
    state: str                     # expected, disagree, none
    verdict: str | None = None
    confidence: str | None = None
    basis: list[Item] = field(default_factory=list)
    # Why no expectation is given although the evidence would make one (apply_policy), in words.
    note: str | None = None

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
        if self.shared:
            reasons += " (" + "; ".join(self.shared) + ")"
        if self.state == "disagree":
            return f"{where} · no expectation, related evidence disagrees: {reasons}."
        if self.state == "hints" and self.note:
            return f"{where} · no expectation: {self.note}: {reasons}."
        if self.state == "hints":
            return (f"{where} · no expectation: the related evidence is too thin, or of kinds that have not "
                    f"predicted well (see /verdicts/): {reasons}.")
        assert self.verdict is not None  # the state is "expected", which names its verdict
        return f"{where} · {words[self.verdict]} ({self.confidence}): {reasons}."

    def as_dict(self) -> dict[str, Any]:
        return {"state": self.state, "verdict": self.verdict, "confidence": self.confidence, "short": self.short,
                "text": self.text, "tone": "expect", "basis": [item.as_dict() for item in self.basis],
                **({"note": self.note} if self.note else {}), **({"shared": shared} if (shared := self.shared) else {})}

    @property
    def shared(self) -> list[str]:
        """Why a USB ID in the basis is shared by different hardware (Related.shared_id), once each."""
        return list(dict.fromkeys(i.link["shared"] for i in self.basis if i.link.get("shared")))


def _on(platform: str) -> str:
    """"on a Pi 4", "on a Linux PC", "on a Mac", but "on Windows" (the schema's short names)."""
    return ("on " if platform == "windows" else "on a ") + PLATFORM_SHORT[platform]


def _bcd_overlaps(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    ra, rb = a.get("bcd_device"), b.get("bcd_device")
    if not ra or not rb:
        return True
    return not (ra["max"] < rb["min"] or rb["max"] < ra["min"])


@functools.lru_cache(maxsize=1 << 17)
def source_key(url: str) -> str:
    """One key per source a report or a distribution entry cites: a GitHub issue or pull request by its repository
    and number (comments and the pull/issue spelling fold together), any other page by its address without the
    scheme, "www.", a trailing slash or an in-page anchor. Two reports citing one thread or one post share it."""
    u = re.sub(r"^https?://(www\.)?", "", url.strip())
    m = re.match(r"github\.com/([^/]+)/([^/#?]+)/(?:issues|pull|discussions)/(\d+)", u)
    if m:
        return f"github.com/{m[1].lower()}/{m[2].lower()}#{m[3]}"
    return u.split("#", 1)[0].rstrip("/")


_URL = re.compile(r"https?://[^\s)>\]]+")
_REF = re.compile(r"(?<![\w/.-])(?:([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+))?#(\d+)\b")
_SAME_PRODUCT = re.compile(r"\b(?:may|might|could|probably|likely)(?: well)? be the same (?:product|device|model)\b")


def entry_sources(entry: Mapping[str, Any]) -> list[str]:
    """The source keys a distribution entry rests on: the change that added it, and every page, issue or pull
    request its reason cites ("home-assistant/operating-system#3281, whose issue #3280": a bare #N is in the
    repository named last, else the one the entry was added in)."""
    keys, repo = [], None
    added = entry.get("added_in") or ""
    if added:
        keys.append(source_key(added))
        m = re.match(r"https?://github\.com/([^/]+/[^/#?]+)", added)
        repo = m[1] if m else None
    reason = " ".join(str(entry.get(k) or "") for k in ("reason", "notes"))
    keys += [source_key(u.rstrip(".,;")) for u in _URL.findall(reason)]
    for named, number in _REF.findall(_URL.sub(" ", reason)):
        repo = named or repo
        if repo:
            keys.append(f"github.com/{repo.lower()}#{number}")
    return list(dict.fromkeys(keys))


def _mentions(text: str, other: Mapping[str, Any]) -> bool:
    """Whether a distribution's notes or entry name another distribution (its id, its name before any
    parenthesis, or its GitHub repository)."""
    terms = [other["id"], other["name"].split(" (")[0]]
    m = re.match(r"https?://github\.com/([^/]+/[^/#?]+)", other.get("homepage") or "")
    if m:
        terms.append(m[1])
    return any(re.search(r"(?<![\w/-])" + re.escape(t) + r"(?![\w-])", text) for t in terms if t)


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        parent = self.parent
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while x != root:  # path compression
            parent[x], x = root, parent.get(x, x)
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


class _Overlay(Mapping):
    """A mapping that reads `changed` first, then `base`: a leave-one-out context's records and verdicts, which
    differ from its parent's in a few products only (copying the whole dict per context made the evaluation
    quadratic in the number of products)."""

    def __init__(self, base: Mapping[str, Any], changed: Mapping[str, Any]):
        self.base, self.changed = base, changed

    def __getitem__(self, key: str) -> Any:
        return self.changed[key] if key in self.changed else self.base[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.base)

    def __len__(self) -> int:
        return len(self.base)


def _elsewhere(item: Item, other: str, platform: str) -> Item:
    """An item about another platform, as evidence for this one: at tier 4, saying what differs between the two."""
    why = CROSSING.get((other, platform))
    because = f" ({why})" if why else ""
    return Item(4, item.direction, item.kind, item.text + because, item.link, (item.summary or item.text) + because,
                origins=item.origins)


class Related:
    """What the expectation reads besides the product itself: every product's verdict, who shares an ID or a
    chip, the kernel's tables, the distributions' shipped quirks and linux-hardware.org's table."""

    def __init__(self, adapters: Sequence[Mapping[str, Any]], verdicts: Mapping[str, AdapterVerdict],
                 kernel: Any = None, distributions: Sequence[Mapping[str, Any]] = (),
                 linuxhw: Mapping[str, Any] | None = None, chipsets: Sequence[Mapping[str, Any]] = ()):
        self.adapters: Mapping[str, Mapping[str, Any]] = {a["id"]: a for a in adapters}
        self.verdicts: Mapping[str, AdapterVerdict] = dict(verdicts)
        self.kernel = kernel
        self.chipset_names = {c["id"]: c["name"] for c in chipsets}
        # Vendor IDs of bridge-chip makers (JMicron, ASMedia, Realtek, VIA…): a product reporting the chip's own
        # default ID may be any product built on that chip, so sharing such an ID says what sharing the chip says.
        self.chip_vendors = {u["vid"] for c in chipsets for u in c.get("usb_ids", [])}
        self.maker_of_vid = {u["vid"]: c.get("maker") for c in chipsets for u in c.get("usb_ids", []) if c.get("maker")}
        self.by_id: dict[str, list[tuple[str, Mapping[str, Any]]]] = {}
        self.by_chip: dict[str, list[str]] = {}
        # Records marked as possibly one product under two names (`may_be_same_as`) never vouch for each other:
        # their agreement would be one product's evidence counted twice.
        self.not_related: dict[str, list[str]] = {a["id"]: [a["id"], *a.get("may_be_same_as", [])] for a in adapters}
        for a in adapters:
            for usb_id in a.get("usb_ids", []):
                self.by_id.setdefault(f"{usb_id['vid']}:{usb_id['pid']}", []).append((a["id"], usb_id))
            if a.get("chipset"):
                self.by_chip.setdefault(a["chipset"], []).append(a["id"])
        self.shared = {key: note for key in self.by_id if (note := self._shared_id_note(key))}
        self.shipped: dict[str, list[tuple[Mapping[str, Any], Mapping[str, Any]]]] = {}
        for dist in distributions:
            for entry in dist.get("entries", []):
                if "u" in entry.get("flags", ""):
                    self.shipped.setdefault(f"{entry['vid']}:{entry['pid']}", []).append((dist, entry))
        self.origins = self._build_origins(distributions)
        # Which shipped IDs each origin root holds entries of: a leave-one-out context filters only those.
        self.shipped_by_root: dict[str, set[str]] = {}
        for key, pairs in self.shipped.items():
            for dist, entry in pairs:
                self.shipped_by_root.setdefault(self.origins.find(_entry_node(dist, entry)), set()).add(key)
        self.linuxhw = {f"{d['vid']}:{d['pid']}": d for d in (linuxhw or {}).get("devices", [])}
        self._classes: dict[tuple[str, str, str], str | None] = {}
        self._groups: dict[Any, dict[str, list[str]]] = {}
        self._member_sets: dict[int, tuple[list[str], frozenset]] = {}
        self._product_origins: dict[tuple[str, str], frozenset] = {}
        # Who cites which source (to hide every copy of a hidden report), and which records are one product.
        self.citing: dict[str, set] = {}
        for a in adapters:
            for r in a.get("reports", []):
                url = (r.get("source") or {}).get("url")
                if url:
                    self.citing.setdefault(source_key(url), set()).add(a["id"])
        self.same_product: dict[str, list[str]] = {}
        for adapter_id in self.adapters:
            self.same_product.setdefault(self.origins.find(f"product:{adapter_id}"), []).append(adapter_id)
        self._evaluation: dict[str, Any] | None = None
        self._policy: dict[str, Any] | None = None
        self._policy_set = False
        # A leave-one-out context (`without`) asks its parent about the products it did not change.
        self._parent: Related | None = None
        self._changed: frozenset = frozenset()

    def _build_origins(self, distributions: Sequence[Mapping[str, Any]]) -> _UnionFind:
        """Which evidence shares an origin (count origins, not entries): a distribution entry is one with the
        sources it cites and with the same ID's entry in a list it says it copies or follows (its notes or reason
        name that list); records marked `may_be_same_as` each other, or whose notes say they may be the same product,
        are one product."""
        uf = _UnionFind()
        for adapter_id, adapter in self.adapters.items():
            for twin in adapter.get("may_be_same_as", []):
                if twin in self.adapters:
                    uf.union(f"product:{adapter_id}", f"product:{twin}")
            notes = " ".join(str(adapter.get("notes") or "").split())
            for sentence in re.split(r"(?<=[.;])\s+", notes):
                if _SAME_PRODUCT.search(sentence):
                    for token in re.findall(r"[a-z0-9][a-z0-9-]*[a-z0-9]", sentence):
                        if token != adapter_id and token in self.adapters:
                            uf.union(f"product:{adapter_id}", f"product:{token}")
        by_key: dict[str, list[tuple[Mapping[str, Any], Mapping[str, Any]]]] = {}
        for dist in distributions:
            for entry in dist.get("entries", []):
                key = f"{entry['vid']}:{entry['pid']}"
                by_key.setdefault(key, []).append((dist, entry))
                for source in entry_sources(entry):
                    uf.union(_entry_node(dist, entry), f"src:{source}")
        for pairs in by_key.values():
            for (d, e), (other, other_entry) in itertools.permutations(pairs, 2):
                if d["id"] != other["id"] and _mentions(" ".join([str(d.get("notes") or ""), str(e.get("reason") or "")]), other):
                    uf.union(_entry_node(d, e), _entry_node(other, other_entry))
        return uf

    def product_origin(self, adapter_id: str, platform: str, adapter: Mapping[str, Any] | None = None) -> frozenset:
        """What a product's verdict on a platform rests on, as origin roots: the product (with the records marked
        as possibly the same product) and the sources its reports there cite."""
        if adapter is not None and adapter is not self.adapters.get(adapter_id):
            return self._product_origin(adapter_id, platform, adapter)
        if self._parent is not None and adapter_id not in self._changed:
            return self._parent.product_origin(adapter_id, platform)  # a leave-one-out context: unchanged
        key = (adapter_id, platform)
        if key not in self._product_origins:
            self._product_origins[key] = self._product_origin(adapter_id, platform, self.adapters[adapter_id])
        return self._product_origins[key]

    def _product_origin(self, adapter_id: str, platform: str, record: Mapping[str, Any]) -> frozenset:
        hosts = set(PLATFORMS[platform]["hosts"])
        find = self.origins.find
        return frozenset([find(f"product:{adapter_id}")] + [
            find(f"src:{source_key(r['source']['url'])}") for r in record.get("reports", [])
            if r.get("host") in hosts and (r.get("source") or {}).get("url")])

    def _shared_id_note(self, key: str) -> str | None:
        """Why products sharing this USB ID are not known to be the same hardware, or None: the ID's products name
        two or more bridge chips, or two drive interfaces (SATA and NVMe) no one bridge of theirs takes both of.
        Such an ID (often a bridge maker's default, which any product on the maker's chips may report) says what
        sharing a chip says: a hint, never a decision."""
        members = [self.adapters[m] for m, _ in self.by_id.get(key, [])]
        chips = sorted({a["chipset"] for a in members if a.get("chipset")})
        families = [DRIVE_FAMILIES[a["drive_interface"]] for a in members if a.get("drive_interface") in DRIVE_FAMILIES]
        split_drives = any(not (f & g) for f, g in itertools.combinations(families, 2))
        if len(chips) < 2 and not split_drives:
            return None
        vid = key.split(":")[0]
        maker = self.maker_of_vid.get(vid)
        who = f"{maker}'s default ID" if maker and vid in self.chip_vendors else "an ID"
        used_by = []
        if split_drives:
            kinds = [k for k in ("SATA", "NVMe") if any(k in f for f in families)]
            used_by.append(f"{' and '.join(kinds)} bridges")
        if len(chips) >= 2:
            names = [self.chipset_names.get(c, c) for c in chips]
            used_by.append("the " + ", ".join(names[:-1]) + " and " + names[-1] + " chips")
        return f"{key} is {who}, used by {' and by '.join(used_by)}: what one of its products does says little about another"

    def shared_id(self, vid: str, pid: str) -> str | None:
        """The sentence saying why a USB ID is shared by different hardware (`_shared_id_note`), or None."""
        return self.shared.get(f"{vid}:{pid}")

    # -- evidence, one source at a time ----------------------------------------------------------------

    def kernel_items(self, ids: Sequence[Mapping[str, Any]], platform: str) -> list[Item]:
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

    def same_product_items(self, verdict: AdapterVerdict, platform: str, question: str,
                           adapter: Mapping[str, Any] | None = None) -> list[Item]:
        items = []
        others = BOOT_PLATFORMS if question == "boot" else UAS_PLATFORMS
        for other in others:
            if other == platform:
                continue
            pv = (verdict.boot if question == "boot" else verdict.uas).get(other)
            if pv is None:
                continue
            if question == "uas" and pv.confidence == "disputed":
                items += self._disputed_items(pv, platform, other, adapter)
                continue
            cls = boot_class(pv) if question == "boot" else transferable_uas_class(pv)
            if cls is None and question == "uas" and {platform, other} <= set(PIS) and used_uas(pv):
                cls = "works"  # its own use on the other Pi carries at least as far as one PC's failure does
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
            what = {"works": "works with UAS, no quirk", "needs-quirk": "needs a quirk or fails", "no-uas": "runs without UAS",
                    "boots": "boots", "workaround": "boots with a workaround", "no-boot": "does not boot reliably"}[cls]
            why = CROSSING.get((other, platform))
            if thin:
                what = {"works": "binds UAS", "needs-quirk": "has a quirk whose need is not shown"}.get(cls, what)
            items.append(Item(tier, cls, "same-product",
                              f"this product {what} {_on(other)} ({pv.basis_text})"
                              + ("; too thin to carry over" if thin else "")
                              + (f"; {why}" if why else ""), {"platform": other}, transferable=not thin,
                              origins=[self.product_origin(adapter["id"], other, adapter)] if adapter else None))
        return items

    def _disputed_items(self, pv: Any, platform: str, other: str, adapter: Mapping[str, Any] | None) -> list[Item]:
        """The same product's own reports on another platform point both ways ("Mixed"): one item per way, so
        the expectation says the evidence disagrees instead of taking one side."""
        by_class: dict[str, int] = {}
        for outcome, reports in pv.classes.items():
            cls = {"works": "works", "works-with-quirk": "needs-quirk", "broken": "needs-quirk",
                   "no-uas": "no-uas"}.get(outcome)
            if cls:
                by_class[cls] = by_class.get(cls, 0) + len(reports)
        why = CROSSING.get((other, platform))
        tier = 1 if {platform, other} <= set(PIS) else 2
        origins = [self.product_origin(adapter["id"], other, adapter)] if adapter else None
        what = {"works": "UAS works", "needs-quirk": "it needs a quirk or fails", "no-uas": "it runs without UAS"}
        return [Item(tier, cls, "same-product",
                     f"this product's reports {_on(other)} disagree: {what[cls]} in {plural(n, 'report')} "
                     f"({pv.basis_text})" + (f"; {why}" if why else ""), {"platform": other}, origins=origins)
                for cls, n in sorted(by_class.items())] if len(by_class) > 1 else []

    def _class(self, adapter_id: str, platform: str, question: str) -> str | None:
        """What a product's own verdict on `platform` may say about another product (transferable_uas_class)."""
        key = (adapter_id, platform, question)
        if self._parent is not None and adapter_id not in self._changed:
            return self._parent._class(adapter_id, platform, question)  # a leave-one-out context: unchanged
        if key not in self._classes:
            verdict = self.verdicts[adapter_id]
            pv = (verdict.boot if question == "boot" else verdict.uas).get(platform)
            self._classes[key] = (boot_class(pv) if question == "boot" else transferable_uas_class(pv)) if pv else None
        return self._classes[key]

    def _group(self, members: Sequence[str], platform: str, question: str, cache_key: Any) -> dict[str, list[str]]:
        """direction -> member ids whose verdict on `platform` says it; worked out once per group (a chip's group
        can hold thousands of products). A leave-one-out context takes its parent's group, the same lists, unless
        one of the few products it changed is a member and now says something else there."""
        key = (cache_key, platform, question)
        if key not in self._groups:
            parent = self._parent
            if parent is not None and not any(
                    self._class(m, platform, question) != parent._class(m, platform, question)
                    and self._member_of(m, members, cache_key) for m in self._changed):
                self._groups[key] = parent._group(members, platform, question, cache_key)
                return self._groups[key]
            groups: dict[str, list[str]] = {}
            for member in members:
                cls = self._class(member, platform, question)
                if cls:
                    groups.setdefault(cls, []).append(member)
            for listed in groups.values():
                self._member_sets[id(listed)] = (listed, frozenset(listed))
            self._groups[key] = groups
        return self._groups[key]

    def _member_of(self, adapter_id: str, members: Sequence[str], cache_key: Any) -> bool:
        """Whether a product is one of a group's members: a chip's by its record (the group can be large), an
        ID's (a short list) by looking."""
        if cache_key[0] == "chip":
            return self.adapters[adapter_id].get("chipset") == cache_key[1]
        return adapter_id in members

    def _group_items(self, groups: Mapping[str, list[str]], skip: Iterable[str], platform: str, tier: int, kind: str,
                     what_they_share: str, link: dict[str, Any]) -> list[Item]:
        skip = skip if isinstance(skip, (set, frozenset)) else set(skip)
        items = []
        for direction, members in groups.items():
            # A chip's group can hold thousands of products: count the others without copying the group, and
            # name only the first few (`count` says how many there are).
            count = len(members) - len(self._member_set(members) & skip)  # set & set walks the smaller one
            if not count:
                continue
            shown = list(itertools.islice((m for m in members if m not in skip), LINKED_PRODUCTS))
            verb = {"works": ("works", "work"), "needs-quirk": ("needs a quirk or fails", "need a quirk or fail"),
                    "no-uas": ("runs without UAS", "run without UAS"), "boots": ("boots", "boot"),
                    "workaround": ("boots with a workaround", "boot with a workaround"),
                    "no-boot": ("does not boot reliably", "do not boot reliably")}[direction][count != 1]
            who = f"{count} product{'s' if count != 1 else ''} with {what_they_share}"
            summary = f"{who} {verb} {_on(platform)}"
            origins = ([self.product_origin(m, platform) for m in members if m not in skip] if kind == "same-id"
                       else None)  # a chip's group can be large, and decides nothing: counted by products
            # The products by id only: their names are each product's own (the site looks them up), so renaming
            # one rewrites no other product's expectation.
            items.append(Item(tier, direction, kind, summary, dict(link, adapters=shown, count=count, platform=platform),
                              summary, origins=origins))
        return items

    def _member_set(self, members: list[str]) -> frozenset:
        key = id(members)
        cached = self._member_sets.get(key)
        if cached is not None and cached[0] is members:
            return cached[1]
        if self._parent is not None:  # a list a leave-one-out context did not make is one of its parent's groups
            return self._parent._member_set(members)
        cached = self._member_sets[key] = (members, frozenset(members))
        return cached[1]

    def same_id_items(self, adapter_id: str, ids: Sequence[Mapping[str, Any]], platform: str, question: str,
                      tier: int) -> list[Item]:
        items = []
        for usb_id in ids:
            key = f"{usb_id['vid']}:{usb_id['pid']}"
            members = [m for m, other_usb in self.by_id.get(key, []) if _bcd_overlaps(usb_id, other_usb)]
            groups = (self._group(members, platform, question, ("id", key)) if not usb_id.get("bcd_device")
                      else self._group(members, platform, question, ("id", key, adapter_id)))
            items += self._group_items(groups, self.not_related.get(adapter_id, [adapter_id]), platform, tier,
                                       "same-id", f"the same USB ID {key}", self._id_link(key))
        return items

    def _id_link(self, key: str) -> dict[str, Any]:
        shared = self.shared.get(key)
        return {"usb_id": key, "shared": shared} if shared else {"usb_id": key}

    def same_chip_items(self, adapter_id: str, chip: str | None, platform: str, question: str, tier: int,
                        skip: Iterable[str] = ()) -> list[Item]:
        if not chip:
            return []
        groups = self._group(self.by_chip.get(chip, []), platform, question, ("chip", chip))
        name = self.chipset_names.get(chip, chip)
        return self._group_items(groups, [*self.not_related.get(adapter_id, [adapter_id]), *skip], platform, tier,
                                 "same-chip", f"the same {name} chip",
                                 {"chipset": chip})

    def distribution_items(self, ids: Sequence[Mapping[str, Any]], platform: str,
                           hidden_urls: Iterable[str] = ()) -> list[Item]:
        find = self.origins.find
        hidden = {find(f"src:{source_key(u)}") for u in hidden_urls}
        items = []
        for usb_id in ids:
            key = f"{usb_id['vid']}:{usb_id['pid']}"
            for dist, entry in self.shipped.get(key, []):
                hosts = {HOST_PLATFORM.get(h) for h in dist.get("hosts", [])}
                origin = find(_entry_node(dist, entry))
                if platform not in hosts or origin in hidden:
                    continue  # another platform's images, or an entry resting on (or copying) a hidden report
                items.append(Item(3, "needs-quirk", "distribution",
                                  f"{dist['name']} ships {key}:{entry['flags']} on its {short_platform(platform)} images",
                                  dict({"distribution": dist["id"], "url": entry.get("added_in") or dist.get("file")},
                                       **({"shared": self.shared[key]} if key in self.shared else {})),
                                  origins=[frozenset([origin])]))
        return items

    def linuxhw_items(self, ids: Sequence[Mapping[str, Any]], platform: str) -> list[Item]:
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
                  hidden_urls: Iterable[str] = ()) -> list[Item]:
        """Every piece of related evidence: the chip's (`chip_items`) after the rest (`other_items`). Their order
        matters only among items decide() sorts alike, and those are of one kind, so in one of the two lists."""
        return self.other_items(adapter, verdict, platform, question, hidden_urls) + self.chip_items(adapter, platform, question)

    def other_items(self, adapter: Mapping[str, Any], verdict: AdapterVerdict, platform: str, question: str,
                    hidden_urls: Iterable[str] = ()) -> list[Item]:
        """The related evidence but the chip's: Linux's table, the same product elsewhere, the same USB IDs here and
        on the related platforms, distributions, linux-hardware.org."""
        ids = adapter.get("usb_ids", [])
        items: list[Item] = []
        if question == "uas":
            items += self.kernel_items(ids, platform)
        items += self.same_product_items(verdict, platform, question, adapter)
        for usb_id in ids:
            tier = 3 if usb_id["vid"] in self.chip_vendors else 2
            items += self.same_id_items(adapter["id"], [usb_id], platform, question, tier)
        if question == "uas":
            items += self.distribution_items(ids, platform, hidden_urls)
        for other in RELATED_PLATFORMS.get(platform, ()):  # the schema's `related` (x-uasdb-platforms)
            items += [_elsewhere(item, other, platform) for item in self.same_id_items(adapter["id"], ids, other, question, 4)]
        if question == "uas":
            items += self.linuxhw_items(ids, platform)
        return items

    def chip_items(self, adapter: Mapping[str, Any], platform: str, question: str) -> list[Item]:
        """The related evidence of the same bridge chip, here and on the related platforms, less the products that
        share a USB ID with this one (their items say it already)."""
        ids = adapter.get("usb_ids", [])
        sharing = {other for usb_id in ids for other, _ in self.by_id.get(f"{usb_id['vid']}:{usb_id['pid']}", [])}
        items = self.same_chip_items(adapter["id"], adapter.get("chipset"), platform, question, 3, skip=sharing)
        for other in RELATED_PLATFORMS.get(platform, ()):
            items += [_elsewhere(item, other, platform) for item in
                      self.same_chip_items(adapter["id"], adapter.get("chipset"), other, question, 4, skip=sharing)]
        return items

    def expect(self, adapter: Mapping[str, Any], verdict: AdapterVerdict, platform: str, question: str,
               hidden_urls: Iterable[str] = ()) -> Expectation:
        """The expectation as published: `raw_expect`, held to what the leave-one-out evaluation supports
        (`publish_policy`): "strong" only for a level that earned it, and no expectation from a kind of evidence
        that has not beaten the majority-class baseline (its items are shown, with why)."""
        return apply_policy(self.raw_expect(adapter, verdict, platform, question, hidden_urls), self.policy)

    def raw_expect(self, adapter: Mapping[str, Any], verdict: AdapterVerdict, platform: str, question: str,
                   hidden_urls: Iterable[str] = ()) -> Expectation:
        """The expectation the related evidence gives, before the evaluation's policy: what evaluate() grades."""
        return decide(platform, question, self.items_for(adapter, verdict, platform, question, hidden_urls))

    @property
    def evaluation(self) -> dict[str, Any]:
        """evaluate(self), worked out once."""
        if self._evaluation is None:
            self._evaluation = evaluate(self)
        return self._evaluation

    @property
    def policy(self) -> dict[str, Any] | None:
        """publish_policy of this context's own evaluation, unless use_policy set one (None: say everything)."""
        if not self._policy_set:
            self._policy, self._policy_set = publish_policy(self.evaluation), True
        return self._policy

    def use_policy(self, policy: dict[str, Any] | None) -> None:
        self._policy, self._policy_set = policy, True

    def without(self, adapter_id: str, platform: str) -> tuple[Related, Mapping[str, Any], list[str]]:
        """This context with a product's reports on a platform hidden, and every copy of them: the reports of
        records marked as possibly the same product there, every report (of any product, on any platform) citing
        a hidden source, and every distribution entry resting on or copying one. Returns the context, the
        hidden product's record and the hidden source keys."""
        import copy
        hosts = set(PLATFORMS[platform]["hosts"])
        twins = self.same_product[self.origins.find(f"product:{adapter_id}")]
        keys = {source_key(r["source"]["url"]) for twin in twins for r in self.adapters[twin].get("reports", [])
                if r.get("host") in hosts and (r.get("source") or {}).get("url")}
        touched = set(twins) | {a for key in keys for a in self.citing.get(key, ())}
        # Only the touched products change: the context reads the rest from this one (`_Overlay`, `_parent`).
        records: dict[str, Mapping[str, Any]] = {}
        verdicts: dict[str, AdapterVerdict] = {}
        for other in sorted(touched):
            record = self.adapters[other]
            kept = [r for r in record.get("reports", [])
                    if not (other in twins and r.get("host") in hosts)
                    and source_key((r.get("source") or {}).get("url") or "-") not in keys]
            if len(kept) != len(record.get("reports", [])):
                records[other] = dict(record, reports=kept)
                if other != adapter_id:  # the hidden product's verdicts elsewhere stay: only this cell is graded
                    verdicts[other] = adapter_verdict(records[other])
        if adapter_id not in records:
            records[adapter_id] = dict(self.adapters[adapter_id], reports=[
                r for r in self.adapters[adapter_id].get("reports", []) if r.get("host") not in hosts])
        clone = copy.copy(self)
        clone.adapters, clone.verdicts = _Overlay(self.adapters, records), _Overlay(self.verdicts, verdicts)
        find = self.origins.find
        hidden_roots = {find(f"src:{key}") for key in keys}
        filtered = {key for root in hidden_roots for key in self.shipped_by_root.get(root, ())}
        if filtered:
            clone.shipped = dict(self.shipped)
            for key in filtered:
                clone.shipped[key] = [(d, e) for d, e in self.shipped[key] if find(_entry_node(d, e)) not in hidden_roots]
        clone._classes, clone._groups, clone._member_sets, clone._product_origins = {}, {}, {}, {}
        clone._parent, clone._changed = self, frozenset(records)
        clone._evaluation, clone._policy, clone._policy_set = None, None, True  # graded raw, never published
        return clone, clone.adapters[adapter_id], sorted(keys)

    def expect_for_id(self, usb_id: Mapping[str, Any], platform: str, question: str = "uas") -> Expectation:
        """An ID-level expectation: what the ID's products, the kernel, distributions and chips say, held to what
        the evaluation supports (apply_policy)."""
        return apply_policy(self.raw_expect_for_id(usb_id, platform, question), self.policy)

    def raw_expect_for_id(self, usb_id: Mapping[str, Any], platform: str, question: str = "uas") -> Expectation:
        """expect_for_id before the evaluation's policy."""
        ids = [usb_id]
        key = f"{usb_id['vid']}:{usb_id['pid']}"
        items = self.kernel_items(ids, platform) if question == "uas" else []
        members = [m for m, _ in self.by_id.get(key, [])]
        items += self._group_items(self._group(members, platform, question, ("id", key)), [], platform,
                                   3 if usb_id["vid"] in self.chip_vendors else 2, "same-id", "this USB ID",
                                   self._id_link(key))
        if question == "uas":
            items += self.distribution_items(ids, platform)
            items += self.linuxhw_items(ids, platform)
        return decide(platform, question, items)


PIS = ("pi4", "pi5")
# Independent origins (origin_groups: products, this product elsewhere, distribution entries, never two copies of one),
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
    if not item.transferable or item.link.get("shared"):
        return "context"  # too thin, or an ID shared by different hardware (Related.shared_id): a hint like the chip
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


def origin_groups(items: list[Item]) -> list[frozenset]:
    """The independent origins these items rest on: every product, entry or platform they speak for, merged where
    they share a root (a report's source, a list copied from another, records that may be one product). Items
    without traced origins count as their `count` products (same-chip) or as one (kernel, linux-hardware.org)."""
    atoms: list[frozenset] = []
    for n, item in enumerate(items):
        if item.origins is not None:
            atoms += item.origins
        else:
            atoms += [frozenset([f"untraced:{n}:{k}"]) for k in range(max(1, item.link.get("count", 1)))]
    groups = _merged(atoms)
    return [frozenset(g) for _, g in sorted(groups.items())]


def _traced_groups(items: list[Item]) -> list[set]:
    """origin_groups of the items whose origins are traced. An untraced item's origins are atoms of their own
    (`untraced:<n>:<k>`) that merge with nothing, so origin_groups is these plus one group per untraced atom."""
    atoms = [atom for item in items if item.origins is not None for atom in item.origins]
    return list(_merged(atoms).values())


def _merged(atoms: list[frozenset]) -> dict[str, set]:
    """The atoms' keys grouped: two keys in one group when an atom holds both, or through a chain of atoms (by the
    group's representative key)."""
    uf = _UnionFind()
    for atom in atoms:
        ordered = sorted(atom)
        for key in ordered:
            uf.union(ordered[0], key)
    groups: dict[str, set] = {}
    for atom in atoms:
        for key in atom:
            groups.setdefault(uf.find(key), set()).add(key)
    return groups


def source_count(items: list[Item]) -> int:
    """How many independent origins these items are: len(origin_groups(items)), without spelling out an untraced
    item's `count` atoms (a chip's group can hold thousands of products)."""
    return len(_traced_groups(items)) + sum(max(1, item.link.get("count", 1)) for item in items if item.origins is None)


@functools.lru_cache(maxsize=256)
def _untraced_labels(count: int) -> list[str]:
    return sorted(f"untraced:0:{k}" for k in range(count))


def origin_labels(items: list[Item]) -> list[str]:
    """sorted(min(g) for g in origin_groups(items)), the labels evaluate() keeps per cell and per item.
    One untraced item (a chip's group) gets the one list its count spells, shared between every cell that has it,
    which nobody changes: per item and cell, the labels cost a chip's group size in memory otherwise."""
    if len(items) == 1 and items[0].origins is None:
        return _untraced_labels(max(1, items[0].link.get("count", 1)))
    return sorted([min(group) for group in _traced_groups(items)]
                  + [f"untraced:{n}:{k}" for n, item in enumerate(items) if item.origins is None
                     for k in range(max(1, item.link.get("count", 1)))])


def opposite(a: str, b: str) -> bool:
    """Directions that contradict each other: works against trouble (a quirk, a failure, usb-storage by itself),
    boots against not booting."""
    trouble = {"needs-quirk", "no-uas"}
    return (a == "works" and b in trouble) or (b == "works" and a in trouble) or {a, b} == {"boots", "no-boot"}


def decide(platform: str, question: str, items: list[Item]) -> Expectation:
    """The expectation from the items that may decide (`decides`); the rest are shown as context. A kernel
    entry is a fact. Deciding items that disagree give no expectation ("related evidence disagrees"), and so does
    a hint of the same product, ID or a distribution against the deciding ones. Strong: STRONG_SOURCES independent sources agree and nothing related says otherwise;
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
    # Even-handed: evidence pointing both ways gives no expectation, whichever side has more or its own product;
    # so does a hint of the same product, USB ID or a distribution in the opposite direction (a shared ID's
    # sibling, say), though a hint alone decides nothing.
    against = [i for i in context if i.transferable and i.kind in ("same-product", "same-id", "distribution")
               and i.tier <= 3 and any(opposite(i.direction, d) for d in directions)]
    if len(directions) > 1 or against:
        return Expectation(platform, question, "disagree", None, None, deciding + context)
    direction = directions.pop()
    strong = source_count(deciding) >= STRONG_SOURCES and not any(i.direction != direction for i in context)
    if question == "boot" and any(i.kind != "same-product" for i in deciding):
        strong = False  # a boot rests on the bootloader release, the drive and power more than on the bridge
    return Expectation(platform, question, "expected", direction, "strong" if strong else "weak", deciding + context)


# -- leave-one-out evaluation ----------------------------------------------------------------------------

# A level is published as "strong" only when the evaluation shows it right this often on this many independent
# cells (cells whose deciding evidence shares no origin); a kind of evidence gives an expectation only when it was
# graded on MIN_KIND_CELLS cells and beat the majority-class baseline on them.
STRONG_AGREEMENT, STRONG_CELLS, MIN_KIND_CELLS = 0.9, 20, 5
LEADS = ("kernel", "same-product", "same-id", "distribution", "same-chip", "linuxhw")


def lead_kind(expectation: Expectation, platform: str) -> str | None:
    """The kind of evidence an expectation rests on: the first of LEADS among its deciding items; same-ID
    products seen only on another platform are a kind of their own ("same-id-elsewhere"), since what predicts on
    one platform is not shown to predict on another."""
    deciding = [i for i in expectation.basis if role(i, platform, expectation.question) == "decide"]
    kinds = {i.kind for i in deciding}
    lead = next((k for k in LEADS if k in kinds), None)
    if lead == "same-id" and all(i.link.get("platform") != platform for i in deciding if i.kind == "same-id"):
        return "same-id-elsewhere"
    return lead


def evaluate(related: Related) -> dict[str, Any]:
    """Leave-one-out: for every product and platform with a counted verdict an expectation can match, hide that
    product's reports on that platform and every copy of them (`Related.without`), expect from everything else
    (`raw_expect`, before any policy), and compare. Each cell keeps its items and their origins, so every figure
    can be audited. Shares are 0..1."""
    return summarise([cell for adapter_id in sorted(related.adapters) for cell in product_cells(related, adapter_id)])


def product_cells(related: Related, adapter_id: str) -> list[dict[str, Any]]:
    """One product's cells of the leave-one-out evaluation (evaluate), in the order evaluate lists them."""
    contexts: dict[str, tuple[Related, Mapping[str, Any]]] = {}
    return cells_from_pieces(related, adapter_id, cell_pieces(related, adapter_id, contexts), contexts)


# A graded cell before its chip's items: platform, question, the truth, the hidden sources, the other items.
CellPiece = tuple[str, str, str, list[str], list[Item]]


def cell_pieces(related: Related, adapter_id: str, contexts: dict[str, tuple[Related, Mapping[str, Any]]] | None = None
                ) -> list[CellPiece]:
    """One product's graded cells, each with the evidence but the chip's (`Related.other_items`) in its
    leave-one-out context; `contexts` keeps the contexts (one per platform) for cells_from_pieces."""
    contexts = {} if contexts is None else contexts
    pieces = []
    own: dict[str, tuple[list[str], AdapterVerdict]] = {}
    verdict = related.verdicts[adapter_id]
    for question, platforms in (("uas", UAS_PLATFORMS), ("boot", BOOT_PLATFORMS)):
        for platform in platforms:
            pv = (verdict.uas if question == "uas" else verdict.boot)[platform]
            # Judged against what is known well: a success used at 5 Gbit/s, a failure shown (a bind-only
            # snapshot is itself too thin to grade a guess against).
            truth = transferable_uas_class(pv) if question == "uas" else boot_class(pv)
            if truth is None:
                continue
            if platform not in own:  # one context per platform, for its UAS and its boot cell
                context, hidden, keys = related.without(adapter_id, platform)
                contexts[platform] = (context, hidden)
                # Its verdicts elsewhere, less any report citing a hidden source (a copy of what is hidden).
                own[platform] = (keys, adapter_verdict(hidden))
            context, hidden = contexts[platform]
            keys, verdict_there = own[platform]
            pieces.append((platform, question, truth, keys, context.other_items(hidden, verdict_there, platform, question)))
    return pieces


def cells_from_pieces(related: Related, adapter_id: str, pieces: Sequence[CellPiece],
                      contexts: dict[str, tuple[Related, Mapping[str, Any]]] | None = None) -> list[dict[str, Any]]:
    """The graded cells, each decided from its piece and its chip's items in its leave-one-out context (made
    again where `contexts` has none: without() is cheap, it is the other items that cost)."""
    contexts = {} if contexts is None else contexts
    cells = []
    for platform, question, truth, keys, others in pieces:
        if platform not in contexts:
            contexts[platform] = related.without(adapter_id, platform)[:2]
        context, hidden = contexts[platform]
        expectation = decide(platform, question, others + context.chip_items(hidden, platform, question))
        if expectation.basis and expectation.basis[0].tier == 0:
            continue  # the kernel's table for today's Linux, not a guess: older reports cannot grade it
        roles = {id(i): role(i, platform, question) for i in expectation.basis}
        deciding = [i for i in expectation.basis if roles[id(i)] in ("decide", "counter")]
        cells.append({"adapter": adapter_id, "platform": platform, "question": question, "truth": truth,
                      "state": expectation.state, "expected": expectation.verdict,
                      "confidence": expectation.confidence,
                      "lead": lead_kind(expectation, platform) if expectation.state == "expected" else None,
                      "hidden_sources": keys,
                      "origins": origin_labels(deciding),
                      "items": [{"kind": i.kind, "direction": i.direction, "role": roles[id(i)],
                                 "text": i.text, "origins": origin_labels([i])}
                                for i in expectation.basis],
                      "basis": [i.text for i in expectation.basis]})
    return cells


def _share(n: int, d: int) -> float | None:
    return round(n / d, 4) if d else None


def independent(cells: Sequence[Mapping[str, Any]]) -> int:
    """How many of these cells are independent: cells whose deciding evidence shares an origin count once."""
    uf = _UnionFind()
    for n, cell in enumerate(cells):
        uf.union(f"cell:{n}", f"cell:{n}")
        for origin in cell.get("origins", []):
            uf.union(f"cell:{n}", origin)
    return len({uf.find(f"cell:{n}") for n in range(len(cells))})


ANSWERS = ("works", "needs-quirk", "no-uas", "boots", "workaround", "no-boot", "disagree", "hints", "none")


def _answer(cell: Mapping[str, Any]) -> str:
    return cell["expected"] if cell["state"] == "expected" else cell["state"]


def summarise(cells: list[dict[str, Any]]) -> dict[str, Any]:
    def block(subset: list[dict[str, Any]]) -> dict[str, Any]:
        # Answered: an expectation, or "related evidence disagrees" (as the report says); hints alone are not.
        answered = [c for c in subset if c["state"] in ("expected", "disagree")]
        expected = [c for c in subset if c["state"] == "expected"]
        right = [c for c in expected if c["expected"] == c["truth"]]
        opposite_ = [c for c in expected if (c["expected"], c["truth"]) in OPPOSITE]
        by_conf = {}
        for level in ("strong", "weak"):
            at = [c for c in expected if c["confidence"] == level]
            by_conf[level] = {"cells": len(at), "independent": independent(at),
                              "agreement": _share(sum(c["expected"] == c["truth"] for c in at), len(at))}
        truths = [c["truth"] for c in subset]
        majority = max(sorted(set(truths)), key=truths.count) if truths else None
        pairs = Counter((c["truth"], _answer(c)) for c in subset)  # one pass, not one per truth and answer
        matrix = {t: {a: pairs[t, a] for a in ANSWERS if pairs[t, a]} for t in sorted(set(truths))}
        by_direction = {}
        for d in sorted({c["expected"] for c in expected}):
            at = [c for c in expected if c["expected"] == d]
            by_direction[d] = {"cells": len(at), "right": sum(c["truth"] == d for c in at),
                               "agreement": _share(sum(c["truth"] == d for c in at), len(at))}
        truth_counts = {t: truths.count(t) for t in sorted(set(truths))}
        return {"cells": len(subset), "coverage": _share(len(answered), len(subset)),
                "expected": len(expected), "disagree": sum(c["state"] == "disagree" for c in subset),
                "agreement": _share(len(right), len(expected)),
                "agreement_by_confidence": {k: v["agreement"] for k, v in by_conf.items()},
                "cells_by_confidence": {k: v["cells"] for k, v in by_conf.items()},
                "independent_by_confidence": {k: v["independent"] for k, v in by_conf.items()},
                "opposite_errors": _share(len(opposite_), len(expected)),
                "truths": truth_counts, "matrix": matrix, "by_direction": by_direction,
                # The rule to beat: always say what is commonest here ("always needs a quirk").
                "baseline": {"says": majority, "right": truths.count(majority) if majority else 0,
                             "cells": len(subset), "agreement": _share(truths.count(majority), len(subset))
                             if majority else None,
                             "on_expected": _share(sum(c["truth"] == majority for c in expected), len(expected))}}
    result = block(cells)
    result["by_platform"] = {}
    for question, platforms in (("uas", UAS_PLATFORMS), ("boot", BOOT_PLATFORMS)):
        for platform in platforms:
            subset = [c for c in cells if c["platform"] == platform and c["question"] == question]
            if subset:
                result["by_platform"][f"{question}:{platform}"] = block(subset)
    result["by_question"] = {q: block([c for c in cells if c["question"] == q]) for q in ("uas", "boot")}
    result["by_kind"] = _by_kind(cells, result["by_platform"])
    result["wrong"] = [c for c in cells if c["state"] == "expected" and c["expected"] != c["truth"]]
    result["cells_detail"] = cells
    result["rules"] = {"strong_agreement": STRONG_AGREEMENT, "strong_cells": STRONG_CELLS,
                       "min_kind_cells": MIN_KIND_CELLS}
    return result


def _by_kind(cells: list[dict[str, Any]], blocks: Mapping[str, Any]) -> dict[str, Any]:
    """Per question, kind of evidence and direction: how often it was right, against how often the baseline of
    each cell's platform (always the commonest answer there) is right on those same products' platforms."""
    out: dict[str, Any] = {}
    for cell in cells:
        if cell["state"] != "expected" or not cell.get("lead"):
            continue
        key = f"{cell['question']}:{cell['lead']}:{cell['expected']}"
        slot = out.setdefault(key, {"question": cell["question"], "kind": cell["lead"],
                                    "direction": cell["expected"], "cells": 0, "right": 0, "baseline_right": 0.0})
        slot["cells"] += 1
        slot["right"] += cell["expected"] == cell["truth"]
        slot["baseline_right"] += blocks[f"{cell['question']}:{cell['platform']}"]["baseline"]["agreement"] or 0
    for slot in out.values():
        slot["agreement"] = _share(slot["right"], slot["cells"])
        slot["baseline"] = round(slot.pop("baseline_right") / slot["cells"], 4)
        slot["beats_baseline"] = slot["cells"] >= MIN_KIND_CELLS and slot["agreement"] > slot["baseline"]
    return dict(sorted(out.items()))


def publish_policy(result: Mapping[str, Any]) -> dict[str, Any]:
    """What the evaluation lets the site say: per question whether "strong" is earned (STRONG_AGREEMENT on
    STRONG_CELLS independent cells), and which (question, kind, direction) beat the baseline."""
    strong = {}
    for question, block in result.get("by_question", {}).items():
        agreement = block["agreement_by_confidence"]["strong"]
        strong[question] = bool(agreement is not None and agreement >= STRONG_AGREEMENT
                                and block["independent_by_confidence"]["strong"] >= STRONG_CELLS)
    kinds = {key for key, slot in result.get("by_kind", {}).items() if slot["beats_baseline"]}
    baselines = {key: (b["baseline"]["says"], b["baseline"]["agreement"]) for key, b in result.get("by_platform", {}).items()}
    return {"strong": strong, "kinds": kinds, "baselines": baselines}


def apply_policy(expectation: Expectation, policy: Mapping[str, Any] | None) -> Expectation:
    """An expectation as the site may say it: a kernel fact as it is; otherwise "strong" only where earned, and
    none at all (state "hints", its evidence shown, with why) from a kind of evidence that has not beaten the
    baseline."""
    if policy is None or expectation.state != "expected" or (expectation.basis and expectation.basis[0].tier == 0):
        return expectation
    kind = lead_kind(expectation, expectation.platform)
    key = f"{expectation.question}:{kind}:{expectation.verdict}"
    if key not in policy["kinds"]:
        words = {"same-product": "the same product elsewhere", "same-id": "products with the same USB ID",
                 "same-id-elsewhere": "products with the same USB ID on another platform",
                 "distribution": "distributions' quirk lists", "same-chip": "the same chip"}.get(kind or "", kind)
        short = (UAS_CLASSES if expectation.question == "uas" else BOOT_CLASSES)[expectation.verdict or ""]
        note = (f"what is known is listed, but {words} pointing this way ({short}) has not been right more often than "
                "always giving the commonest answer, on the products where it could be checked (see /verdicts/), "
                "so it does not predict")
        return Expectation(expectation.platform, expectation.question, "hints", None, None, expectation.basis, note)
    if expectation.confidence == "strong" and not policy["strong"].get(expectation.question):
        return Expectation(expectation.platform, expectation.question, "expected", expectation.verdict, "weak",
                           expectation.basis)
    return expectation


def open_cells(verdict: AdapterVerdict) -> list[tuple[str, str]]:
    """(platform, question) pairs without an observed or stated verdict: where an expectation is shown."""
    cells = [(p, "uas") for p in UAS_PLATFORMS if verdict.uas[p].confidence not in ("confirmed", "disputed")]
    cells += [(p, "boot") for p in BOOT_PLATFORMS if verdict.boot[p].confidence not in ("confirmed", "disputed")]
    return cells


# What expectations() worked out, for coverage() to count: (product, platform, question) -> (read_fields, state).
Known = dict[tuple[str, str, str], tuple[tuple, str]]


def read_fields(adapter: Mapping[str, Any]) -> tuple:
    """What the expectations read of a product's record or page entry: its IDs, chip and reports' hosts and
    sources (items_for, product_origin). Two with the same fields get the same expectations."""
    return (adapter.get("usb_ids"), adapter.get("chipset"),
            [(r.get("host"), (r.get("source") or {}).get("url")) for r in adapter.get("reports", [])])


def expectations(adapter: Mapping[str, Any], verdict: AdapterVerdict, related: Related,
                 known: Known | None = None) -> dict[str, dict[str, Any]]:
    """{"uas": {platform: expectation}, "boot": {...}} for the open cells of one product; each one's state kept in
    `known`."""
    out: dict[str, dict[str, Any]] = {"uas": {}, "boot": {}}
    for platform, question in open_cells(verdict):
        expectation = related.expect(adapter, verdict, platform, question)
        if known is not None:
            known[adapter["id"], platform, question] = (read_fields(adapter), expectation.state)
        out[question][platform] = expectation.as_dict()
    return out


def coverage(related: Related, known: Known | None = None) -> dict[str, Any]:
    """Per platform, the share of products with a verdict from reports (any, hearsay included), an expectation,
    or an explicit "related evidence disagrees": what a reader of each product page gets. A product with a
    verdict is counted as such even when an expectation is shown beside an unverified one. What `known` holds for
    a product whose page entry reads as its record is not worked out again."""
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
                seen = known.get((adapter_id, platform, question)) if known else None
                counts[seen[1] if seen is not None and seen[0] == read_fields(adapter)
                       else related.expect(adapter, verdict, platform, question).state] += 1
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


def _percent(share: float | None) -> str:
    return "—" if share is None else f"{100 * share:.0f}%"


def _answer_words(answer: str) -> str:
    return {"works": "works", "needs-quirk": "needs a quirk", "no-uas": "usb-storage by itself", "boots": "boots",
            "workaround": "boots with a workaround", "no-boot": "does not boot", "disagree": "evidence disagrees",
            "hints": "hints only", "none": "nothing related"}[answer]


def platform_words(key: str, block: Mapping[str, Any]) -> list[str]:
    """One platform's evaluation in a buyer's words: what the reports say, what always giving the commonest
    answer would score, what the expectations scored, per direction."""
    question, platform = key.split(":")
    where = f"{'UAS' if question == 'uas' else 'booting'} {_on(platform)}"
    truths = ", ".join(f"{_answer_words(t)} for {n}" for t, n in block["truths"].items())
    base = block["baseline"]
    lines = [f"{plural(block['cells'], 'product')} {'has' if block['cells'] == 1 else 'have'} a verdict for "
             f"{where} to check against; their reports say {truths}."]
    if base["says"]:
        lines.append(f"Always saying \"{_answer_words(base['says'])}\" would be right for {base['right']} of "
                     f"{base['cells']} ({_percent(base['agreement'])}).")
    if block["expected"]:
        per = "; ".join(f"\"{_answer_words(d)}\" right {v['right']} of {v['cells']}"
                        for d, v in block["by_direction"].items())
        lines.append(f"With their own reports hidden, {block['expected']} got an expectation, right "
                     f"{_percent(block['agreement'])} ({per}); always saying \"{_answer_words(base['says'])}\" "
                     f"would have been right on {_percent(base['on_expected'])} of those same products.")
    else:
        lines.append("With their own reports hidden, none got an expectation.")
    return lines


def evaluation_text(result: Mapping[str, Any], products: Mapping[str, Any]) -> str:
    """`uasdb verdicts --evaluate` in words: per platform the confusion matrix (truth by answer), the baseline
    and the agreement per direction and level; which kinds of evidence beat the baseline; coverage."""
    conf, n = result["agreement_by_confidence"], result["cells_by_confidence"]
    ind = result["independent_by_confidence"]
    lines = [f"Leave-one-out over {result['cells']} cells (a product and platform with a verdict an expectation can "
             "be judged against: a success used at 5 Gbit/s, a failure shown, a boot outcome), each product's "
             "reports there hidden with every copy of them:",
             f"  coverage     {_percent(result['coverage'])} get an expectation or \"related evidence disagrees\"",
             f"  agreement    {_percent(result['agreement'])} of {result['expected']} expectations "
             f"(strong {_percent(conf['strong'])} of {n['strong']}, {ind['strong']} independent; "
             f"weak {_percent(conf['weak'])} of {n['weak']}, {ind['weak']} independent)",
             f"  opposite-direction errors  {_percent(result['opposite_errors'])} of the expectations",
             "  per platform:"]
    for key, block in result["by_platform"].items():
        base = block["baseline"]
        per = ", ".join(f"{d} {v['right']}/{v['cells']}" for d, v in block["by_direction"].items()) or "none"
        lines.append(f"    {key:11} {block['cells']:3} cells, coverage {_percent(block['coverage'])}, "
                     f"agreement {_percent(block['agreement'])} of {block['expected']} ({per}); "
                     f"baseline \"always {base['says']}\" {base['right']}/{base['cells']} "
                     f"({_percent(base['agreement'])}), on the expected cells {_percent(base['on_expected'])}")
        answers = [a for a in ANSWERS if any(a in row for row in block["matrix"].values())]
        lines.append("      truth \\ expectation  " + "  ".join(f"{a:>11}" for a in answers))
        for truth, row in block["matrix"].items():
            lines.append(f"      {truth:21}" + "  ".join(f"{row.get(a, 0):>11}" for a in answers))
    lines.append("  kinds of evidence (question:kind:direction, right/cells vs the baseline on those cells):")
    for key, slot in result["by_kind"].items():
        lines.append(f"    {key:34} {slot['right']}/{slot['cells']} ({_percent(slot['agreement'])}) vs "
                     f"{_percent(slot['baseline'])}: {'shown' if slot['beats_baseline'] else 'not shown (does not beat it)'}")
    policy = publish_policy(result)
    lines.append("  strong published: " + ", ".join(f"{q} {'yes' if ok else 'no'}" for q, ok in policy["strong"].items())
                 + f" (needs {_percent(STRONG_AGREEMENT)} on {STRONG_CELLS} independent cells)")
    if result["wrong"]:
        lines.append("  wrong:")
        for cell in result["wrong"]:
            lines.append(f"    {cell['adapter']} {cell['question']} {cell['platform']}: expected {cell['expected']} "
                         f"({cell['confidence']}, {cell['lead']}), reports say {cell['truth']}")
    lines.append("Products with a verdict from reports, an expectation or \"related evidence disagrees\" (as published):")
    for key, block in products.items():
        lines.append(f"    {key:11} {_percent(block['share'])} of {block['products']} (verdict {block['verdict']}, "
                     f"expected {block['expected']}, disagree {block['disagree']}, hints only {block['hints']}, "
                     f"nothing {block['none']})")
    return "\n".join(lines)


def evaluation_page(result: Mapping[str, Any], products: Mapping[str, Any]) -> dict[str, Any]:
    """The evaluation as /verdicts/ and /api/v1/evaluation.json carry it: the figures (without the per-cell
    detail, which `uasdb verdicts --evaluate --json` prints), what the site publishes because of them, and the
    same in words: per platform the sentences and the confusion matrix rows (what the reports say by what the
    expectation said), per kind of evidence whether it beat the baseline."""
    policy = publish_policy(result)
    platforms = []
    for key, block in result["by_platform"].items():
        answers = [a for a in ANSWERS if any(a in row for row in block["matrix"].values())]
        question, platform = key.split(":")
        platforms.append({
            "key": key, "label": f"{'UAS' if question == 'uas' else 'Booting'} {_on(platform)}",
            "sentences": platform_words(key, block),
            "answers": [_answer_words(a) for a in answers],
            "rows": [{"truth": _answer_words(t), "counts": [row.get(a, 0) for a in answers],
                      "right": [a == t for a in answers]} for t, row in block["matrix"].items()]})
    kinds = [{"key": key, "question": slot["question"], "label": KIND_WORDS.get(slot["kind"], slot["kind"]),
              "direction": _answer_words(slot["direction"]), "right": slot["right"], "cells": slot["cells"],
              "agreement": _percent(slot["agreement"]), "baseline": _percent(slot["baseline"]),
              "shown": slot["beats_baseline"]} for key, slot in result["by_kind"].items()]
    strong = [f"{'UAS' if q == 'uas' else 'booting'}: "
              + (f"strong is published (right {_percent(b['agreement_by_confidence']['strong'])} on "
                 f"{b['independent_by_confidence']['strong']} independent products)" if policy["strong"].get(q)
                 else f"no expectation is called strong: strong ones were right "
                      f"{_percent(b['agreement_by_confidence']['strong'])} of {b['cells_by_confidence']['strong']}, "
                      f"{b['independent_by_confidence']['strong']} of them independent, short of "
                      f"{_percent(STRONG_AGREEMENT)} on {STRONG_CELLS}")
              for q, b in result["by_question"].items()]
    out = {k: v for k, v in result.items() if k != "cells_detail"}
    out["products"] = products
    out["page"] = {"platforms": platforms, "kinds": kinds, "strong": strong}
    return out


KIND_WORDS = {"same-product": "The same product on another platform", "same-id": "Products with the same USB ID",
              "same-id-elsewhere": "Products with the same USB ID, on another platform",
              "distribution": "Distributions' quirk lists", "same-chip": "The same bridge chip",
              "linuxhw": "linux-hardware.org", "kernel": "Linux's own table"}


def with_expectations(site: Mapping[str, Any], records: list[dict[str, Any]], verdict_by_id: dict[str, Any],
                      distributions: list[dict[str, Any]], chipsets: list[dict[str, Any]]) -> dict[str, Any]:
    """The catalog with, where a product (or a USB ID) has no observed or stated verdict on a platform, the
    expectation built from related evidence (this module), under `expected`; and how often such expectations
    are right (leave-one-out) with how many products they reach, under `expectation_evaluation`, for /verdicts/.
    Never a verdict: nothing here touches `verdict`, the lists or the counts."""
    try:
        kernel, linuxhw = load_kernel(), load_linuxhw()
    except ReferenceDataError:
        kernel, linuxhw = None, None
    related = Related(records, verdict_by_id, kernel, distributions, linuxhw, chipsets)
    known: Known = {}
    adapters = [dict(adapter, expected=expectations(adapter, verdict_by_id[adapter["id"]], related, known))
                for adapter in site["adapters"]]
    usb = {key: dict(slot, expected={p: related.expect_for_id(slot, p).as_dict() for p in UAS_PLATFORMS
                                     if ((slot.get("verdict") or {}).get(p) or {}).get("verdict", "untested") == "untested"})
           for key, slot in site["usb"].items()}
    return dict(site, adapters=adapters, usb=usb, expectation_evaluation=evaluation_page(related.evaluation, coverage(related, known)))
