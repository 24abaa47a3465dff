"""The one rule of who reads and who changes what an account or an organization holds besides its
devices (core/shared/ownership.py: projects and assets alike)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from core.shared.ownership import kept_apart, may_change, may_make_in, may_read

ME, OTHER, ACME, GLOBEX = 1, 2, 50, 60
# I administer ACME (change its devices) and only read GLOBEX's
MINE = {ACME: True, GLOBEX: False}


@dataclass(frozen=True)
class Thing:
    owner_account_id: int
    organization_id: int | None = None


@pytest.mark.parametrize(("thing", "reads", "changes"), [
    (Thing(ME), True, True),  # my own
    (Thing(OTHER), False, False),  # another account's own
    (Thing(OTHER, ACME), True, True),  # made by another in an organization I administer
    (Thing(ME, GLOBEX), True, False),  # made by me where I now only read: the role decides, not the maker
    (Thing(ME, 70), False, False),  # an organization I left, though I made it
])
def test_who_reads_and_who_changes(thing, reads, changes):
    assert may_read(thing, ME, MINE) is reads
    assert may_change(thing, ME, MINE) is changes


def test_who_makes_things_for_an_organization():
    assert may_make_in(None, {}) and may_make_in(ACME, MINE)
    assert not may_make_in(GLOBEX, MINE) and not may_make_in(70, MINE)


def test_a_device_stays_with_things_of_its_own_owner_s_kind():
    say = ("organization device", "personal device")
    assert kept_apart(Thing(ME), None, *say) is None
    assert kept_apart(Thing(ME, ACME), ACME, *say) is None
    assert kept_apart(Thing(ME), ACME, *say) == "organization device"
    assert kept_apart(Thing(ME, GLOBEX), ACME, *say) == "organization device"
    assert kept_apart(Thing(ME, ACME), None, *say) == "personal device"
