"""Validation of alarm rules (spec seed 001 section 5): "Alarm rule name up to 100. Graded alarm
times must satisfy level1<level2<level3; each recipient needs a name of 1-50 chars and a phone or
e-mail, correctly formatted and not duplicated."

Like the account rules, each check yields message ids by field, so the edge reports them against
the right field and the core re-checks whatever reaches it.
"""

from __future__ import annotations

from core.accounts.rules import email_problem, phone_problem
from core.alarms.model import MAX_LEVEL, AlarmRule
from core.shared.edition import Edition
from core.shared.messages import N_
from core.telemetry.model import PROBES, SENSOR_RANGE

RULE_NAME_MAX = 100
RECIPIENT_NAME_MAX = 50
RESULT_MAX = 50  # "Handling result up to 50"
MAX_RECIPIENTS = 30
MAX_DELAY_SECONDS = 7 * 24 * 3600
MAX_LEVEL_MINUTES = 30 * 24 * 60

GRADED_TIMES_WRONG = N_("Graded alarm times wrongly set")
OUT_OF_RANGE = N_("The value is out of the allowed range")


def rule_problems(rule: AlarmRule, edition: Edition) -> dict[str, str]:
    problems: dict[str, str] = {}
    if not rule.name.strip() or len(rule.name) > RULE_NAME_MAX:
        problems["name"] = N_("Alarm rule name must be 1 to 100 characters")
    if rule.probe not in PROBES:
        problems["probe"] = N_("Choose the temperature (t) or the humidity (h) probe")
    else:
        problems.update(_limit_problems(rule))
    if not 0 <= rule.delay_seconds <= MAX_DELAY_SECONDS:
        problems["delaySeconds"] = OUT_OF_RANGE
    problems.update(_graded_problems(rule))
    problems.update(_recipient_problems(rule, edition))
    return problems


def _limit_problems(rule: AlarmRule) -> dict[str, str]:
    low, high = SENSOR_RANGE[rule.probe]
    problems = {}
    if rule.upper_limit is None and rule.lower_limit is None:
        problems["upperLimit"] = N_("Set an upper limit, a lower limit or both")
    for name, limit in (("upperLimit", rule.upper_limit), ("lowerLimit", rule.lower_limit)):
        if limit is not None and not low <= limit <= high:
            problems[name] = OUT_OF_RANGE
    if (rule.upper_limit is not None and rule.lower_limit is not None and "upperLimit" not in problems
            and rule.upper_limit <= rule.lower_limit):
        problems["upperLimit"] = N_("The upper limit must be above the lower limit")
    return problems


def _graded_problems(rule: AlarmRule) -> dict[str, str]:
    """level1 < level2 < level3, each optional after the first; level 3 needs level 2."""
    problems = {}
    times = {"level1Minutes": rule.level1_minutes, "level2Minutes": rule.level2_minutes,
             "level3Minutes": rule.level3_minutes}
    for name, minutes in times.items():
        if minutes is not None and not 0 <= minutes <= MAX_LEVEL_MINUTES:
            problems[name] = OUT_OF_RANGE
    if problems:
        return problems
    if rule.level2_minutes is not None and rule.level2_minutes <= rule.level1_minutes:
        problems["level2Minutes"] = GRADED_TIMES_WRONG
    if rule.level3_minutes is not None and (rule.level2_minutes is None
                                            or rule.level3_minutes <= rule.level2_minutes):
        problems["level3Minutes"] = GRADED_TIMES_WRONG
    return problems


def _recipient_problems(rule: AlarmRule, edition: Edition) -> dict[str, str]:
    problems: dict[str, str] = {}
    if len(rule.recipients) > MAX_RECIPIENTS:
        problems["recipients"] = N_("Too many recipients: at most 30")
        return problems
    phones: set[str] = set()
    emails: set[str] = set()
    top = min(rule.top_level, MAX_LEVEL)
    for i, r in enumerate(rule.recipients):
        where = f"recipients.{i}"
        if not 1 <= r.level <= top:
            problems[f"{where}.level"] = N_("This graded level is not set on the rule")
        if not r.name.strip() or len(r.name) > RECIPIENT_NAME_MAX:
            problems[f"{where}.name"] = N_("Recipient name must be 1 to 50 characters")
        if not r.phone and not r.email:
            problems[f"{where}.phone"] = N_("Enter a phone number or an e-mail address")
        if r.phone:
            problem = phone_problem(r.phone, edition)
            if problem:
                problems[f"{where}.phone"] = problem
            elif r.phone in phones:
                problems[f"{where}.phone"] = N_("This phone number is already a recipient of the rule")
            phones.add(r.phone)
        elif r.voice:
            problems[f"{where}.voice"] = N_("A voice call needs a phone number")
        if r.email:
            problem = email_problem(r.email)
            if problem:
                problems[f"{where}.email"] = problem
            elif r.email.lower() in emails:
                problems[f"{where}.email"] = N_("This e-mail address is already a recipient of the rule")
            emails.add(r.email.lower())
    return problems
