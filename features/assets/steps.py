"""Steps of features/assets/*.feature, imported by features/conftest.py so that the scenarios
collected by features/test_features.py find them."""

from __future__ import annotations

from features.alarms.steps import DEVICES
from pytest_bdd import given, parsers, then, when
from sqlalchemy import select
from tests.support.alarms import device

from adapters.persistence.models import AlarmRuleRow

ASSET = "/device/Asset"
ASSETS = {"pharmacy vaccine store": "Pharmacy vaccine store"}


def _asset_id(api, world, user, name) -> int:
    page = api.call("POST", f"{ASSET}/page", token=world["tokens"][user], json={"keyword": ASSETS[name]})
    assert page.status == 200, page.body
    [asset] = page.data["data"]
    return asset["id"]


def _switch(api, world, user, name, action) -> None:
    reply = api.call("PUT", f"{ASSET}/{action}", token=world["tokens"][user],
                     json={"id": _asset_id(api, world, user, name)})
    assert reply.status == 200, reply.body


def _bind(api, container, world, user, device_name, name, action) -> None:
    reply = api.call("POST", f"{ASSET}/{action}", token=world["tokens"][user], json={
        "id": _asset_id(api, world, user, name), "deviceIds": [device(container, DEVICES[device_name]).id]})
    assert reply.status == 200, reply.body


@given(parsers.parse("{user} has disabled the {name}"))
@when(parsers.parse("{user} disables the {name}"))
def _disables(api, world, user, name):
    _switch(api, world, user, name, "disable")


@when(parsers.parse("{user} enables the {name}"))
def _enables(api, world, user, name):
    _switch(api, world, user, name, "enable")


@given(parsers.parse("{user} has bound the {device_name} to the {name}"))
@when(parsers.parse("{user} binds the {device_name} to the {name}"))
def _binds(api, container, world, user, device_name, name):
    _bind(api, container, world, user, device_name, name, "bindDevice")


@when(parsers.parse("{user} unbinds the {device_name} from the {name}"))
def _unbinds(api, container, world, user, device_name, name):
    _bind(api, container, world, user, device_name, name, "unbindDevice")


@then(parsers.parse("the {name} shows as {state}"))
def _shows_as(api, world, name, state):
    asset_id = _asset_id(api, world, "alice", name)
    detail = api.call("GET", f"{ASSET}/get", token=world["tokens"]["alice"], query={"id": asset_id}).data
    assert detail["enabled"] is (state == "enabled")
    assert all(d["enabled"] is (state == "enabled") for d in detail["devices"]) and detail["devices"]


@then(parsers.re(r"the (?P<device_name>.+) is (?P<state>enabled|disabled) and its alarm rule is (?P<rule>on|off)"))
def _device_state(container, device_name, state, rule):
    row = device(container, DEVICES[device_name])
    assert row.status == (1 if state == "enabled" else 0)
    with container.session_factory()() as session:
        enabled = session.scalar(select(AlarmRuleRow.enabled).where(AlarmRuleRow.device_id == row.id))
    assert enabled is (rule == "on")
