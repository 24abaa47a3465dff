"""Alarms: rules on a device's probes, their evaluation on ingest, escalation and the message
centre.

Public to other contexts: `model` and `ports` (AlarmRepository, AlarmsUnitOfWork); telemetry
lists the alarm repository in its unit of work because a batch and its alarms commit together.

Another context imports only the modules in `__all__` (the import-linter contract "Core
contexts meet only through their public modules" in pyproject.toml holds it).
"""

__all__ = ["model", "ports"]
