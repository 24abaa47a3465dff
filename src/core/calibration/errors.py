"""The calibration service's refusals (codes 2201-2230). A code is also the reason `cancel_check`
gives for a cancellation it refuses, so a client says it in the caller's language."""

from __future__ import annotations

from core.shared.errors import DomainError, Forbidden, RuleViolation
from core.shared.messages import N_


class StatusChangeRefused(RuleViolation):
    """Not a move of model.TRANSITIONS for this mover."""

    code = 2201
    message = N_("This application cannot go from its current status to the one asked for")


class AlreadyReceived(RuleViolation):
    """The lab holds the devices: a cancellation now is the lab's, and a refund the operators'."""

    code = 2202
    message = N_("The lab has received the devices: the application can no longer be cancelled")


class AlreadyCancelled(RuleViolation):
    code = 2203
    message = N_("This application has been cancelled")


class AlreadyReturned(RuleViolation):
    code = 2204
    message = N_("This application is complete: its certificates have been issued and its devices returned")


class CertificatesMissing(RuleViolation):
    """Status 6 says every device's certificate is issued."""

    code = 2205
    message = N_("Issue a certificate for every device of the application first")


class TrackingNotNow(RuleViolation):
    """The inbound number once paid and until the devices arrive; the outbound one once calibrating."""

    code = 2206
    message = N_("This tracking number cannot be given at this stage of the application")


class ServiceNotPriced(RuleViolation):
    """No price is configured for a device type and service in the edition's currency."""

    code = 2207
    message = N_("The service {service} is not offered for the device type {type}")


class NotPayable(RuleViolation):
    code = 2208
    message = N_("This application is no longer waiting for payment")


class PaymentDiffers(RuleViolation):
    """The provider took another amount or currency than the application charges: nothing settles."""

    code = 2209
    message = N_("The payment of application {number} does not match its total: nothing was changed")


class OfflinePaymentRefused(RuleViolation):
    """The lab records a payment taken at the counter or by transfer for its own quick orders only;
    an online application is paid through the provider."""

    code = 2210
    message = N_("Only a quick order can be marked paid by the lab")


class CertificateIssued(RuleViolation):
    """ISO/IEC 17025 7.8.8: an issued certificate is never changed; a correction is a new version."""

    code = 2211
    message = N_("An issued certificate cannot be changed: issue a corrected version instead")


class CertificateNotIssued(RuleViolation):
    code = 2212
    message = N_("Only the current issued version of a certificate can be corrected")


class ResultsNotNow(RuleViolation):
    """Results are entered once the devices are received and until the application is complete."""

    code = 2213
    message = N_("Results can be entered only while the devices are at the lab")


class NotQuickOrder(RuleViolation):
    code = 2214
    message = N_("This application is not a quick order")


class TokenRequired(Forbidden):
    """The application number with the contact reads an application; changing it takes its link."""

    code = 2215
    message = N_("Open the link sent to you with the application to change it")


class DetailsLocked(RuleViolation):
    code = 2216
    message = N_("The details of this application can no longer be changed")


# --- the documents (core.calibration.documents; spec 001 section 8): codes from 2225, so that the
# payments' refusals may take those before them


class ReportNotGenerated(RuleViolation):
    code = 2225
    message = N_("The report of this application has not been generated yet")


class NoCertificate(RuleViolation):
    """The device has no issued certificate yet (a draft is the lab's alone)."""

    code = 2226
    message = N_("There is no certificate for this device yet")


class ReportNotNow(RuleViolation):
    code = 2227
    message = N_("A report can be uploaded once the lab has received the devices, unless the application is "
                 "cancelled")


ERRORS: tuple[type[DomainError], ...] = (
    StatusChangeRefused, AlreadyReceived, AlreadyCancelled, AlreadyReturned, CertificatesMissing, TrackingNotNow,
    ServiceNotPriced, NotPayable, PaymentDiffers, OfflinePaymentRefused, CertificateIssued, CertificateNotIssued,
    ResultsNotNow, NotQuickOrder, TokenRequired, DetailsLocked,
    ReportNotGenerated, NoCertificate, ReportNotNow,
)
