"""Inbox: the system messages of an account (invitations, expiry reminders, exports ready,
payment results) and which of them also go out by e-mail or SMS.

Public to other contexts: `model` (the message, its kinds, the preferences), `ports` (the Inbox
repository a unit of work lists to post through) and `posting` (post: the one way in).

Another context imports only the modules in `__all__` (the import-linter contract "Core
contexts meet only through their public modules" in pyproject.toml holds it).
"""

__all__ = ["model", "ports", "posting"]
