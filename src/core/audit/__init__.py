"""The operation log: every change made through the API, who made it, from where, to what, and
with which outcome; append-only (the Part 11 audit trail builds on it).

Public to other contexts: `model` and `ports`.
"""

__all__ = ["model", "ports"]
