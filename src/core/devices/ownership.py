"""Moving devices into one of the caller's organizations and back out (issue 17, "Devices belong
to people and teams"): the device stays its owner account's; the organization's members see and
change it by their role from the next statement (adapters/persistence/devices.py decides).

Into an organization: only the device's owner, and only into an organization where their role
changes devices (its creator or an administrator), so no one puts a device where they could not
take it out again. Out of an organization: its owner, or whoever changes the organization's
devices. A device in an asset stays where it is (422): the asset's hold on its alarms is the
asset owner's to release. Shares are kept; the device leaves its project, which was the old
owner's (repository.set_organization). While FDA mode keeps a device's records (its
organization's, else its owner's), the device stays where they are (409, 2352)."""

from __future__ import annotations

from collections.abc import Sequence

from core.devices.access import OWNER_ONLY, Access, require
from core.devices.ports import DevicesUnitOfWork
from core.fda.model import Subject
from core.shared.errors import Forbidden, InvalidInput, NotFound, RecordsStayWithFdaSubject
from core.shared.messages import N_
from core.shared.ownership import may_make_in

MAX_MOVE = 200  # devices one call moves
NOT_ADMIN = N_("Only the creator or an administrator of the organization may move devices into it")
IN_ASSET = N_("{device} is in an asset: take it out of the asset first")


class ChangeOrganization:
    def __init__(self, uow: DevicesUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, device_ids: Sequence[int], organization_id: int | None) -> int:
        """All or none: a device the caller may not see is 404, one it only reads 403. The number
        of devices named (those already where they are asked to be count, unchanged)."""
        ids = list(dict.fromkeys(device_ids))
        assert 1 <= len(ids) <= MAX_MOVE  # the edge bounds the batch
        with self._uow as uow:
            registry = uow.device_registry
            organizations = registry.organizations_of(account_id)
            if organization_id is not None and organization_id not in organizations:
                raise NotFound()  # an organization the caller is not in, or none: the same answer
            devices = {d.id: d for d in registry.visible_many(account_id, ids)}
            for device_id in ids:
                found = devices.get(device_id)
                require(found.access if found else Access.NONE, Access.WRITE)
            if not may_make_in(organization_id, organizations):
                raise Forbidden(NOT_ADMIN)
            for device in devices.values():
                # into an organization: its owner only; out: its owner or who changes its organization's devices
                taking_out = organization_id is None and organizations.get(device.organization_id or 0, False)
                if not (device.owned_by(account_id) or taking_out):
                    raise Forbidden(OWNER_ONLY)
            moving = [d.id for d in devices.values() if d.organization_id != organization_id]
            kept = next((devices[i] for i in moving if uow.fda_switches.is_on(
                Subject.of_device(devices[i].owner_account_id, devices[i].organization_id))), None)
            if kept is not None:
                raise RecordsStayWithFdaSubject(device=kept.name)
            if moving and (named := registry.in_asset(moving)):
                raise InvalidInput("deviceIds", IN_ASSET, device=named[0])
            if moving:
                registry.set_organization(moving, organization_id)
            uow.commit()
        return len(ids)


__all__ = ["MAX_MOVE", "ChangeOrganization"]
