"""Devices: the registry, broker credentials, reading history and service expiry.

Public to other contexts: `model`, `ports` (DeviceRepository, DevicesUnitOfWork, ...), `access`
and `grants` (what a caller may do with a device, element by element, and the checks of it),
`expiry` (the lifelong service rule, which pricing reads) and `events` (what was done to a device:
alarms log changes of limits).

Another context imports only the modules in `__all__` (the import-linter contract "Core
contexts meet only through their public modules" in pyproject.toml holds it).
"""

__all__ = ["model", "ports", "access", "grants", "expiry", "events"]
