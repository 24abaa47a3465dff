"""Accounts: registration, log-in and sessions, verification codes, profiles.

Public to other contexts: `model`, `ports` (its repositories and AccountsUnitOfWork) and
`rules` (the checks of a phone number or e-mail address, which alarm recipients share).

Another context imports only the modules in `__all__` (the import-linter contract "Core
contexts meet only through their public modules" in pyproject.toml holds it).
"""

__all__ = ["model", "ports", "rules"]
