"""The refusals of promotions (HTTP 409), each with its stable code (2071-2099)."""

from __future__ import annotations

from core.shared.errors import DomainError, RuleViolation
from core.shared.messages import N_


class ActivityOverlap(RuleViolation):
    code = 2071
    message = N_("The enabled activity “{name}” already offers the same package option during this period: "
                 "change the dates or the options, or stop it first")


class TooManyAlertPackages(RuleViolation):
    code = 2072
    message = N_("A country code may have at most 5 SMS packages and 5 voice packages")


ERRORS: tuple[type[DomainError], ...] = (ActivityOverlap, TooManyAlertPackages)
