"""Promotions in the back office (issue 18): activities (public or directional, in force between
two moments, offering a discount and/or bonus months on year options of service packages, to
every customer or to target accounts) and the SMS and voice packages sold per country code, with
their names per language. The customer's pricing (core/pricing) reads what is saved here: an
activity deleted or stopped simply stops being offered, so the package's own prices return at once.

Public to other contexts: `model` and `ports`.
"""

__all__ = ["model", "ports"]
