"""A caller's access to a device: what the device registry answers with every device it shows,
and what every use case checks before it reads or writes one.

A device the caller may not see is answered as if it did not exist (404), whether it exists or
not, so ids cannot be probed; a device the caller may see but not change is refused with 403,
which tells nothing it could not read already.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Protocol, TypeVar

from core.shared.errors import Forbidden, NotFound
from core.shared.messages import N_

READ_ONLY = N_("You have read-only access to this device")
OWNER_ONLY = N_("Only the owner of the device may do this")


class Access(IntEnum):
    NONE = 0  # not visible to the caller
    READ = 1  # a member of its organization (later also a sharee with a read-only template)
    WRITE = 2  # its owner, or its organization's creator or an administrator of it


def require(access: Access, needed: Access) -> None:
    """NotFound for a device the caller may not see, Forbidden for one it may only read when it
    needs to write."""
    if access is Access.NONE:
        raise NotFound()
    if access < needed:
        raise Forbidden(READ_ONLY)


class _HasAccess(Protocol):
    @property
    def id(self) -> int: ...

    @property
    def access(self) -> Access: ...

    def owned_by(self, account_id: int) -> bool: ...


# Any object carrying the caller's access (a Device): the model imports this module, not the reverse.
_Visible = TypeVar("_Visible", bound=_HasAccess)


def accessible(device: _Visible | None, needed: Access) -> _Visible:
    """The device (None: not visible) if the caller's access to it is at least `needed`."""
    if device is None:
        raise NotFound()
    require(device.access, needed)
    return device


def owned_devices(visible: list[_Visible], ids: list[int], account_id: int) -> list[_Visible]:
    """The devices of `ids`, in order, when the account owns each (404 for one it cannot see, 403
    for one it may not change or does not own): what only an owner does to a batch (delete,
    scrap, share, transfer; an organization's administrators change its devices, but they are
    not theirs to give away)."""
    by_id = {d.id: d for d in visible}
    if len(by_id) < len(ids):
        raise NotFound()
    devices = [accessible(by_id[i], Access.WRITE) for i in ids]
    if not all(d.owned_by(account_id) for d in devices):
        raise Forbidden(OWNER_ONLY)
    return devices
