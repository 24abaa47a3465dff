"""FDA 21 CFR Part 11 (issue 22): the switch per account or organization, the tamper-evident
audit trail over the operation log, electronic signatures with their meaning, endorsements, and
the records that are signed (alarm handling, limit changes, periodic reports).

Public to other contexts: `model` and `ports`.
"""

__all__ = ["model", "ports"]
