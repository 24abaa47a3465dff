"""Platform: custom pages, notices and the dictionary of codes.

Public to other contexts: `model` and `ports` (DictionaryRepository, which accounts reads).

Another context imports only the modules in `__all__` (the import-linter contract "Core
contexts meet only through their public modules" in pyproject.toml holds it).
"""

__all__ = ["model", "ports"]
