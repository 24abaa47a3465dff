"""Invoice details ("bills") a customer keeps for orders (spec seed 000 section 5, seed 001
section 5): who the invoice is for and how it is delivered."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import IntEnum

from core.shared.edition import Edition
from core.shared.identity import Stored
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
class Bill(Stored):
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


def _blank(value: str | None) -> bool:
    return value is None or not value.strip()


def _trimmed(value: str | None) -> str | None:
    return (value or "").strip() or None


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
        tax_number = (bill.tax_number or "").strip()
        if tax_number and not TAX_NUMBER.match(tax_number):
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
        mail = (bill.bill_mail or "").strip()
        if mail and not EMAIL.match(mail):
            problems.setdefault("bill_mail", N_("Enter a valid e-mail address"))
    else:
        require("bill_address", N_("Enter the address"))
    return problems


def normalized(bill: Bill) -> Bill:
    """Trimmed, with the fields its type and mode hide dropped (a personal invoice has no
    company, tax number or bank; only the e-mail mode keeps an e-mail, only postal modes an
    address)."""
    enterprise, by_mail = bill.invoice_type is InvoiceType.ENTERPRISE, bill.bill_mode is BillMode.EMAIL
    return replace(
        bill,
        company_name=_trimmed(bill.company_name) if enterprise else None,
        tax_number=_trimmed(bill.tax_number) if enterprise else None,
        bank_deposit=_trimmed(bill.bank_deposit) if enterprise else None,
        personal_name=None if enterprise else _trimmed(bill.personal_name),
        bill_mail=_trimmed(bill.bill_mail) if by_mail else None,
        bill_address=None if by_mail else _trimmed(bill.bill_address),
        # required: left blank (not None) for bill_problems to name
        bill_user_name=(bill.bill_user_name or "").strip(),
        bill_phone=(bill.bill_phone or "").strip(),
    )
