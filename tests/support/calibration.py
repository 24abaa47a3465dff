"""What tests of the calibration service share: the lab's prices for a device type, and a device's
results as the lab records them (two points; one device adjusted: found out, left in)."""

from __future__ import annotations

from datetime import date, timedelta

from tests.support.api import ApiClient, ok

PRICES = {1: 30000, 2: 45000}  # standard points, extra points, in cents


def priced(api: ApiClient, lab: str, type_id: int) -> None:
    for service, price in PRICES.items():
        ok(api.call("PUT", "/calibration/PriceConf/update/price", token=lab,
                    json={"deviceTypeId": type_id, "service": service, "price": price}))


def results(calibrated_on: date, serial: str, adjusted: bool = False) -> dict:
    """A device's certificate content calibrated on the day, received the day before."""
    found = [{"reference": "-20.0", "reading": "-19.6", "uncertainty": "0.2", "tolerance": "0.5"},
             {"reference": 4.0, "reading": 4.3, "uncertainty": 0.2, "tolerance": 0.5}]
    body = {"labName": "Elitech Calibration Lab", "labAddress": "88 Metrology Road, Shanghai",
            "traceability": "Traceable to the SI through NIM China, certificate NIM-2026-0193",
            "customerName": "Alice", "itemType": "Wi-Fi logger",
            "itemModel": "RCW-360", "itemSerial": serial, "conditionOnReceipt": "No visible damage",
            "receivedOn": (calibrated_on - timedelta(days=1)).isoformat(), "calibratedOn": calibrated_on.isoformat(),
            "method": "CP-T-01", "environment": {"temperature": 22.5, "humidity": 45},
            "decisionRule": "simple", "asFound": found,
            "authorisedBy": {"name": "Li Wei", "role": "Technical manager"}}
    if adjusted:
        body["asFound"] = [{**found[0], "reading": "-18.9"}, found[1]]
        body["asLeft"] = found
    return body
