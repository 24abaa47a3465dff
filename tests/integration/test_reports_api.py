"""Scheduled reports over the API: the owner makes, lists, changes, disables and deletes a
schedule and reads its runs; a stranger gets 404 and changes nothing; a read-only organization
member may not schedule a device he only reads (403); hostile input is refused with 422 in the
caller's language and nothing is stored. SQLite and PostgreSQL, with the demo data."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from adapters.persistence.models import ReportScheduleRow
from tests.support.alarms import device_id
from tests.support.api import ApiClient, ok

pytestmark = pytest.mark.usefixtures("demo")

PAGE, INSERT, UPDATE, DELETE, RUNS = (f"/device/ScheduledReport/{n}" for n in ("page", "insert", "update", "delete",
                                                                               "runs"))
COLD_ROOM_A, COLD_ROOM_B, WAREHOUSE = "RCW360A0000001", "RCW360A0000002", "CR2B000000001"


def body(container, **change):
    return {"name": "Kühlraum täglich", "frequency": "daily", "deviceIds": [device_id(container, COLD_ROOM_A)],
            "format": "xlsx", "recipients": ["qa@example.com"], **change}


def stored(container) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(func.count()).select_from(ReportScheduleRow))


def test_the_owner_makes_changes_disables_lists_and_deletes_a_schedule(api, container, clock):
    token = api.token("alice")
    made = ok(api.call("POST", INSERT, token=token, json=body(container, frequency="weekly", weekday=0)))
    assert (made["name"], made["frequency"], made["weekday"], made["monthDay"]) == ("Kühlraum täglich", "weekly", 0,
                                                                                    None)
    both = [device_id(container, COLD_ROOM_A), device_id(container, COLD_ROOM_B)]
    changed = ok(api.call("POST", UPDATE, token=token, json=body(
        container, id=made["id"], frequency="monthly", monthDay=28, weekday=3, deviceIds=both, format="pdf",
        enabled=False, recipients=["a@example.com", "b@example.com"])))
    assert (changed["frequency"], changed["monthDay"], changed["weekday"], changed["enabled"]) == ("monthly", 28,
                                                                                                   None, False)
    page = ok(api.call("POST", PAGE, token=token, json={}))
    assert page["totalCount"] == 1 and page["data"][0]["deviceIds"] == both
    assert page["data"][0]["devices"] == changed["devices"] == [
        {"deviceId": both[0], "deviceName": "Cold room A logger"},
        {"deviceId": both[1], "deviceName": "Cold room B logger"}]
    assert ok(api.call("POST", RUNS, token=token, json={"scheduleId": made["id"]}))["totalCount"] == 0
    ok(api.call("DELETE", DELETE, token=token, query={"id": made["id"]}))
    assert stored(container) == 0


def test_the_job_s_run_is_listed_with_each_device_s_file(api, container, clock):
    token = api.token("alice")
    made = ok(api.call("POST", INSERT, token=token, json=body(container)))
    clock.advance(days=1)
    assert container.send_due_reports()() == "sent 1 report(s)"  # development mailer: the log
    [run] = ok(api.call("POST", RUNS, token=token, json={"scheduleId": made["id"]}))["data"]
    assert run["outcome"] == "ok" and run["sentTo"] == ["qa@example.com"]
    [file] = run["files"]
    assert file["fileName"].endswith(".xlsx") and file["size"] > 0 and file["error"] is None


def test_a_stranger_gets_404_and_changes_nothing(api, container):
    made = ok(api.call("POST", INSERT, token=api.token("alice"), json=body(container)))
    acme = api.token("acme")
    assert api.call("POST", UPDATE, token=acme, json=body(container, id=made["id"])).status == 404
    assert api.call("DELETE", DELETE, token=acme, query={"id": made["id"]}).status == 404
    assert api.call("POST", RUNS, token=acme, json={"scheduleId": made["id"]}).status == 404
    assert ok(api.call("POST", PAGE, token=acme, json={}))["totalCount"] == 0
    # Nor may acme schedule alice's device: as if it did not exist.
    assert api.call("POST", INSERT, token=acme, json=body(container)).status == 404
    assert stored(container) == 1


def test_a_read_only_member_may_not_schedule_a_device_he_only_reads(api, container):
    bob = api.token("bob")
    refused = api.call("POST", INSERT, token=bob, json=body(container, deviceIds=[device_id(container, WAREHOUSE)]))
    assert (refused.status, refused.code) == (403, 403), refused.body
    assert stored(container) == 0


@pytest.mark.parametrize("field, change", [
    ("name", {"name": ""}),
    ("name", {"name": "x" * 21}),
    ("name", {"name": "\ud800"}),
    ("frequency", {"frequency": "hourly"}),
    ("weekday", {"frequency": "weekly"}),
    ("weekday", {"frequency": "weekly", "weekday": 7}),
    ("monthDay", {"frequency": "monthly", "monthDay": 29}),
    ("monthDay", {"frequency": "monthly"}),
    ("deviceIds", {"deviceIds": []}),
    ("deviceIds", {"deviceIds": list(range(1, 52))}),
    ("deviceIds", {"deviceIds": [2**31]}),
    ("_schema", {"deviceIds": [10**20]}),  # refused as the JSON is read, whatever the field
    ("_schema", {"deviceIds": [float("nan")]}),
    ("format", {"format": "exe"}),
    ("recipients", {"recipients": []}),
    ("recipients", {"recipients": ["not an address"]}),
    ("recipients", {"recipients": [f"a{i}@example.com" for i in range(11)]}),
    ("recipients", {"recipients": ["qa@example.com", "QA@Example.com"]}),
    ("recipients", {"recipients": ["a" * 120 + "@example.com"]}),
])
def test_hostile_input_is_refused_and_nothing_is_stored(api, container, field, change):
    reply = api.call("POST", INSERT, token=api.token("alice"), json=body(container, **change))
    assert (reply.status, reply.code) == (422, 422), reply.body
    assert field in reply.body.get("errors", {}), reply.body
    assert stored(container) == 0


def test_refusals_are_in_the_callers_language(app, container):
    api = ApiClient(app.flask.test_client(), "de-DE")
    reply = api.call("POST", INSERT, token=api.token("alice"), json=body(
        container, recipients=["qa@example.com", "QA@example.com"]))
    assert reply.status == 422
    assert "nur einmal" in str(reply.body["errors"]["recipients"]), reply.body
