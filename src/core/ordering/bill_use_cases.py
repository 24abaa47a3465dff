"""Keeping a customer's invoice details: listing, saving (the first or a default one becomes the
only default) and deleting them."""

from __future__ import annotations

from dataclasses import replace

from core.ordering.bills import MAX_BILLS_PER_ACCOUNT, Bill, bill_problems, normalized
from core.ordering.ports import OrderingUnitOfWork
from core.shared.edition import Edition
from core.shared.errors import InvalidInput, NotFound, TooManyBills

_API_NAMES = {"company_name": "companyName", "tax_number": "taxNumber", "personal_name": "personalName",
              "bank_deposit": "bankDeposit", "bill_user_name": "billUserName", "bill_mail": "billMail",
              "bill_phone": "billPhone", "bill_address": "billAddress"}


def _check(bill: Bill, edition: Edition) -> Bill:
    bill = normalized(bill)
    problems = bill_problems(bill, edition)
    if problems:
        raise InvalidInput.of({_API_NAMES[name]: message for name, message in problems.items()})
    return bill


class ListBills:
    def __init__(self, uow: OrderingUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int) -> list[Bill]:
        with self._uow as uow:
            return uow.bills.of_account(account_id)


class SaveBill:
    """Adds a bill (bill.id None) or changes one of the caller's. The first bill, or one saved as
    default, becomes the only default."""

    def __init__(self, uow: OrderingUnitOfWork, edition: Edition) -> None:
        self._uow, self._edition = uow, edition

    def __call__(self, bill: Bill) -> Bill:
        bill = _check(bill, self._edition)
        with self._uow as uow:
            existing = uow.bills.of_account(bill.account_id)
            if bill.id is None:
                if len(existing) >= MAX_BILLS_PER_ACCOUNT:
                    raise TooManyBills(limit=MAX_BILLS_PER_ACCOUNT)
                bill = replace(bill, is_default=bill.is_default or not existing)
            elif not any(b.id == bill.id for b in existing):
                raise NotFound()
            if bill.is_default:
                uow.bills.clear_default(bill.account_id)
            if bill.id is None:
                bill = uow.bills.add(bill)
            else:
                uow.bills.update(bill)
            uow.commit()
        return bill


class DeleteBill:
    def __init__(self, uow: OrderingUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, bill_id: int) -> None:
        with self._uow as uow:
            if not uow.bills.delete(account_id, bill_id):
                raise NotFound()
            uow.commit()
