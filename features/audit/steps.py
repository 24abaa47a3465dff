"""Steps of features/audit/*.feature, imported by features/conftest.py so that the scenarios
collected by features/test_features.py find them."""

from __future__ import annotations

import pytest
from pytest_bdd import parsers, then, when
from sqlalchemy import update
from sqlalchemy.exc import DBAPIError
from tests.support.alarms import COLD_ROOM_A, device

from adapters.persistence.models import OperationLogRow

LOG, DEVICE_LOG = "/base/OperationLog/page", "/device/DeviceOperationLog/changes"
DEVICES = {"cold room A": COLD_ROOM_A}


def _log(api, world, user, **filters) -> list[dict]:
    reply = api.call("POST", LOG, token=world["tokens"][user], json={"pageSize": 200, **filters})
    assert reply.status == 200, reply.body
    return reply.data["data"]


@when(parsers.parse('{user} renames {name} to "{new_name}" from {address}'))
def _renames(api, container, world, user, name, new_name, address):
    reply = api.call("PUT", "/device/Device/update", token=world["tokens"][user], address=address,
                     json={"deviceId": device(container, DEVICES[name]).id, "deviceName": new_name})
    world["replies"].append(reply)


@when(parsers.parse("{user} lists her devices and her alarms"))
def _lists(api, world, user):
    world["entries before"] = len(_log(api, world, user))
    for path in ("/device/Device/page", "/device/DeviceAlarm/page", LOG):
        assert api.call("POST", path, token=world["tokens"][user], json={}).status == 200


@then(parsers.parse('{user}\'s operation log shows "{action}" by {actor} from {address}'))
def _shows(api, world, user, action, actor, address):
    [entry] = [e for e in _log(api, world, user) if e["action"] == action]
    assert (entry["userName"], entry["clientAddress"], entry["outcome"]) == (actor, address, "succeeded")
    world["entry"] = entry


@then(parsers.parse('that entry changed the device\'s name from "{old}" to "{new}"'))
def _changed_name(world, old, new):
    [change] = world["entry"]["changes"]
    assert (change["objectType"], change["fields"]) == ("device", {"device_name": [old, new]})


@then("the device's log tab shows the same entry to alice")
def _tab(api, container, world):
    reply = api.call("POST", DEVICE_LOG, token=world["tokens"]["alice"],
                     json={"deviceId": device(container, COLD_ROOM_A).id})
    assert [e["id"] for e in reply.data["data"]] == [world["entry"]["id"]]


@then("the answer is refused")
def _refused(world):
    assert 400 <= world["replies"][-1].status < 500


@then(parsers.parse('{name} is still named "{expected}"'))
def _still_named(container, name, expected):
    assert device(container, DEVICES[name]).device_name == expected


@then(parsers.parse('{user}\'s operation log shows "{action}" refused, with nothing changed'))
def _shows_refused(api, world, user, action):
    [entry] = _log(api, world, user, action=action)
    assert (entry["outcome"], entry["changes"]) == ("refused", [])


@then(parsers.parse("{user}'s operation log has no new entry"))
def _no_new_entry(api, world, user):
    assert len(_log(api, world, user)) == world["entries before"]


@then("bob's operation log does not show alice's entry")
def _not_shown(api, world):
    assert all(e["userName"] != "alice" for e in _log(api, world, "bob"))


@then("the operator's operation log shows alice's entry")
def _operator(api, world):
    assert [e for e in _log(api, world, "operator") if e["userName"] == "alice"]


@then("changing or removing the entry in the database is refused")
def _append_only(container):
    engine = container.engine()
    for statement in (update(OperationLogRow).values(actor_name="mallory"), OperationLogRow.__table__.delete()):
        with pytest.raises(DBAPIError, match="append-only"), engine.begin() as connection:
            connection.execute(statement)
