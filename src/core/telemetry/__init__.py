"""Telemetry: readings devices report, their parsing and storage, and downsampling for charts.

Public to other contexts: `model` (Reading, the probes and their ranges), `ports`
(TelemetryUnitOfWork, AlarmEvaluation) and `downsample` (which the device history uses).

Another context imports only the modules in `__all__` (the import-linter contract "Core
contexts meet only through their public modules" in pyproject.toml holds it).
"""

__all__ = ["model", "ports", "downsample"]
