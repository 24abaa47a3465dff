"""Coupons and prepaid recharge cards (issue 18; spec seed 001 activity/PayCoupon and
activity/PayCardSecret): operators issue, list, export and disable batches; a customer uses a
coupon on an order (reserved while it is unpaid, spent when it is paid, released when it closes)
and redeems a card for a device, which gets its service as a paid order would give it.

Public to other contexts: `model`, `ledger` (what ordering reserves, spends and releases through)
and `errors`.
"""

__all__ = ["errors", "ledger", "model"]
