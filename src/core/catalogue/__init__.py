"""The catalogue run by operators (issue 18; spec 001 sections 3-5 and 7, /service/package): service
items, packages of levels for device types, each level's duration options priced per currency, the
names of all of them per language, enabling and stopping a package (one enabled package per device
type) and the free gift of a package to new devices.

What is sold is never changed: an option an order names is retired and replaced when its price or
duration changes, so the order keeps pointing at what it bought (orders also keep their own
snapshot of fee, months and description).

Public to other contexts: `model` and `ports`.
"""

__all__ = ["model", "ports"]
