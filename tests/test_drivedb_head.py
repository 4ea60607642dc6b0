"""The drivedb lookup tries an ID only against the patterns that can match it (records/reference.py,
DriveDb.matches): it finds exactly what trying every pattern finds, in file order."""
from __future__ import annotations

import random
import re

from uasdb.records.reference import DriveDb, literal_head, load_drivedb


def _every(db: DriveDb, vid: str, pid: str) -> list:
    return [e for e in db.entries if e["_pattern"].fullmatch(f"0x{vid}:0x{pid}")]


def test_a_head_is_believed_only_when_every_match_starts_with_it():
    assert literal_head("0x0411:0x0(1[df]9|1e7)", 7) == "0x0411:"
    assert literal_head("0x0411:0x01ce|0x0480:0xa004", 7) is None   # an alternative outside parentheses
    assert literal_head("0x04.1:0x....", 7) is None                   # any character in the head
    assert literal_head("(0x0411):0x....", 7) is None
    assert literal_head("0x0411:?0x....", 7) is None                  # the head's last character made optional
    assert literal_head("0x0411:0x[]|]", 7) is None                   # a class this does not read


def test_the_lookup_finds_what_trying_every_pattern_finds():
    real = load_drivedb()
    made = DriveDb.from_dict({"drivedb_version": "t", "entries": [
        {"id_pattern": p} for p in ("0x152d:0x0578", "0x152d:0x05.8", "0x152d:0x0578|0x174c:0x55aa", "0x....:0x0578",
                                    "(0x174c|0x152d):0x55aa", "0x174c:0x55a[ab]", "0x174c:0x(55aa|1153)")]})
    rng = random.Random(0)
    ids = {(m.group(1), m.group(2)) for e in real.entries for m in [re.match(r"0x(....):0x(....)", e["id_pattern"])] if m}
    ids |= {("152d", "0578"), ("174c", "55aa"), ("174c", "1153"), ("174c", "55ab"), ("0bda", "9210")}
    ids |= {(f"{rng.randrange(1 << 16):04x}", f"{rng.randrange(1 << 16):04x}") for _ in range(300)}
    for db in (real, made):
        for vid, pid in sorted(ids):
            assert db.matches(vid, pid) == _every(db, vid, pid), (vid, pid)
    assert [e["id_pattern"] for e in made.matches("174c", "55aa")] == [
        "0x152d:0x0578|0x174c:0x55aa", "(0x174c|0x152d):0x55aa", "0x174c:0x55a[ab]", "0x174c:0x(55aa|1153)"]
