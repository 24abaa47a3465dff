"""The amount charged is the amount shown (issue 14, items 2 and 4), over the whole demo catalogue
in both editions: for every level, year option (with its discount or activity), SMS and voice
package, batch of 1, 2 and 3 devices and pay type, the figure the recharge drawer shows (the
quote's cents as the web formats them: whole yuan, dollars to the cent) is exactly what the real
SDK adapter asked the payment sandbox to charge (WeChat total_fee, Alipay total_amount, Stripe
amount, PayPal amount), in the price's own currency, and what the sandbox's payer page shows.

The domestic console runs on SQLite and PostgreSQL, the international one on SQLite, each paying
through the sandbox (PAYMENT_BACKEND=providers)."""

from __future__ import annotations

import re
from decimal import ROUND_DOWN, Decimal

import requests

from core.shared.money import display_amount
from tests.integration.test_recharge_api import device, levels, ok, options
from tests.support.fixtures import PaymentsApp

P = "/payment"
ALICE_WIFI_LOGGERS = ("RCW360A0000001", "RCW360A0000002", "RCW360A0000003")  # one device type, no agreement
BATCHES = (ALICE_WIFI_LOGGERS[:1], ALICE_WIFI_LOGGERS[:2], ALICE_WIFI_LOGGERS)
PROVIDERS = {1: "wechat", 2: "alipay", 20: "paypal", 30: "stripe", 40: "stripe"}
PAYER_PAGE_AMOUNT = re.compile(r"<h1[^>]*>([A-Z]{3}) (\d+\.\d{2})</h1>")


def shown(cents: int, currency: str) -> Decimal:
    """The figure the drawer shows for an amount, as a number of units: the web's rule
    (web/src/features/recharge/values.ts, spec seed 000 section 9: yuan whole, truncated; dollars
    to the cent), written out here independently of the server's display_amount, which must agree."""
    assert cents > 0, cents
    figure = (Decimal(cents) / 100).quantize(Decimal(1) if currency == "CNY" else Decimal("0.01"),
                                             rounding=ROUND_DOWN)
    assert Decimal(display_amount(cents, currency)) == figure
    return figure


def assert_shown_exactly(cents: int, currency: str) -> None:
    """Nothing of the amount is cut off when it is shown: the figure is the amount."""
    assert shown(cents, currency) * 100 == cents, (cents, currency, display_amount(cents, currency))


def assert_charged(console: PaymentsApp, placed: dict, pay_type: int, figure: Decimal, currency: str) -> None:
    """What the provider was asked for, and what its payer page shows, is the drawer's figure."""
    assert (placed["currency"], Decimal(placed["totalFee"])) == (currency, figure * 100), placed
    payment = console.world.ledger.by_order(PROVIDERS[pay_type], placed["orderCode"])
    assert payment is not None, placed
    assert (payment.currency, payment.amount_cents) == (currency, figure * 100), (payment, figure)
    page = requests.get(placed.get("payQrCode") or placed["approveUrl"], timeout=30)
    found = PAYER_PAGE_AMOUNT.search(page.text)
    assert found and (found[1], Decimal(found[2])) == (currency, figure), (page.text, figure)


def pay_types(console: PaymentsApp) -> tuple[int, ...]:
    return tuple(int(p) for p in console.container.settings().edition.profile.pay_types)


def service_orders(console: PaymentsApp) -> int:
    """Orders every paid level's year options for batches of 1, 2 and 3 devices with every pay type
    of the edition, at the drawer's figures; returns how many were compared."""
    api, container = console.api, console.container
    token = api.token("alice")
    currency = container.settings().edition.profile.currency
    ids = [device(container, guid).id for guid in ALICE_WIFI_LOGGERS]
    compared = 0
    for level in levels(api, token, ids[0]).values():
        if level["free"]:
            continue
        assert level["currency"] == currency
        assert_shown_exactly(level["price"], currency)  # the level card
        years = options(api, token, ids[0], level)
        assert years[0]["price"] == level["price"]
        for year in years:
            assert year["currency"] == currency
            assert_shown_exactly(year["price"], currency)  # the year card
            for batch in BATCHES:
                devices = ids[:len(batch)]
                quote = ok(api.call("POST", f"{P}/PayOrder/selectBatchQuote", token=token, json={
                    "deviceIdList": devices, "levelId": level["levelId"], "levelYearId": year["id"],
                    "servicePackageId": level["packageId"]}))
                for row in quote:  # the batch table's amount column
                    assert row["currency"] == currency
                    assert_shown_exactly(row["totalFee"], currency)
                # the drawer's total: the option's price for one device, the quotes added up for a batch
                figure = shown(year["price"], currency) if len(devices) == 1 else \
                    sum(shown(row["totalFee"], currency) for row in quote)
                for pay_type in pay_types(console):
                    body = {"levelId": level["levelId"], "levelYearId": year["id"],
                            "servicePackageId": level["packageId"], "payType": pay_type,
                            "serviceFee": year["serviceFee"], "totalFee": int(figure * 100),
                            "activityId": year["activityId"], "presentationMonth": year["presentationMonth"]}
                    if len(devices) == 1:
                        reply = api.call("POST", f"{P}/PayOrder/createServiceOrder", token=token,
                                         json={"deviceId": devices[0], **body})
                    else:
                        reply = api.call("POST", f"{P}/PayOrder/createBatchServiceOrder", token=token,
                                         json={"deviceIdList": devices, **body})
                    assert_charged(console, ok(reply), pay_type, figure, currency)
                    compared += 1
    return compared


def package_orders(console: PaymentsApp) -> int:
    """Orders every SMS and voice package of the edition's country code, alone and an SMS package
    with a voice package, for 1, 2 and 3 devices with every pay type, at the drawer's figures."""
    api, container = console.api, console.container
    token = api.token("alice")
    edition = container.settings().edition.profile
    ids = [device(container, guid).id for guid in ALICE_WIFI_LOGGERS]
    packages = ok(api.call("GET", f"{P}/PaySmsPackages/selectSmsPackage", token=token,
                           query={"countryCode": edition.default_country_code}))
    sms, voice = packages["smsList"], packages["voiceList"]
    assert sms and voice
    choices = [(p, None) for p in sms] + [(None, p) for p in voice] + [(sms[1], voice[0])]
    compared = 0
    for chosen_sms, chosen_voice in choices:
        per_device = Decimal(0)
        for package in (chosen_sms, chosen_voice):
            if package:
                assert package["currency"] == edition.currency
                assert_shown_exactly(package["price"], edition.currency)  # the package's price
                per_device += shown(package["price"], edition.currency)
        for batch in BATCHES:
            figure = per_device * len(batch)  # the drawer: per device x the number of devices
            for pay_type in pay_types(console):
                body = {"payType": pay_type, "countryCode": edition.default_country_code,
                        "smsPackageId": chosen_sms and chosen_sms["packageId"],
                        "smsCount": chosen_sms["smsCount"] if chosen_sms else 0,
                        "smsFee": chosen_sms["packageFee"] if chosen_sms else 0,
                        "voicePackageId": chosen_voice and chosen_voice["packageId"],
                        "voiceCount": chosen_voice["smsCount"] if chosen_voice else 0,
                        "voiceFee": chosen_voice["packageFee"] if chosen_voice else 0,
                        "totalFee": int(figure * 100)}
                if len(batch) == 1:
                    reply = api.call("POST", f"{P}/PayOrder/createSmsOrder", token=token,
                                     json={"deviceId": ids[0], **body})
                else:
                    reply = api.call("POST", f"{P}/PayOrder/createBatchSmsOrder", token=token,
                                     json={"deviceIdList": ids[:len(batch)], **body})
                assert_charged(console, ok(reply), pay_type, figure, edition.currency)
                compared += 1
    return compared


def test_every_domestic_price_shown_is_what_wechat_pay_and_alipay_are_asked_for(payments):
    assert service_orders(payments) == 6 * 3 * 2  # 2 paid levels x 3 year options, 3 batches, 2 pay types
    assert package_orders(payments) == 6 * 3 * 2  # 5 packages and one pair, 3 batches, 2 pay types


def test_a_discounted_yuan_price_is_whole_yuan_from_the_drawer_to_the_paid_order(payments):
    """80 % of 199 yuan is shown and charged 159 yuan, not 159.20; two devices 318, not 318.40."""
    api, token = payments.api, payments.api.token("alice")
    room = device(payments.container, "RCW360A0000001").id
    pro = levels(api, token, room)["Professional"]
    year = options(api, token, room, pro)[0]
    assert (pro["price"], year["price"], year["currency"]) == (15900, 15900, "CNY")
    ids = [device(payments.container, guid).id for guid in ALICE_WIFI_LOGGERS[:2]]
    placed = ok(api.call("POST", f"{P}/PayOrder/createBatchServiceOrder", token=token, json={
        "deviceIdList": ids, "levelId": pro["levelId"], "levelYearId": year["id"],
        "servicePackageId": pro["packageId"], "payType": 1, "serviceFee": 19900, "totalFee": 31800}))
    assert_charged(payments, placed, 1, Decimal(318), "CNY")
    page = requests.get(placed["payQrCode"], timeout=30)
    assert "CNY 318.00" in page.text
    assert requests.post(placed["payQrCode"], data={"outcome": "pay"}, timeout=30).status_code == 200
    orders = ok(api.call("POST", f"{P}/PayOrder/selectMyOrderList", token=token, json={}))["data"]
    assert [(o["orderFee"], o["payFee"], o["currency"], o["payStatus"]) for o in orders] == [
        (31800, 31800, "CNY", 2)]


def test_every_international_price_shown_is_what_paypal_and_stripe_are_asked_for(international_payments):
    assert service_orders(international_payments) == 6 * 3 * 3  # 3 pay types: PayPal, Google Pay, card button
    assert package_orders(international_payments) == 6 * 3 * 3


def test_the_international_console_reads_only_the_dollar_price_list(international_payments):
    """The catalogue holds both lists; the dollar one is priced for its market, not converted."""
    api, token = international_payments.api, international_payments.api.token("alice")
    room = device(international_payments.container, "RCW360A0000001").id
    found = levels(api, token, room)
    assert [(lv["levelName"], lv["price"], lv["currency"]) for lv in found.values()] == [
        ("Free", 0, "USD"), ("Basic", 1990, "USD"), ("Professional", 3192, "USD")]
    assert [(y["serviceFee"], y["price"]) for y in options(api, token, room, found["Professional"])] == [
        (3990, 3192), (7590, 5693), (19900, 19900)]
    yuan = ok(api.call("GET", f"{P}/PaySmsPackages/selectSmsPackage", token=token, query={"countryCode": "86"}))
    assert yuan == {"smsList": [], "voiceList": []}
