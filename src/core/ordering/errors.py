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


ERRORS: tuple[type[DomainError], ...] = (PaymentNotConfirmed, PaymentDiffers, ProviderNotAnswering)
