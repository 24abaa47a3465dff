"""Accounts: registration, log-in and sessions, verification codes, profiles.

Public to other contexts: `model`, `ports` (its repositories and AccountsUnitOfWork),
`rules` (the checks of a phone number or e-mail address, which alarm recipients share) and
`password_policy` (what a new password must not be, which user administration applies too).

Another context imports only the modules in `__all__` (the import-linter contract "Core
contexts meet only through their public modules" in pyproject.toml holds it).
"""

__all__ = ["model", "password_policy", "ports", "rules"]
