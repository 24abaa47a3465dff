"""What a caller may see and do on one device, element by element.

A device's detail is made of elements (the spec's detail tabs); a grant says, for each, whether
the caller may see it and whether it may operate it, plus whether it holds the owner's rights
(rename, delete, scrap, credentials, share, transfer, move between projects). Its owner and the
creator and administrators of its organization hold everything; another member sees everything
and operates nothing; a sharee holds what the share's permission template grants
(core/sharing). The database computes the grant with every device it returns (one integer,
`code`), so a check never needs a second read.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Protocol, TypeVar

from core.devices.access import READ_ONLY, Access
from core.shared.errors import Forbidden, NotFound
from core.shared.messages import N_

NOT_GRANTED = N_("Your permissions on this device do not include this")


class Element(IntEnum):
    """The elements of a device, in the detail's tab order; the value is the element's bit."""

    REALTIME = 0
    CHART = 1
    ALARMS = 2
    PUSH = 3  # push configuration and the alarm rules it notifies on
    MAP = 4
    INFO = 5
    PARAMS = 6
    RECHARGE = 7
    ENERGY = 8
    LOG = 9
    MAINTENANCE = 10

    @property
    def code(self) -> str:
        return self.name.lower()

    @property
    def bit(self) -> int:
        return 1 << self.value


ALL_ELEMENTS = (1 << len(Element)) - 1
OPERATE_SHIFT = 12
_OWNER_BIT = 1 << 24
SHARED_BIT = 1 << 25
BY_CODE = {e.code: e for e in Element}


@dataclass(frozen=True)
class Grant:
    view: int = 0  # a bit per Element the caller may see
    operate: int = 0  # a bit per Element the caller may operate (always a part of view)
    owner: bool = False  # the owner's rights beyond the elements
    shared: bool = False  # held through a share (not as owner nor member)

    def __post_init__(self) -> None:
        object.__setattr__(self, "view", (self.view | self.operate) & ALL_ELEMENTS)
        object.__setattr__(self, "operate", self.operate & ALL_ELEMENTS)

    @property
    def code(self) -> int:
        """One integer holding the grant, as the database computes it (elements_code)."""
        return (self.view | (self.operate << OPERATE_SHIFT) | (_OWNER_BIT if self.owner else 0)
                | (SHARED_BIT if self.shared else 0))

    @classmethod
    def of_code(cls, code: int) -> Grant:
        return cls(code & ALL_ELEMENTS, (code >> OPERATE_SHIFT) & ALL_ELEMENTS, bool(code & _OWNER_BIT),
                   bool(code & SHARED_BIT))

    def sees(self, element: Element) -> bool:
        return bool(self.view & element.bit)

    def operates(self, element: Element) -> bool:
        return bool(self.operate & element.bit)

    @property
    def access(self) -> Access:
        """The coarse access the console's owner-level actions read: WRITE only with the
        owner's rights."""
        if self.owner:
            return Access.WRITE
        return Access.READ if self.view else Access.NONE

    def access_to(self, element: Element) -> Access:
        """The coarse access of a row that acts on one element (an alarm message, an expired
        service): WRITE when the caller may operate that element."""
        if self.operates(element):
            return Access.WRITE
        return Access.READ if self.view or self.owner else Access.NONE


FULL = Grant(ALL_ELEMENTS, ALL_ELEMENTS, owner=True)
VIEW_ALL = Grant(ALL_ELEMENTS, 0)
NOTHING = Grant()


def elements_code(view: int, operate: int) -> int:
    """The code of a grant of view and operate bits without the owner's rights."""
    return Grant(view, operate).code


def permit(grant: Grant | None, element: Element, operate: bool = False) -> None:
    """NotFound when the caller may not see the device at all, Forbidden when it may see the
    device but not this element, or only read it when it would operate it."""
    if grant is None or not grant.view and not grant.owner:
        raise NotFound()
    if not grant.sees(element):
        raise Forbidden(NOT_GRANTED)
    if operate and not grant.operates(element):
        raise Forbidden(READ_ONLY)


class _HasGrant(Protocol):
    @property
    def grant(self) -> Grant: ...


_Granted = TypeVar("_Granted", bound=_HasGrant)


def permitted(device: _Granted | None, element: Element, operate: bool = False) -> _Granted:
    """The device (None: not visible) if the caller may see, or operate, its `element`."""
    if device is None:
        raise NotFound()
    permit(device.grant, element, operate)
    return device
