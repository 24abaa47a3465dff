"""A caller's access to a device, on fakes: invisible is not found whether the device exists or
not, and read-only is refused every change."""

from __future__ import annotations

import pytest

from core.devices.access import READ_ONLY, Access, require
from core.pricing.quotes import visible_devices
from core.shared.errors import Forbidden, NotFound
from tests.unit.test_device_registry import ADMIN, MEMBER, OWNER, STRANGER, _owned_device, _uow


@pytest.mark.parametrize("access,needed,error", [
    (Access.NONE, Access.READ, NotFound), (Access.NONE, Access.WRITE, NotFound),
    (Access.READ, Access.READ, None), (Access.READ, Access.WRITE, Forbidden),
    (Access.WRITE, Access.READ, None), (Access.WRITE, Access.WRITE, None),
])
def test_invisible_is_not_found_and_read_only_may_not_write(access, needed, error):
    if error is None:
        require(access, needed)
    else:
        with pytest.raises(error):
            require(access, needed)


def test_an_order_needs_write_access_to_every_device_and_an_invisible_one_is_not_found():
    uow = _uow()
    device = _owned_device(uow)
    assert [d.access for d in visible_devices(uow, MEMBER, [device.id])] == [Access.READ]
    for caller in (OWNER, ADMIN):
        assert [d.id for d in visible_devices(uow, caller, [device.id], Access.WRITE)] == [device.id]
    with pytest.raises(Forbidden) as refused:
        visible_devices(uow, MEMBER, [device.id], Access.WRITE)
    assert refused.value.message == READ_ONLY
    for caller, ids in ((STRANGER, [device.id]), (OWNER, [device.id, 999]), (MEMBER, [999, device.id])):
        with pytest.raises(NotFound):
            visible_devices(uow, caller, ids, Access.WRITE)
