"""Back-office user administration (issue 17, spec seed 001 sections 3 and 6): the accounts as an
operator sees them, which system role goes with which account type, and the contractor
application (an engineer applies by accepting the agreement; an operator certifies)."""

from __future__ import annotations

import secrets
import string
from dataclasses import dataclass
from datetime import datetime

from core.accounts.model import AccountType
from core.permissions import roles
from core.shared.messages import N_
from core.shared.text import has_refused_characters

# The agreement a contractor accepts; a new text gets a new version, and the acceptance records it.
CONTRACTOR_AGREEMENT_VERSION = "2026-01"
CONTRACTOR_AGREEMENT_TITLE = N_("Engineer (contractor) agreement")
CONTRACTOR_AGREEMENT_CLAUSES = (
    N_("As an engineer you install, commission and maintain the devices of the customers who engage you, "
       "following the manufacturer's instructions."),
    N_("You keep what you learn of a customer's devices, data and premises confidential and use it only for the "
       "work they gave you."),
    N_("You act on a customer's devices only with the rights they share with you, and you record the maintenance "
       "you do."),
    N_("An operator reviews your application: until it is certified you are shown as applied, awaiting "
       "certification."),
    N_("The operator may take the certification back if these terms are broken; a new version of this agreement "
       "must be accepted again."),
)
MAX_EXPORT_ROWS = 10_000
SEARCH_MAX = 50

BACK_OFFICE_ROLES = frozenset({roles.SYSTEM_ADMIN.code, roles.OPERATOR.code, roles.CALIBRATION_ADMIN.code})
# The account types each assignable system role takes: a back-office role is a system account's,
# a customer's role one of the customer types (an engineer is a personal customer who applied).
TYPES_OF_ROLE: dict[str, frozenset[AccountType]] = {
    roles.SYSTEM_ADMIN.code: frozenset({AccountType.SYSTEM}),
    roles.OPERATOR.code: frozenset({AccountType.SYSTEM}),
    roles.CALIBRATION_ADMIN.code: frozenset({AccountType.SYSTEM}),
    roles.PERSONAL_CUSTOMER.code: frozenset({AccountType.PERSONAL, AccountType.ENGINEER}),
    roles.ENTERPRISE_CUSTOMER.code: frozenset({AccountType.ENTERPRISE}),
    roles.DEALER.code: frozenset({AccountType.DEALER}),
}
ASSIGNABLE_ROLES = tuple(TYPES_OF_ROLE)

TYPE_ROLE_MISMATCH = N_("This account type does not go with the chosen role")
UNKNOWN_ROLE = N_("Choose one of the system roles")
CONTACT_TAKEN = N_("This phone number or e-mail address is already bound to another account")
USER_NAME_TAKEN = N_("User already exists")
TEXT_CHARACTERS = N_("This field may not hold emoji or control characters")

ACCOUNT_TYPE_NAMES = {
    AccountType.PERSONAL: N_("Personal"), AccountType.ENTERPRISE: N_("Enterprise"),
    AccountType.ENGINEER: N_("Engineer (contractor)"), AccountType.DEALER: N_("Dealer"),
    AccountType.SYSTEM: N_("Back office"),
}
CONTRACTOR_STATE_NAMES = {0: N_("Not a contractor"), 1: N_("Not certified"), 2: N_("Certified")}
EXPORT_HEADERS = (N_("User name"), N_("Real name"), N_("Phone"), N_("E-mail"), N_("Company"), N_("Account type"),
                  N_("Role"), N_("Contractor"), N_("Created"), N_("Deleted"))

def text_problem(text: str) -> str | None:
    if has_refused_characters(text):
        return TEXT_CHARACTERS
    return None


class ContractorState:
    NONE = 0  # never applied
    APPLIED = 1  # accepted the agreement, not certified (yet, or any more)
    CERTIFIED = 2


@dataclass(frozen=True)
class UserFilter:
    user_name: str | None = None  # part of the user name or the real name, any case
    phone: str | None = None
    email: str | None = None
    account_type: int | None = None
    role_code: str | None = None
    deleted: bool = False  # the deleted accounts instead of the live ones


@dataclass
class ManagedUser:
    id: int
    user_name: str
    real_name: str | None
    phone: str | None
    email: str | None
    company: str | None
    account_type: AccountType
    role_code: str | None  # its system role
    created_at: datetime
    identity: str | None = None
    industry: str | None = None
    deleted_at: datetime | None = None
    contractor_state: int = ContractorState.NONE
    contractor_applied_at: datetime | None = None
    contractor_agreement: str | None = None

    @property
    def back_office(self) -> bool:
        return self.role_code in BACK_OFFICE_ROLES or self.account_type is AccountType.SYSTEM


@dataclass(frozen=True)
class UserChanges:
    real_name: str | None
    phone: str | None
    email: str | None
    company: str | None
    account_type: AccountType
    role_code: str


@dataclass(frozen=True)
class NewUser:
    user_name: str
    password: str | None  # None: the server makes one, shown once
    changes: UserChanges


@dataclass(frozen=True)
class SystemRole:
    """A role with its permissions: a system role, or (with its organization) the role an account
    holds in an organization, built-in or custom."""

    id: int
    code: str
    name: str
    description: str | None
    role_type: int
    permissions: tuple[str, ...]
    organization_id: int | None = None
    organization_name: str | None = None


_SPECIALS = "#%*+-=?@_!"
_ALPHABET = string.ascii_letters + string.digits + _SPECIALS
GENERATED_LENGTH = 16


def generate_password(length: int = GENERATED_LENGTH) -> str:
    """A random password with every kind the policy asks for (digit, upper, lower, special), with
    no look-alike worries: it is copied, not typed."""
    while True:
        chosen = [secrets.choice(string.digits), secrets.choice(string.ascii_uppercase),
                  secrets.choice(string.ascii_lowercase), secrets.choice(_SPECIALS)]
        chosen += [secrets.choice(_ALPHABET) for _ in range(length - len(chosen))]
        secrets.SystemRandom().shuffle(chosen)
        password = "".join(chosen)
        if password[0] not in _SPECIALS:
            return password
