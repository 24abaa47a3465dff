from collections.abc import Callable, Mapping

from core.accounts.failure_notice import LOGIN_FAILURES
from core.alarms.alerts import (
    ALARM_HUMIDITY_ABOVE,
    ALARM_HUMIDITY_BELOW,
    ALARM_TEMPERATURE_ABOVE,
    ALARM_TEMPERATURE_BELOW,
)
from core.calibration.due_dates import CALIBRATION_DUE, CALIBRATION_DUE_SOON
from core.devices.expiry_reminders import SERVICE_EXPIRED, SERVICE_EXPIRING
from core.exports.model import DEVICE_LIST_EXPORT_FAILED, EXPORT_FAILED, EXPORT_READY
from core.fda.model import MEMBER_SIGNING_LOCKED, SIGNING_LOCKED
from core.geofences.model import FENCE_ENTERED, FENCE_LEFT
from core.inbox.model import ORGANIZATION_INVITATION
from core.notifications.model import VERIFICATION_CODE
from core.ordering.invoice_model import INVOICE_ISSUED, INVOICE_REJECTED, INVOICE_SENT
from core.ordering.model import (
    ORDER_PAID,
    ORDER_REFUNDED,
    RENEWAL_CHARGED,
    RENEWAL_DUE,
    RENEWAL_ENDED,
    RENEWAL_FAILED,
    RENEWAL_REVOKED,
)
from core.shared.messages import N_

TEMPLATES = {
    VERIFICATION_CODE: N_("Your verification code is {code}. It is valid for 10 minutes. "
                          "Do not share it with anyone."),
    LOGIN_FAILURES: N_("{count} failed attempts to log in to your account {account} within the last hour, from "
                       "{addresses}. If this was not you, your password has not been given away; choose a "
                       "strong one that you use nowhere else. You can still log in with the image code or a "
                       "code sent to you."),
    ALARM_TEMPERATURE_ABOVE: N_("Level {level} alarm: {device} temperature {value} °C is above the upper limit "
                                "{limit} °C since {time}."),
    ALARM_TEMPERATURE_BELOW: N_("Level {level} alarm: {device} temperature {value} °C is below the lower limit "
                                "{limit} °C since {time}."),
    ALARM_HUMIDITY_ABOVE: N_("Level {level} alarm: {device} humidity {value} %RH is above the upper limit "
                             "{limit} %RH since {time}."),
    ALARM_HUMIDITY_BELOW: N_("Level {level} alarm: {device} humidity {value} %RH is below the lower limit "
                             "{limit} %RH since {time}."),
    SERVICE_EXPIRING: N_("The cloud service of device {device} ({guid}) expires on {date}. Renew it in the console "
                         "to keep the service running without a break."),
    SERVICE_EXPIRED: N_("The cloud service of device {device} ({guid}) expired on {date}. Its readings are kept "
                        "for three months; renew it in the console to restore the service."),
    ORDER_PAID: N_("Your payment of {amount} {currency} for order {orderCode} has been received. Thank you."),
    RENEWAL_DUE: N_("The automatic renewal of {level} for your device will charge {amount} {currency} on {date}. "
                    "Cancel it under the device's current service if you do not want it."),
    RENEWAL_CHARGED: N_("{amount} {currency} was charged for the automatic renewal of {level} (order {orderCode}); "
                        "the service now runs until {date}."),
    RENEWAL_FAILED: N_("The automatic renewal of {level} could not charge {amount} {currency}. It is tried again on "
                       "{date}; check your payment method."),
    RENEWAL_ENDED: N_("The automatic renewal of {level} has ended after its charges failed. Renew the device in the "
                      "console to keep its service."),
    RENEWAL_REVOKED: N_("The automatic renewal of {level} has ended: its authorisation was cancelled with the "
                        "payment provider. Renew the device in the console to keep its service."),
    ORDER_REFUNDED: N_("{amount} {currency} of order {orderCode} has been refunded to the account you paid with; "
                       "the service it gave was reduced accordingly."),
    INVOICE_ISSUED: N_("The invoice for order {orderCode} ({amount} {currency}) has been issued. Download it in the "
                       "console under Recharge, Invoices."),
    INVOICE_SENT: N_("The invoice for order {orderCode} ({amount} {currency}) has been issued and sent to you as "
                     "your invoice details ask: to their e-mail address, or by post."),
    INVOICE_REJECTED: N_("Your request for an invoice for order {orderCode} ({amount} {currency}) was not accepted; "
                         "check your invoice details and ask again under Recharge, My orders. The reason given: "
                         "{note}"),
    ORGANIZATION_INVITATION: N_("{inviter} invites you to join the organization {organization}. Approve to become "
                                "a member, or reject the invitation."),
    EXPORT_READY: N_("Your export {file} is ready. Download it from the download centre within 7 days."),
    FENCE_ENTERED: N_("Device {device} ({guid}) entered the fence {fence} at {time}."),
    FENCE_LEFT: N_("Device {device} ({guid}) left the fence {fence} at {time}."),
    CALIBRATION_DUE_SOON: N_("The calibration of device {device} ({guid}) is due on {date}, in {days} days "
                             "(certificate {certificate}). Order its calibration in the console in good time."),
    CALIBRATION_DUE: N_("The calibration of device {device} ({guid}) is due since {date} (certificate {certificate}). "
                        "Order a new calibration in the console to keep its readings traceable."),
    EXPORT_FAILED: N_("Your export of {device} ({format}) could not be written: {reason}. Delete it or try again "
                      "in the download centre."),
    DEVICE_LIST_EXPORT_FAILED: N_("Your export of the device list could not be written: {reason}. Delete it or try "
                                  "again in the download centre."),
    SIGNING_LOCKED: N_("Electronic signing is locked for your account {account} after {count} failed attempts in a "
                       "row, until {until}. If this was not you, change your password; an administrator of your "
                       "organization can unlock signing sooner."),
    MEMBER_SIGNING_LOCKED: N_("Electronic signing is locked for {account}, a member of {organization}, after {count} "
                              "failed attempts in a row, until {until}. Unlock it on the FDA page once you have "
                              "checked with them."),
}

# E-mail needs a subject line as well.
SUBJECTS = {
    VERIFICATION_CODE: N_("Your verification code"),
    LOGIN_FAILURES: N_("Failed log-ins to your account"),
    ALARM_TEMPERATURE_ABOVE: N_("Alarm on {device}"),
    ALARM_TEMPERATURE_BELOW: N_("Alarm on {device}"),
    ALARM_HUMIDITY_ABOVE: N_("Alarm on {device}"),
    ALARM_HUMIDITY_BELOW: N_("Alarm on {device}"),
    SERVICE_EXPIRING: N_("The service of {device} expires on {date}"),
    SERVICE_EXPIRED: N_("The service of {device} has expired"),
    ORDER_PAID: N_("Order {orderCode} is paid"),
    ORDER_REFUNDED: N_("Order {orderCode} is refunded"),
    RENEWAL_DUE: N_("Automatic renewal on {date}"),
    RENEWAL_CHARGED: N_("Automatic renewal charged"),
    RENEWAL_FAILED: N_("Automatic renewal failed"),
    RENEWAL_ENDED: N_("Automatic renewal ended"),
    RENEWAL_REVOKED: N_("Automatic renewal ended"),
    INVOICE_ISSUED: N_("The invoice for order {orderCode} is issued"),
    INVOICE_SENT: N_("The invoice for order {orderCode} is issued"),
    INVOICE_REJECTED: N_("Your invoice request for order {orderCode}"),
    ORGANIZATION_INVITATION: N_("Invitation to join {organization}"),
    EXPORT_READY: N_("Export {file} is ready"),
    FENCE_ENTERED: N_("{device} entered {fence}"),
    FENCE_LEFT: N_("{device} left {fence}"),
    CALIBRATION_DUE_SOON: N_("The calibration of {device} is due on {date}"),
    CALIBRATION_DUE: N_("The calibration of {device} is due"),
    EXPORT_FAILED: N_("Export of {device} failed"),
    DEVICE_LIST_EXPORT_FAILED: N_("Export of the device list failed"),
    SIGNING_LOCKED: N_("Electronic signing locked"),
    MEMBER_SIGNING_LOCKED: N_("Electronic signing locked for {account}"),
}

# Parameters that are message ids themselves (why an export failed): translated with the text.
MSGID_PARAMS = frozenset({"reason"})


def render_template(translate: Callable[..., str], msgid: str, language: str,
                    params: Mapping[str, object]) -> str:
    """A template (or subject) in the language, its msgid parameters translated too."""
    own = {k: translate(v, language) if k in MSGID_PARAMS and isinstance(v, str) else v for k, v in params.items()}
    return translate(msgid, language, **own)
