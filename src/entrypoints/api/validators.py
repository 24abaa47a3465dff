"""marshmallow validators that apply the core's rules at the edge, so a bad field is reported
against its name with the core's message."""

from __future__ import annotations

from collections.abc import Callable

from marshmallow import ValidationError

from core.accounts.rules import email_problem, phone_problem
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
