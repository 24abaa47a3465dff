from datetime import UTC, datetime

import pytest

from adapters.payments.development import DevelopmentPaymentGateway
from core.devices.expiry import LIFELONG_EXPIRY
from core.ordering.bills import Bill, BillMode, InvoiceType, bill_problems, normalized
from core.ordering.model import new_order_code
from core.ordering.payments import PaymentRequest
from core.pricing.level_change import extended_expiry
from core.shared.edition import Edition, PayType

NOW = datetime(2026, 11, 24, 8, 0, tzinfo=UTC)


@pytest.mark.parametrize("expiry,months,bonus,expected", [
    (datetime(2027, 1, 31, tzinfo=UTC), 1, 0, datetime(2027, 2, 28, tzinfo=UTC)),  # month end
    (datetime(2026, 1, 1, tzinfo=UTC), 12, 0, datetime(2027, 11, 24, 8, 0, tzinfo=UTC)),  # expired: from now
    (None, 12, 2, datetime(2028, 1, 24, 8, 0, tzinfo=UTC)),  # never had service
    (datetime(2027, 6, 1, tzinfo=UTC), 24, 3, datetime(2029, 9, 1, tzinfo=UTC)),
    (datetime(2027, 6, 1, tzinfo=UTC), 1200, 0, LIFELONG_EXPIRY),
    (datetime(2099, 12, 31, tzinfo=UTC), 12, 0, LIFELONG_EXPIRY),  # lifelong stays lifelong
])
def test_a_paid_term_extends_from_the_later_of_now_and_the_expiry(expiry, months, bonus, expected):
    assert extended_expiry(expiry, NOW, months, bonus) == expected


def bill(**changes):
    values = {"id": None, "account_id": 1, "invoice_type": InvoiceType.ENTERPRISE, "bill_mode": BillMode.EMAIL,
              "bill_user_name": "Li Lei", "bill_phone": "13800000001", "company_name": "Acme",
              "tax_number": "91310000MA1FL8XQ3J", "bank_deposit": "ICBC 6222", "bill_mail": "li@example.com"}
    return Bill(**{**values, **changes})


def test_a_complete_enterprise_bill_breaks_no_rule():
    assert bill_problems(bill(), Edition.DOMESTIC) == {}


@pytest.mark.parametrize("changes,field", [
    ({"company_name": " "}, "company_name"), ({"tax_number": "91-31"}, "tax_number"),
    ({"tax_number": "A" * 21}, "tax_number"), ({"bank_deposit": None}, "bank_deposit"),
    ({"bill_user_name": ""}, "bill_user_name"), ({"bill_user_name": "x" * 31}, "bill_user_name"),
    ({"bill_phone": "23800000001"}, "bill_phone"), ({"bill_phone": "1380000000"}, "bill_phone"),
    ({"bill_mail": "li@"}, "bill_mail"), ({"bill_mail": None}, "bill_mail"),
    ({"bill_mode": BillMode.ADDRESS}, "bill_address"),
    ({"invoice_type": InvoiceType.PERSONAL}, "personal_name"),
])
def test_a_bill_breaking_a_rule_is_reported_against_its_field(changes, field):
    assert field in bill_problems(bill(**changes), Edition.DOMESTIC)


def test_international_phones_are_digits_of_any_local_length():
    assert bill_problems(bill(bill_phone="4155550123"), Edition.INTERNATIONAL) == {}
    assert "bill_phone" in bill_problems(bill(bill_phone="+1 415"), Edition.INTERNATIONAL)
    assert "bill_phone" in bill_problems(bill(bill_phone="4155550123"), Edition.DOMESTIC)


def test_a_personal_bill_drops_what_its_type_and_mode_hide():
    kept = normalized(bill(invoice_type=InvoiceType.PERSONAL, personal_name=" Li Lei ", bill_address="Road 1"))
    assert (kept.company_name, kept.tax_number, kept.bank_deposit, kept.bill_address) == (None, None, None, None)
    assert kept.personal_name == "Li Lei" and kept.bill_mail == "li@example.com"


def test_order_codes_are_twenty_characters_starting_with_the_time():
    codes = {new_order_code(NOW) for _ in range(50)}
    assert all(len(c) == 20 and c.startswith("20261124080000") for c in codes) and len(codes) > 40


def test_the_development_gateway_signs_its_links_and_declines_on_request():
    gateway = DevelopmentPaymentGateway("http://console.test/", b"k" * 32)
    request = PaymentRequest(1, "20261124080000123456", 9900, "CNY", "Basic", PayType.WECHAT, NOW)
    start = gateway.start(request)
    assert start.pay_qr_code.startswith("http://console.test/api/payment/development/pay?order=20261124080000123456")
    signature = start.pay_qr_code.rsplit("signature=", 1)[1]
    assert gateway.verify("20261124080000123456", 9900, signature)
    assert not gateway.verify("20261124080000123456", 9901, signature)
    assert not DevelopmentPaymentGateway("http://console.test", b"x" * 32).verify("20261124080000123456", 9900,
                                                                                 signature)
    assert gateway.start(PaymentRequest(1, "c", 1, "USD", "", PayType.PAYPAL, NOW)).approve_url
    assert gateway.start(PaymentRequest(1, "c", 1, "USD", "", PayType.GOOGLE_PAY, NOW)).client_secret
    assert not gateway.confirm(request, "fail_card").paid
    assert gateway.confirm(request, "pm_card_visa").amount_cents == 9900
