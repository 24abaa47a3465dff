"""Devices: the registry, broker credentials, reading history and service expiry.

Public to other contexts: `model`, `ports` (DeviceRepository, DevicesUnitOfWork, ...), `access`
(what a caller may do with a device, and the check of it) and `expiry` (the lifelong service
rule, which pricing reads).

Another context imports only the modules in `__all__` (the import-linter contract "Core
contexts meet only through their public modules" in pyproject.toml holds it).
"""

__all__ = ["model", "ports", "access", "expiry"]
