"""Exports: a device's readings (CSV, XLSX, PDF report) and the device list (XLSX) written by a
job into the download centre, kept a week; and the verification of a report's code.

Public to other contexts: `model` and `ports`.
"""

__all__ = ["model", "ports"]
