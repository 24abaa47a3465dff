"""A project and the rules of its name."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from core.shared.messages import N_
from core.shared.ownership import kept_apart
from core.shared.text import has_refused_characters

NAME_MIN, NAME_MAX = 2, 20  # spec 001 section 5
REMARK_MAX = 200
MAX_MOVE = 200  # devices one changeProject moves

NAME_LENGTH = N_("A project name is 2 to 20 characters")
NAME_CHARACTERS = N_("A project name may not hold emoji or control characters")
NAME_TAKEN = N_("You already have a project of this name")
ORGANIZATION_NAME_TAKEN = N_("The organization already has a project of this name")
REMARK_CHARACTERS = N_("The remark may not hold emoji or control characters")
READ_ONLY_PROJECT = N_("You may only read this project: its organization's administrators change it")
NOT_YOUR_ORGANIZATION = N_("You may not make projects in this organization")
ORGANIZATION_DEVICE = N_("An organization's device goes only into a project of the same organization")
PERSONAL_DEVICE = N_("A device in no organization goes only into a personal project")

def clean_name(name: str) -> str:
    """The name as stored: trimmed. Raises nothing; name_problem says what is wrong."""
    return name.strip()


def name_problem(name: str) -> str | None:
    """What is wrong with a (trimmed) project name, None when nothing is."""
    if not NAME_MIN <= len(name) <= NAME_MAX:
        return NAME_LENGTH
    if has_refused_characters(name):
        return NAME_CHARACTERS
    return None


def remark_problem(remark: str) -> str | None:
    return REMARK_CHARACTERS if has_refused_characters(remark.replace("\n", " ")) else None


def name_key(name: str) -> str:
    """What makes two names the same for one owner: case-insensitive, as people read them."""
    return name.casefold()


@dataclass
class Project:
    id: int | None
    owner_account_id: int  # its creator; the owner itself when it is not an organization's
    name: str
    remark: str | None
    created_at: datetime
    device_count: int = 0  # its devices the reader sees (filled when read, not stored)
    online_count: int = 0
    alarm_count: int = 0
    organization_id: int | None = None  # the organization it belongs to; None: its owner account's own
    organization_name: str | None = None  # (read, not stored)
    changeable: bool = False  # the reader may change it (model.may_change; filled when read)


def name_taken(organization_id: int | None) -> str:
    """The refusal of a name the owner already has, said of that owner."""
    return NAME_TAKEN if organization_id is None else ORGANIZATION_NAME_TAKEN


def holds(project: Project, organization_id: int | None) -> str | None:
    """Why a device of `organization_id` (None: an account's own) may not go into the project,
    None when it may: a device stays with projects of the same owner."""
    return kept_apart(project, organization_id, ORGANIZATION_DEVICE, PERSONAL_DEVICE)
