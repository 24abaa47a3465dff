"""Issue 14, item 5: a failed or cancelled payment is said, and the payer may try again; one
payer window per order. The international console pays through the real adapters (stripe,
paypal-server-sdk) against the local payment sandbox, whose payer page stands in for the wallet
sheet and for PayPal's page: its Fail declines the card (Stripe) or leaves PayPal (cancel)."""

from __future__ import annotations

import pytest
import requests

from core.ordering.use_cases import payment_request
from tests.integration.test_recharge_api import COLD_ROOM_A, COLD_ROOM_B, device, levels, ok, options

P = "/payment"
GOOGLE_PAY, CARD, PAYPAL = 30, 40, 20


@pytest.fixture
def shop(international_payments):
    """Alice's order of a year of Professional for a device, by a pay type, and its state."""
    payments = international_payments
    api = payments.api
    token = api.token("alice")

    class Shop:
        world = payments.world
        container = payments.container

        @staticmethod
        def place(pay_type: int, guid: str = COLD_ROOM_A) -> dict:
            room = device(payments.container, guid)
            pro = levels(api, token, room.id)["Professional"]
            year = options(api, token, room.id, pro)[0]
            return ok(api.call("POST", f"{P}/PayOrder/createServiceOrder", token=token, json={
                "deviceId": room.id, "levelId": pro["levelId"], "levelYearId": year["id"],
                "servicePackageId": pro["packageId"], "payType": pay_type, "serviceFee": year["serviceFee"],
                "totalFee": year["price"]}))

        @staticmethod
        def status(placed: dict) -> dict:
            return ok(api.call("GET", f"{P}/PayOrder/get", token=token, query={"pk": placed["orderId"]}))

        @staticmethod
        def confirm(placed: dict, method: str, language: str = "en-US"):
            api.language = language
            try:
                return api.call("POST", f"{P}/PayOrder/confirmPay", token=token, json={
                    "orderId": placed["orderId"], "payType": GOOGLE_PAY, "paymentPlatformId": method,
                    "payFee": placed["totalFee"]})
            finally:
                api.language = "en-US"

    return Shop


def payer_page(url: str, outcome: str) -> requests.Response:
    return requests.post(url, data={"outcome": outcome}, timeout=10)


def test_a_card_declined_on_the_wallet_sheet_is_said_and_the_same_order_pays_on_a_second_try(shop):
    placed = shop.place(GOOGLE_PAY)
    assert "lastFailure" not in shop.status(placed)
    page = payer_page(placed["approveUrl"], "fail")  # the sheet's stand-in declines the card
    assert "The merchant answered 200." in page.text  # Stripe's payment_failed webhook, taken
    status = shop.status(placed)
    assert status["payStatus"] == 1
    assert status["lastFailure"] == {"reason": "declined", "number": 1, "newOrder": False}
    assert status["approveUrl"] == placed["approveUrl"]  # the same payment is payable again

    payer_page(placed["approveUrl"], "fail")
    assert shop.status(placed)["lastFailure"]["number"] == 2  # a new failure, told apart from the first
    payer_page(placed["approveUrl"], "pay")
    paid = shop.status(placed)
    assert paid["payStatus"] == 2 and "lastFailure" not in paid


def test_a_declined_wallet_confirmation_says_so_in_the_payer_s_language_and_counts_once(shop):
    placed = shop.place(GOOGLE_PAY)
    declined = shop.confirm(placed, "pm_card_chargeDeclined", language="de-DE")
    assert (declined.status, declined.code, declined.data) == (409, 1112, {"failure": "declined"})
    assert declined.body["msg"].startswith("Ihre Karte wurde abgelehnt")
    # Stripe's webhook about the same declined charge arrives too: still one failure
    assert shop.status(placed)["lastFailure"] == {"reason": "declined", "number": 1, "newOrder": False}
    assert shop.confirm(placed, "pm_card_visa").data == {"payStatus": 2}


def test_a_payer_who_cancels_at_paypal_is_told_so_and_offered_a_new_order(shop):
    placed = shop.place(PAYPAL)
    back = requests.post(placed["approveUrl"], data={"outcome": "fail"}, allow_redirects=False, timeout=10)
    cancel = back.headers["Location"]
    assert cancel.startswith(f"{shop.world.console_url}/api/payment/paypal/cancel?token=")
    landed = requests.get(cancel, allow_redirects=False, timeout=10)
    assert landed.status_code == 303 and "/mobilePay/paypal/cancel?token=" in landed.headers["Location"]
    status = shop.status(placed)
    assert status["payStatus"] == 1
    assert status["lastFailure"] == {"reason": "cancelled", "number": 1, "newOrder": True}
    # the cancel page visited again (a reload) is the same cancellation
    requests.get(cancel, allow_redirects=False, timeout=10)
    assert shop.status(placed)["lastFailure"]["number"] == 1
    # the new order pays
    again = shop.place(PAYPAL)
    requests.post(again["approveUrl"], data={"outcome": "pay"}, timeout=10)
    assert shop.status(again)["payStatus"] == 2


def test_starting_an_order_s_paypal_payment_again_gives_the_same_approve_page(shop):
    """A second start of the same order's payment (a reopened drawer, a retried request) is the
    same PayPal order: PayPal-Request-Id is the order code, so no second PayPal order, no Conflict."""
    placed = shop.place(PAYPAL, COLD_ROOM_B)
    gateways = shop.container.payment_gateways()
    with shop.container.uow() as uow:
        order = uow.orders.get(placed["orderId"])
    first = gateways[order.pay_type].start(payment_request(order))
    second = gateways[order.pay_type].start(payment_request(order))
    assert first.approve_url == second.approve_url == placed["approveUrl"] == shop.status(placed)["approveUrl"]
    assert first.reference == second.reference == order.payment_reference
    assert [p.id for p in shop.world.ledger.of_order("paypal", order.code)] == [first.reference]
    # paid once through it, the order is paid, and the page visited again says so (no raw Conflict)
    payer_page(placed["approveUrl"], "pay")
    assert shop.status(placed)["payStatus"] == 2
    again = requests.get(placed["approveUrl"], timeout=10)
    assert again.status_code == 200 and "This payment is paid" in again.text
    late = payer_page(placed["approveUrl"], "pay")  # a second window's Pay, pressed late
    assert late.status_code == 409 and "This payment is paid" in late.text
