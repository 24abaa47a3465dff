"""Automatic renewal through the API (issue 19), on SQLite and PostgreSQL, with the development
gateway standing in for the provider (each provider's own recurring mechanism is tested against
its sandbox in tests/integration/test_*_recurring.py):

- alice pays a year for her cold room A asking to renew automatically; once paid, the agreement
  is signed and her current service shows the next charge;
- on its date, with no one touching anything, the job charges it: a paid renewal order, a year
  more of service, and alice is told before and after;
- she cancels it and nothing more is charged; asking for it on two devices is refused (1152).
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from adapters.persistence.models import SystemMessageRow
from core.devices.model import add_months
from core.ordering.renewals import RENEW_BEFORE
from entrypoints.api.payment import schemas as s
from tests.integration.test_recharge_api import COLD_ROOM_A, COLD_ROOM_B, device, levels, ok, options, pay, refused

pytestmark = pytest.mark.usefixtures("recharge_demo")
P = "/payment/PayOrder"


def renewal_order(api, token, device_ids, auto_renew=True, **extra):
    room_id = device_ids[0]
    current = next(lv for lv in levels(api, token, room_id).values() if lv["current"])
    option = next(o for o in options(api, token, room_id, current) if o["timeLength"] == 12)
    body = {"levelId": current["levelId"], "levelYearId": option["id"], "servicePackageId": current["packageId"],
            "payType": 1, "serviceFee": option["serviceFee"], "totalFee": option["price"] * len(device_ids),
            "applyFlag": False, "autoRenew": auto_renew, **extra}
    if len(device_ids) == 1:
        return api.call("POST", f"{P}/createServiceOrder", token=token, json={"deviceId": room_id, **body})
    return api.call("POST", f"{P}/createBatchServiceOrder", token=token, json={"deviceIdList": device_ids, **body})


def templates(container, account: str = "alice") -> list[str]:
    with container.session_factory()() as session:
        return list(session.scalars(select(SystemMessageRow.template).order_by(SystemMessageRow.id)))


def test_an_auto_renewing_device_is_charged_on_its_date_with_no_one_touching_it(api, container, clock):
    alice = api.token("alice")
    room = device(container, COLD_ROOM_A)
    placed = ok(renewal_order(api, alice, [room.id]), s.OrderPlacedSchema)
    ok(pay(api, placed))
    paid_until = device(container, COLD_ROOM_A).service_expires_at
    assert container.sign_agreements()() == 1
    current = ok(api.call("GET", f"{P}/selectCurrentService", token=alice, query={"deviceId": room.id}),
                 s.CurrentServiceSchema)
    assert current["totalFee"] == placed["totalFee"]

    clock.advance(seconds=(paid_until - RENEW_BEFORE - clock.now()).total_seconds())
    run = container.charge_due_agreements()()  # the demo's freezer renews by then too
    assert run.charged >= 1 and run.failed == 0
    assert device(container, COLD_ROOM_A).service_expires_at == add_months(paid_until, 12)
    alice = api.token("alice")  # a year later: signed in again
    mine = ok(api.call("POST", f"{P}/selectMyOrderList", token=alice, json={"payStatus": 2}))
    for_room = [o for o in mine["data"] if [d["deviceId"] for d in o["devices"]] == [room.id]]
    assert len(for_room) == 2 and {o["orderFee"] for o in for_room} == {placed["totalFee"]}
    told = templates(container)
    assert "renewal_due" in told and told[-1] == "renewal_charged"
    assert container.charge_due_agreements()().charged == 0  # the next one is a year away

    ok(api.call("GET", f"{P}/unAgreement", token=alice, query={"deviceId": room.id}))
    assert ok(api.call("GET", f"{P}/selectCurrentService", token=alice, query={"deviceId": room.id})) is None
    clock.advance(days=400)
    container.charge_due_agreements()()  # the demo's freezer, still renewing, is charged again
    assert device(container, COLD_ROOM_A).service_expires_at == add_months(paid_until, 12)


def test_automatic_renewal_is_refused_for_several_devices_and_hostile_flags(api, container):
    alice = api.token("alice")
    rooms = [device(container, COLD_ROOM_A).id, device(container, COLD_ROOM_B).id]
    refused(renewal_order(api, alice, rooms), 422, 422)  # the batch call takes no autoRenew
    for flag in ("yes", None, {"a": 1}, [True]):
        refused(renewal_order(api, alice, rooms[:1], auto_renew=flag), 422, 422)
    ok(renewal_order(api, alice, rooms[:1], auto_renew=False))
    assert container.sign_agreements()() == 0
