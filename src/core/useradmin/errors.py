"""The refusals of user administration (HTTP 409), each with its stable code."""

from __future__ import annotations

from core.shared.errors import DomainError, RuleViolation
from core.shared.messages import N_


class CannotActOnSelf(RuleViolation):
    code = 1901
    message = N_("You cannot do this to your own account")


class LastSystemAdministrator(RuleViolation):
    code = 1902
    message = N_("This is the last system administrator: make another one first")


class BackOfficeAccountsForAdministrators(RuleViolation):
    code = 1903
    message = N_("Only a system administrator may change back-office accounts or give back-office roles")


class NotUpgradable(RuleViolation):
    code = 1904
    message = N_("Only a personal account can be upgraded to an enterprise account")  # an engineer or a dealer


class NotAContractor(RuleViolation):
    code = 1905
    message = N_("This account has not applied to be a contractor")


class CannotApplyAsContractor(RuleViolation):
    code = 1906
    message = N_("Only a personal account can apply to be a contractor")


class AlreadyEnterprise(RuleViolation):
    code = 1907
    message = N_("This account is already an enterprise account")


class NoCustomerType(RuleViolation):
    code = 1908
    message = N_("A back-office account has no customer account type: it cannot be upgraded or apply to be a "
                 "contractor")


ERRORS: tuple[type[DomainError], ...] = (
    CannotActOnSelf, LastSystemAdministrator, BackOfficeAccountsForAdministrators, NotUpgradable, NotAContractor,
    CannotApplyAsContractor, AlreadyEnterprise, NoCustomerType)
