"""The demo's delivery: what a newcomer sees on alice's waybill list after `make run`."""

from __future__ import annotations

from entrypoints.demo_seed import DEMO_WAYBILL, seed
from tests.support.api import ApiClient, ok

W = "/device/Waybill"


def test_alice_finds_a_finished_delivery_with_its_fences_report_and_template_once_however_often_seeded(app):
    seed(app.container)
    seed(app.container)
    api = ApiClient(app.flask.test_client())
    alice = api.token("alice")
    [waybill] = ok(api.call("POST", f"{W}/page", token=alice, json={}))["data"]
    assert (waybill["orderNum"], waybill["state"]) == (DEMO_WAYBILL, 2)
    fences = {f["id"]: f["name"]
              for f in ok(api.call("POST", "/device/DeviceFence/page", token=alice, json={}))["data"]}
    assert (fences[waybill["originFenceId"]], fences[waybill["destinationFenceId"]]) == ("Depot", "City clinic")
    report = ok(api.call("GET", f"{W}/report", token=alice, query={"id": waybill["id"]}))
    [truck] = report["devices"]
    assert truck["count"] > 100 and 2.0 <= truck["mean"] <= 8.0 and truck["mkt"] is not None
    assert truck["excursions"], "the doors opened at the stops warm the load above 8 °C at least once"
    [template] = ok(api.call("POST", "/device/WaybillTemplate/page", token=alice, json={}))["data"]
    assert template["originFenceId"] == waybill["originFenceId"] and template["upperLimit"] == 8.0
    assert ok(api.call("POST", f"{W}/page", token=api.token("bob"), json={}))["totalCount"] == 0
