"""Exports: a device's readings (CSV, XLSX, PDF report) and the device list (XLSX) written by a
job into the download centre, kept a week; and the verification of a report's code.

Public to other contexts: `model` and `ports`; `stats` (a report's figures: MKT, time out of range)
`device_report` (a device's data report as a document), which the FDA periodic report prints too; and
`readings` (a period's readings and excursions), which FDA's exports read too.
"""

__all__ = ["device_report", "model", "ports", "readings", "stats"]
