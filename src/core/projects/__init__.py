"""Projects (issue 17, /project/list): an account's named groups of devices (a cold room's
loggers, a customer's fleet), each device in at most one.

A project is its maker's own or one of its organizations'; who reads and who changes it is
core.shared.ownership's rule, the same as for assets.

Public to other contexts: `model` and `ports`.
"""

__all__ = ["model", "ports"]
