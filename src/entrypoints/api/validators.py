"""marshmallow validators that apply the core's rules at the edge, so a bad field is reported
against its name with the core's message."""

from __future__ import annotations

from collections.abc import Callable

from marshmallow import ValidationError

from core.accounts.rules import LOGIN_NAME_MAX, email_problem, normalize_login_name, phone_problem
from core.shared.messages import N_
from entrypoints.api import context


def rule(problem: Callable[[str], str | None]) -> Callable[[str], None]:
    def validate(value: str) -> None:
        message = problem(value)
        if message:
            raise ValidationError(message)

    return validate


def phone_rule(value: str) -> None:
    message = phone_problem(value, context.container().settings().edition)
    if message:
        raise ValidationError(message)


email_rule = rule(email_problem)


def login_name_rule(value: str) -> None:
    """Failed logins are counted under the normalised name, which casefolding can lengthen ('ß' is
    'ss'): a name too long once normalised is nobody's, and would not fit where failures are kept."""
    if len(normalize_login_name(value)) > LOGIN_NAME_MAX:
        raise ValidationError(N_("Invalid value."))
