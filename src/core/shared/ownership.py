"""What an account or an organization holds beside its devices (projects, assets): who reads it
and who changes it. One rule for both, from the caller's organizations as the device registry
answers them (`DeviceRepository.organizations_of`): the right to change an organization's
devices is the right to change its projects and assets."""

from __future__ import annotations

from typing import Protocol, TypeVar

from core.shared.errors import Forbidden, NotFound

# The organizations an account belongs to, each with whether its role there changes the devices.
Organizations = dict[int, bool]


class Held(Protocol):
    @property
    def owner_account_id(self) -> int: ...  # its creator; the owner itself when no organization's

    @property
    def organization_id(self) -> int | None: ...  # None: its owner account's own


def may_read(thing: Held, account_id: int, organizations: Organizations) -> bool:
    """An account's own thing is its alone; an organization's is every member's to read."""
    if thing.organization_id is None:
        return thing.owner_account_id == account_id
    return thing.organization_id in organizations


def may_change(thing: Held, account_id: int, organizations: Organizations) -> bool:
    """Its owner changes an account's own thing; an organization's, those who change its devices
    (its creator and administrators): its creator too only while they do."""
    if thing.organization_id is None:
        return thing.owner_account_id == account_id
    return organizations.get(thing.organization_id, False)


class Shown(Held, Protocol):
    changeable: bool  # for the caller who read it


S = TypeVar("S", bound=Shown)


def readable(thing: S | None, account_id: int, organizations: Organizations) -> S:
    """The thing, marked changeable or not for the caller, if the caller may read it; NotFound
    otherwise (another's and a missing one alike, so ids cannot be probed)."""
    if thing is None or not may_read(thing, account_id, organizations):
        raise NotFound()
    thing.changeable = may_change(thing, account_id, organizations)
    return thing


def changeable(thing: S, read_only: str) -> S:
    """The readable thing if the caller may change it; Forbidden (`read_only`, the context's
    message) when it only reads it (a read-only member of its organization)."""
    if not thing.changeable:
        raise Forbidden(read_only)
    return thing


def may_make_in(organization_id: int | None, organizations: Organizations) -> bool:
    """Whether the account may make a thing for the organization (None: its own, always)."""
    return organization_id is None or organizations.get(organization_id, False)


def kept_apart(thing: Held, device_organization_id: int | None, organization_device: str,
               personal_device: str) -> str | None:
    """Why a device of `device_organization_id` (None: an account's own) may not go into the thing,
    None when it may: a device stays with things of the same owner (an organization's with that
    organization's, a personal one with personal ones). The two messages are the context's."""
    if device_organization_id == thing.organization_id:
        return None
    return organization_device if device_organization_id is not None else personal_device


__all__ = ["Held", "Organizations", "Shown", "changeable", "kept_apart", "may_change", "may_make_in", "may_read",
           "readable"]
