"""Jobs: work that runs later or on a clock, and the record each run leaves (the job engine that
runs them is entrypoints/jobs).

Public to other contexts: `model` and `ports`.
"""

__all__ = ["model", "ports"]
