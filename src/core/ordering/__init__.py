"""Ordering: placing, paying, settling, cancelling and refunding orders, and invoice details.

Public to other contexts: `model` (the order and its transition table ORDER_TRANSITIONS) and
`ports` (OrderingUnitOfWork and the repositories), and `settlement` (what a paid order gives its
devices: core.vouchers redeems a recharge card through it).

Another context imports only the modules in `__all__` (the import-linter contract "Core
contexts meet only through their public modules" in pyproject.toml holds it).
"""

__all__ = ["model", "ports", "settlement"]
