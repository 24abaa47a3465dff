"""Moving devices into an organization and out (core/devices/ownership.py) on fakes: into one only
by their owner who administers it, out by their owner or an administrator of it, all or none."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.devices.access import OWNER_ONLY, READ_ONLY
from core.devices.ownership import IN_ASSET, NOT_ADMIN, ChangeOrganization
from core.shared.errors import Forbidden, InvalidInput, NotFound
from tests.unit.test_device_registry import ADMIN, MEMBER, OWNER, STRANGER, _add, _owned_device, _uow

ACME, OTHER = 50, 60


def _world():
    uow = _uow()
    uow.device_registry.memberships = {OWNER: {ACME: True, OTHER: False}, ADMIN: {ACME: True}, MEMBER: {ACME: False}}
    return uow


def _organization(uow, device_id):
    return uow.device_registry.devices[device_id].organization_id


def test_the_owner_who_administers_an_organization_moves_devices_in_and_anyone_who_changes_them_out():
    uow = _world()
    device, second = _owned_device(uow), _add(uow, guid="RCW360A0000002").device
    uow.device_registry.devices[device.id] = replace(uow.device_registry.devices[device.id], project_id=7)
    assert ChangeOrganization(uow)(OWNER, [device.id, second.id, device.id], ACME) == 2
    assert (_organization(uow, device.id), _organization(uow, second.id)) == (ACME, ACME)
    assert uow.device_registry.devices[device.id].project_id is None  # its project was the old owner's
    assert ChangeOrganization(uow)(ADMIN, [device.id], None) == 1  # an administrator takes it out
    assert _organization(uow, device.id) is None


def test_refusals_change_nothing():
    uow = _world()
    device, second = _owned_device(uow), _add(uow, guid="RCW360A0000002").device
    refusals = [
        (MEMBER, [device.id], None, Forbidden, READ_ONLY),  # a read-only member
        (STRANGER, [device.id], None, NotFound, None),
        (OWNER, [device.id, 999], ACME, NotFound, None),  # one unseen device: none moves
        (OWNER, [device.id], 77, NotFound, None),  # an organization OWNER is not in
        (OWNER, [device.id], OTHER, Forbidden, NOT_ADMIN),  # OWNER only reads OTHER's devices
        (ADMIN, [device.id], ACME, Forbidden, OWNER_ONLY),  # ADMIN changes it but does not own it
    ]
    for account, ids, organization, error, message in refusals:
        with pytest.raises(error) as refused:
            ChangeOrganization(uow)(account, ids, organization)
        if message:
            assert refused.value.message == message
    uow.device_registry.in_assets.add(second.id)
    with pytest.raises(InvalidInput) as refused:
        ChangeOrganization(uow)(OWNER, [device.id, second.id], ACME)
    assert refused.value.problems == {"deviceIds": IN_ASSET}
    assert (_organization(uow, device.id), _organization(uow, second.id)) == (None, None)
