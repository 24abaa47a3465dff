"""The refusals of the order back office (issue 19), each with its stable code (HTTP 409)."""

from __future__ import annotations

from core.shared.errors import DomainError, RuleViolation
from core.shared.messages import N_


class PaymentNotConfirmed(RuleViolation):
    """Manual handling asked the provider, which does not say the order is paid."""

    code = 1131
    message = N_("The provider says order {orderCode} is not paid: nothing was changed")

    def __init__(self, order: str, answer: dict[str, object]) -> None:
        super().__init__(orderCode=order)
        self.data = {"providerAnswer": answer}


class PaymentDiffers(RuleViolation):
    """The provider took another amount or currency than the order charges: support settles it."""

    code = 1132
    message = N_("The provider says order {orderCode} was paid {amount}, not the {total} it charges: nothing was "
                 "changed")

    def __init__(self, order: str, paid: str, charged: str, answer: dict[str, object]) -> None:
        super().__init__(orderCode=order, amount=paid, total=charged)
        self.data = {"providerAnswer": answer}


class ProviderNotAnswering(RuleViolation):
    """The provider could not be asked (switched off, unreachable): nothing is settled blind."""

    code = 1133
    message = N_("The payment provider could not be asked about order {orderCode}: nothing was changed, try again "
                 "later")


class RenewalNotOffered(RuleViolation):
    """Automatic renewal is for one device, paid by a provider with a recurring mechanism."""

    code = 1152
    message = N_("Automatic renewal is offered for one device at a time, with a payment method that allows it")


# --- invoices (core.ordering.invoices) -------------------------------------------------------------


class OrderNotInvoiceable(RuleViolation):
    """Only a paid order may be invoiced, for what is still paid of it."""

    code = 1141
    message = N_("Order {orderCode} cannot be invoiced: only a paid order can, for what is still paid of it")


class InvoiceCurrenciesDiffer(RuleViolation):
    code = 1142
    message = N_("One invoice covers orders of one currency: ask for an invoice for each currency")


class OrderAlreadyInInvoice(RuleViolation):
    """An order is in at most one request that is waiting or issued."""

    code = 1143
    message = N_("Order {orderCode} is already in an invoice request that is waiting or issued")


class InvoiceAlreadyDecided(RuleViolation):
    code = 1144
    message = N_("This invoice request has already been issued or rejected")


class InvoicedAmountChanged(RuleViolation):
    """An order was refunded after the request: the invoice would state more than is paid."""

    code = 1145
    message = N_("Order {orderCode} was refunded after the invoice was requested: reject the request, so that the "
                 "customer can ask again for what is still paid")


INVOICE_ERRORS: tuple[type[DomainError], ...] = (OrderNotInvoiceable, InvoiceCurrenciesDiffer, OrderAlreadyInInvoice,
                                                 InvoiceAlreadyDecided, InvoicedAmountChanged)
ERRORS: tuple[type[DomainError], ...] = (PaymentNotConfirmed, PaymentDiffers, ProviderNotAnswering, *INVOICE_ERRORS)
