"""Invoice details ("bills") a customer keeps for orders (spec seed 000 section 5, seed 001
section 5): who the invoice is for and how it is delivered."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import IntEnum

from core.shared.edition import Edition
from core.shared.messages import N_

MAX_BILLS_PER_ACCOUNT = 20
MAINLAND_MOBILE = re.compile(r"^1[3-9]\d{9}$")
DIGITS = re.compile(r"^\d{4,20}$")
TAX_NUMBER = re.compile(r"^[A-Za-z0-9]{1,20}$")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


class InvoiceType(IntEnum):
    PERSONAL = 1
    ENTERPRISE = 2


class BillMode(IntEnum):
    """How the invoice reaches the customer. 3 and 4 are older postal variants, checked like 1."""

    ADDRESS = 1
    EMAIL = 2
    POSTAL_3 = 3
    POSTAL_4 = 4


@dataclass(frozen=True)
class Bill:
    id: int | None
    account_id: int
    invoice_type: InvoiceType
    bill_mode: BillMode
    bill_user_name: str
    bill_phone: str
    company_name: str | None = None
    tax_number: str | None = None
    personal_name: str | None = None
    bank_deposit: str | None = None
    bill_mail: str | None = None
    bill_address: str | None = None
    is_default: bool = False

    def snapshot(self) -> dict[str, object]:
        """The bill as an order keeps it: deleting or editing the bill later changes no order."""
        return {"billId": self.id, "invoiceType": int(self.invoice_type), "billMode": int(self.bill_mode),
                "companyName": self.company_name, "taxNumber": self.tax_number, "personalName": self.personal_name,
                "bankDeposit": self.bank_deposit, "billUserName": self.bill_user_name, "billMail": self.bill_mail,
                "billPhone": self.bill_phone, "billAddress": self.bill_address}


# (field, maximum length) of every text field; the edge bounds them too
LIMITS = {"company_name": 50, "tax_number": 20, "personal_name": 30, "bank_deposit": 50, "bill_user_name": 30,
          "bill_mail": 200, "bill_phone": 20, "bill_address": 50}
_ENTERPRISE_ONLY = ("company_name", "tax_number", "bank_deposit")


def _blank(value: str | None) -> bool:
    return value is None or not value.strip()


def bill_problems(bill: Bill, edition: Edition) -> dict[str, str]:
    """Field -> message id of every rule the bill breaks; empty when it is valid."""
    problems: dict[str, str] = {}

    def require(name: str, message: str) -> None:
        if _blank(getattr(bill, name)):
            problems.setdefault(name, message)

    for name, limit in LIMITS.items():
        value = getattr(bill, name)
        if value is not None and len(value.strip()) > limit:
            problems[name] = N_("Too long")
    if bill.invoice_type is InvoiceType.ENTERPRISE:
        require("company_name", N_("Enter the company name"))
        require("tax_number", N_("Enter the tax number"))
        require("bank_deposit", N_("Enter the bank and account"))
        if not _blank(bill.tax_number) and not TAX_NUMBER.match(bill.tax_number.strip()):
            problems.setdefault("tax_number", N_("Letters and digits only"))
    else:
        require("personal_name", N_("Enter the name on the invoice"))
    require("bill_user_name", N_("Enter the recipient"))
    require("bill_phone", N_("Enter the phone number"))
    phone = (bill.bill_phone or "").strip()
    pattern = MAINLAND_MOBILE if edition is Edition.DOMESTIC else DIGITS
    if phone and not pattern.match(phone):
        problems.setdefault("bill_phone", N_("Enter a valid phone number"))
    if bill.bill_mode is BillMode.EMAIL:
        require("bill_mail", N_("Enter the e-mail address"))
        if not _blank(bill.bill_mail) and not EMAIL.match(bill.bill_mail.strip()):
            problems.setdefault("bill_mail", N_("Enter a valid e-mail address"))
    else:
        require("bill_address", N_("Enter the address"))
    return problems


def normalized(bill: Bill) -> Bill:
    """Trimmed, with the fields its type and mode hide dropped (a personal invoice has no
    company, tax number or bank; only the e-mail mode keeps an e-mail, only postal modes an
    address)."""
    values = {name: (getattr(bill, name) or "").strip() or None for name in LIMITS}
    if bill.invoice_type is InvoiceType.PERSONAL:
        values.update(dict.fromkeys(_ENTERPRISE_ONLY))
    else:
        values["personal_name"] = None
    if bill.bill_mode is BillMode.EMAIL:
        values["bill_address"] = None
    else:
        values["bill_mail"] = None
    return replace(bill, **values)
