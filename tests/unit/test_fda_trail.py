"""The audit trail's hash chain (core.fda.trail): the document an auditor recomputes, and the
first link a verification names for each way a chain can be tampered with."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

import pytest

from core.audit.model import Change, Operation, Outcome
from core.fda.trail import GENESIS, Break, Link, LinkedEntry, document, first_broken, instant, link_hash

AT = datetime(2026, 3, 1, 8, 15, tzinfo=UTC)


def entry(operation_id: int, actor: str = "acme") -> Operation:
    return Operation(operation_id, AT + timedelta(minutes=operation_id), 3, actor, "10.0.0.1", "Device.update", "PUT",
                     Outcome.SUCCEEDED, 200)


def change(label: str) -> Change:
    return Change("device", "7", "update", {"device_name": ["Cold room", label], "upper_limit": [8.0, 7.5]}, label,
                  3, 7, 2)


def chain(length: int, key: str = "o:2") -> list[LinkedEntry]:
    """An intact chain of `length` links, entry i with change 10 * i."""
    records, previous = [], GENESIS
    for seq in range(1, length + 1):
        e, changes = entry(seq), ((10 * seq, change(f"Room {seq}")),)
        digest = link_hash(key, seq, previous, e, changes)
        records.append(LinkedEntry(Link(key, seq, e.id, e.at, (10 * seq,), previous, digest), e, changes))
        previous = digest
    return records


def test_the_document_is_sorted_compact_ascii_json_with_utc_microsecond_times():
    text = document("o:2", 1, GENESIS, entry(1, actor="Jürgen"), [(11, change("Kühlraum"))]).decode()
    assert text == (
        '{"chain":"o:2","changes":[{"deviceId":7,'
        '"fields":{"device_name":["Cold room","K\\u00fchlraum"],"upper_limit":[8.0,7.5]},'
        '"id":11,"kind":"update","label":"K\\u00fchlraum","objectId":"7","objectType":"device",'
        '"organizationId":2,"ownerAccountId":3}],'
        '"entry":{"action":"Device.update","actorAccountId":3,"actorName":"J\\u00fcrgen","at":"2026-03-01T08:16:00.000000Z",'
        '"clientAddress":"10.0.0.1","id":1,"method":"PUT","outcome":"succeeded","status":200},'
        f'"previous":"{GENESIS}","seq":1,"v":1}}')
    assert link_hash("o:2", 1, GENESIS, entry(1, actor="Jürgen"), [(11, change("Kühlraum"))]) == \
        hashlib.sha256(text.encode()).hexdigest()


def test_an_instant_is_written_in_utc_whatever_its_zone():
    shanghai = timezone(timedelta(hours=8))
    assert instant(datetime(2026, 3, 1, 16, 15, 0, 5, tzinfo=shanghai)) == "2026-03-01T08:15:00.000005Z"


def test_changes_are_hashed_in_id_order_whatever_order_they_come_in():
    pairs = [(12, change("B")), (11, change("A"))]
    assert link_hash("a:3", 1, GENESIS, entry(1), pairs) == link_hash("a:3", 1, GENESIS, entry(1), pairs[::-1])


def test_every_field_of_the_entry_and_its_changes_is_in_the_hash():
    base = link_hash("a:3", 1, GENESIS, entry(1), [(11, change("A"))])
    others = [link_hash("a:4", 1, GENESIS, entry(1), [(11, change("A"))]),
              link_hash("a:3", 2, GENESIS, entry(1), [(11, change("A"))]),
              link_hash("a:3", 1, "1" * 64, entry(1), [(11, change("A"))]),
              link_hash("a:3", 1, GENESIS, replace(entry(1), client_address="10.0.0.2"), [(11, change("A"))]),
              link_hash("a:3", 1, GENESIS, replace(entry(1), at=AT + timedelta(microseconds=1)), [(11, change("A"))]),
              link_hash("a:3", 1, GENESIS, replace(entry(1), outcome=Outcome.REFUSED), [(11, change("A"))]),
              link_hash("a:3", 1, GENESIS, entry(1), [(12, change("A"))]),
              link_hash("a:3", 1, GENESIS, entry(1), [(11, replace(change("A"), owner_account_id=4))]),
              link_hash("a:3", 1, GENESIS, entry(1), [(11, replace(change("A"), fields={"device_name": ["x", "A"]}))]),
              link_hash("a:3", 1, GENESIS, entry(1), [])]
    assert base not in others and len(set(others)) == len(others)


def test_an_intact_chain_verifies():
    assert first_broken(chain(5)) is None
    assert first_broken([]) is None


def tampered(records: list[LinkedEntry], index: int, **changes) -> list[LinkedEntry]:
    return [*records[:index], replace(records[index], **changes), *records[index + 1:]]


@pytest.mark.parametrize("case,expected", [
    ("an entry edited", (3, Break.ENTRY_CHANGED)),
    ("a change edited", (3, Break.ENTRY_CHANGED)),
    ("an entry removed", (3, Break.ENTRY_MISSING)),
    ("a change removed", (3, Break.ENTRY_MISSING)),
    ("a change slipped into the entry", (3, Break.CHANGE_ADDED)),
    ("a link removed", (5, Break.LINK_MISSING)),  # named: the link after the gap
    ("the first link removed", (2, Break.LINK_MISSING)),
    ("a link's hash rewritten", (3, Break.ENTRY_CHANGED)),
    ("a link's previous hash rewritten", (3, Break.LINK_ALTERED)),
])
def test_the_first_broken_link_is_named(case, expected):
    records = chain(5)
    third = records[2]
    if case == "an entry edited":
        records = tampered(records, 2, entry=replace(third.entry, actor_name="nobody"))
    elif case == "a change edited":
        records = tampered(records, 2, changes=((30, change("Forged")),))
    elif case == "an entry removed":
        records = tampered(records, 2, entry=None)
    elif case == "a change removed":
        records = tampered(records, 2, changes=())
    elif case == "a change slipped into the entry":
        records = tampered(records, 2, unchained=True)
    elif case == "a link removed":
        records = records[:3] + records[4:]
    elif case == "the first link removed":
        records = records[1:]
    elif case == "a link's hash rewritten":
        records = tampered(records, 2, link=replace(third.link, hash="f" * 64))
    else:
        records = tampered(records, 2, link=replace(third.link, previous_hash="f" * 64))
    broken = first_broken(records)
    assert broken is not None and (broken.seq, broken.reason) == expected
    assert broken.operation_id == broken.seq and broken.at == entry(broken.seq).at


def test_a_whole_link_recomputed_after_an_edit_still_breaks_the_next_one():
    """Whoever edits an entry and recomputes its link's hash must rewrite every later link too."""
    records = chain(4)
    third = records[2]
    forged = replace(third.entry, actor_name="nobody")
    digest = link_hash("o:2", 3, third.link.previous_hash, forged, third.changes)
    records = tampered(records, 2, entry=forged, link=replace(third.link, hash=digest))
    broken = first_broken(records)
    assert broken is not None and (broken.seq, broken.reason) == (4, Break.LINK_ALTERED)
