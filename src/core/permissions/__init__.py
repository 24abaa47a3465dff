"""Permissions: the catalogue of permissions, the roles that hold them and the scenes they are
grouped in. Pure rules; it stores nothing, so it has no ports and no unit of work (a caller's
permissions come with the token check: accounts' SessionRepository.bearer).

Public to other contexts: `roles` and `scenes`.

Another context imports only the modules in `__all__` (the import-linter contract "Core
contexts meet only through their public modules" in pyproject.toml holds it).
"""

__all__ = ["roles", "scenes"]
