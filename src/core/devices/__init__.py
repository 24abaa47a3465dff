"""Devices: the registry, broker credentials, reading history and service expiry.

Public to other contexts: `model`, `ports` (DeviceRepository, DevicesUnitOfWork, ...), `access`
and `grants` (what a caller may do with a device, element by element, and the checks of it),
`expiry` (the lifelong service rule, which pricing reads), `events` (what was done to a device:
alarms log changes of limits) and `rules` (what a GUID or a name must look like: offline purchases
check the GUIDs an operator lists).

Another context imports only the modules in `__all__` (the import-linter contract "Core
contexts meet only through their public modules" in pyproject.toml holds it).
"""

__all__ = ["model", "ports", "access", "grants", "expiry", "events", "rules"]
