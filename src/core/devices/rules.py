"""Validation rules for devices (spec seed 001 sections 5 and 9).

Each rule returns None when the value is fine, or the message id of the problem, so the edge
reports it against the right field and the core re-checks it.
"""

from __future__ import annotations

import re
from datetime import timedelta

from core.shared.edition import Edition
from core.shared.messages import N_

GUID_MIN, GUID_MAX = 8, 32
NAME_MAX = 50
REMARK_MAX = 120
PRECISION_MAX = 4
TEMPERATURE_UNITS = ("C", "F")
HISTORY_MAX_SPAN = timedelta(days=366)
HISTORY_MAX_POINTS = 5000
HISTORY_DEFAULT_POINTS = 2000

_GUID = re.compile(rf"^[A-Za-z0-9]{{{GUID_MIN},{GUID_MAX}}}$")
_COUNTRY_CODE = re.compile(r"^[0-9]{1,4}$")

GUID_PROBLEM = N_("A device GUID is 8 to 32 letters and digits")
NAME_PROBLEM = N_("Device name must be 1 to 50 characters")
REMARK_PROBLEM = N_("Remark may be at most 120 characters")
COUNTRY_CODE_PROBLEM = N_("Enter a country calling code of 1 to 4 digits")
FIXED_COUNTRY_CODE_PROBLEM = N_("Devices of this edition use the country code 86")
RANGE_ORDER_PROBLEM = N_("The end time must be after the start time")
RANGE_SPAN_PROBLEM = N_("The time range may span at most 366 days")


def guid_problem(guid: str) -> str | None:
    return None if _GUID.match(guid) else GUID_PROBLEM


def device_name_problem(name: str) -> str | None:
    return None if 1 <= len(name.strip()) <= NAME_MAX else NAME_PROBLEM


def remark_problem(remark: str) -> str | None:
    return None if len(remark) <= REMARK_MAX else REMARK_PROBLEM


def country_code_problem(code: str, edition: Edition) -> str | None:
    fixed = edition.profile.fixed_country_code
    if fixed is not None and code != fixed:
        return FIXED_COUNTRY_CODE_PROBLEM
    return None if _COUNTRY_CODE.match(code) else COUNTRY_CODE_PROBLEM

ENERGY_INTERVALS = ("hour", "day")
ENERGY_MAX_SPAN = timedelta(days=92)  # a quarter: the longest an energy chart is asked for
ENERGY_SPAN_PROBLEM = N_("The time range may span at most 92 days")
