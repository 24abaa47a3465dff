"""Back office: what operators see across every customer (the operator home).

Public to other contexts: `model` and `ports`.
"""

__all__ = ["model", "ports"]
