"""Permission templates, sharing devices under them, revoking, and transferring devices."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from core.devices.access import owned_devices
from core.devices.grants import Grant
from core.shared.clock import Clock
from core.shared.errors import InvalidInput, NotFound
from core.shared.paging import Page, PageRequest
from core.sharing.model import (
    END_IN_PAST,
    MAX_DEVICES,
    BuiltInTemplate,
    NoSuchAccount,
    NotYourself,
    Recipient,
    Share,
    ShareView,
    Template,
    TemplateInUse,
    TemplateNameTaken,
    TransferPreview,
    account_term,
    template_name,
)
from core.sharing.ports import Direction, SharingUnitOfWork


def _batch(device_ids: Sequence[int]) -> list[int]:
    ids = list(dict.fromkeys(device_ids))
    assert 1 <= len(ids) <= MAX_DEVICES  # the edge bounds the batch
    return ids


def _owner_rights(uow: SharingUnitOfWork, account_id: int, ids: list[int]) -> None:
    """Every device must be the caller's own to give away: one it may not see is 404, one it
    holds less on (a member, a sharee, an administrator of its organization) 403, all or
    nothing, as for one device alone."""
    owned_devices(uow.device_registry.visible_many(account_id, ids), ids, account_id)


def _recipient(uow: SharingUnitOfWork, account_id: int, term: str) -> Recipient:
    found = uow.custody.find_account(account_term(term))
    if found is None:
        raise NoSuchAccount()
    if found.account_id == account_id:
        raise NotYourself()
    return found


def _usable_template(uow: SharingUnitOfWork, account_id: int, template_id: int) -> Template:
    template = uow.templates.get(template_id)
    if template is None or not (template.built_in or template.owner_account_id == account_id):
        raise NotFound()
    return template


def _own_template(uow: SharingUnitOfWork, account_id: int, template_id: int) -> Template:
    template = _usable_template(uow, account_id, template_id)
    if template.built_in:
        raise BuiltInTemplate()
    return template


# --- templates -------------------------------------------------------------------------------


class ListTemplates:
    def __init__(self, uow: SharingUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int) -> list[Template]:
        with self._uow as uow:
            return uow.templates.usable(account_id)


@dataclass(frozen=True)
class TemplateInput:
    name: str
    grant: Grant
    template_id: int | None = None  # None: a new one


class SaveTemplate:
    """Creates (template_id None) or changes one of the caller's templates. A change applies at
    once to every share that uses it: that is what a template is for."""

    def __init__(self, uow: SharingUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, cmd: TemplateInput) -> Template:
        name = template_name(cmd.name)
        with self._uow as uow:
            if cmd.template_id is not None:
                _own_template(uow, account_id, cmd.template_id)
            if uow.templates.name_taken(account_id, name, cmd.template_id):
                raise TemplateNameTaken()
            template = Template(cmd.template_id, account_id, name, cmd.grant)
            if cmd.template_id is None:
                template = uow.templates.add(template)
            else:
                uow.templates.update(template)
            uow.commit()
            return template


class DeleteTemplate:
    def __init__(self, uow: SharingUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, template_id: int) -> None:
        with self._uow as uow:
            _own_template(uow, account_id, template_id)
            in_use = uow.templates.active_shares(template_id)
            if in_use:
                raise TemplateInUse(count=in_use)
            uow.templates.delete(template_id)
            uow.commit()


# --- shares ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShareDevices:
    device_ids: Sequence[int]
    account: str  # the sharee's user name, phone or e-mail
    template_id: int
    ends_at: datetime | None = None


class ShareWith:
    """Shares devices with one account under a template until an end time (None: until revoked).
    Sharing a device again with the same account replaces its template and end time."""

    def __init__(self, uow: SharingUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, cmd: ShareDevices) -> tuple[int, Recipient]:
        ids = _batch(cmd.device_ids)
        now = self._clock.now()
        if cmd.ends_at is not None and cmd.ends_at <= now:
            raise InvalidInput("endTime", END_IN_PAST)
        with self._uow as uow:
            _owner_rights(uow, account_id, ids)
            template = _usable_template(uow, account_id, cmd.template_id)
            assert template.id is not None
            recipient = _recipient(uow, account_id, cmd.account)
            for device_id in ids:
                current = uow.shares.current(device_id, recipient.account_id)
                if current is None:
                    uow.shares.add(Share(None, device_id, account_id, recipient.account_id, template.id, now,
                                         cmd.ends_at))
                else:
                    current.template_id, current.ends_at, current.owner_account_id = \
                        template.id, cmd.ends_at, account_id
                    uow.shares.update(current)
            uow.commit()
            return len(ids), recipient


class ListShares:
    def __init__(self, uow: SharingUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, direction: Direction, keyword: str | None,
                 request: PageRequest) -> Page[ShareView]:
        with self._uow as uow:
            return uow.shares.page(account_id, direction, (keyword or "").strip() or None, request,
                                   self._clock.now())


def _shared_by(uow: SharingUnitOfWork, account_id: int, share_id: int) -> Share:
    """A share the caller made of a device it still owns (after a transfer the share is gone)."""
    share = uow.shares.get(share_id)
    if share is None or share.revoked_at is not None or share.owner_account_id != account_id:
        raise NotFound()
    return share


class ChangeShare:
    def __init__(self, uow: SharingUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, share_id: int, template_id: int, ends_at: datetime | None) -> None:
        if ends_at is not None and ends_at <= self._clock.now():
            raise InvalidInput("endTime", END_IN_PAST)
        with self._uow as uow:
            share = _shared_by(uow, account_id, share_id)
            template = _usable_template(uow, account_id, template_id)
            assert template.id is not None
            share.template_id, share.ends_at = template.id, ends_at
            uow.shares.update(share)
            uow.commit()


class RevokeShares:
    """The sharer revokes a share, or its sharee leaves it; at once. All or nothing: a share the
    caller is neither side of is 404."""

    def __init__(self, uow: SharingUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, share_ids: Sequence[int]) -> int:
        ids = list(dict.fromkeys(share_ids))
        with self._uow as uow:
            for share_id in ids:
                share = uow.shares.get(share_id)
                if share is None or account_id not in (share.owner_account_id, share.sharee_account_id):
                    raise NotFound()
            revoked = uow.shares.revoke(ids, self._clock.now())
            uow.commit()
            return revoked


# --- transfer --------------------------------------------------------------------------------


class PreviewTransfer:
    def __init__(self, uow: SharingUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, device_ids: Sequence[int]) -> TransferPreview:
        ids = _batch(device_ids)
        with self._uow as uow:
            _owner_rights(uow, account_id, ids)
            return uow.custody.preview(ids, self._clock.now())


@dataclass(frozen=True)
class TransferDevices:
    device_ids: Sequence[int]
    account: str  # the new owner's user name, phone or e-mail


class Transfer:
    """Gives devices to another account, all or none: their history, alarms and service go with
    them, the old owner (and its organization) loses them at once, and their shares are dropped."""

    def __init__(self, uow: SharingUnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int, cmd: TransferDevices) -> tuple[int, int, Recipient]:
        ids = _batch(cmd.device_ids)
        now = self._clock.now()
        with self._uow as uow:
            _owner_rights(uow, account_id, ids)
            recipient = _recipient(uow, account_id, cmd.account)
            dropped = uow.shares.revoke_of_devices(ids, now)
            uow.custody.transfer(ids, recipient.account_id, now)
            uow.commit()
            return len(ids), dropped, recipient
