"""Sharing and transfer: who else may see a device, with which rights, until when; and handing a
device to another account.

Public to other contexts: `model` and `ports`.
"""

__all__ = ["model", "ports"]
