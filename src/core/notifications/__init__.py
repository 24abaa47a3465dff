"""Notifications: the outbox of SMS, voice and e-mail messages, and their delivery.

Public to other contexts: `model` (channels, messages) and `ports` (OutboxRepository, through
which accounts and alarms send).

Another context imports only the modules in `__all__` (the import-linter contract "Core
contexts meet only through their public modules" in pyproject.toml holds it).
"""

__all__ = ["model", "ports"]
