"""Alarm SMS, calls and e-mail in each recipient's language (issue 16): a recipient may have a
language, chosen with the rule; one without reads the device owner's language (their choice, else
that of their first login), and with neither the edition's. On SQLite and PostgreSQL with the demo data."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from adapters.i18n import Translator
from adapters.notifications.development import render
from adapters.notifications.templates import TEMPLATES
from adapters.persistence.models import AccountRow, AlarmRecipientRow
from core.notifications.model import Channel, OutboundMessage
from tests.support.alarms import FRIDGE, device_id, outbox, report
from tests.support.api import ok

pytestmark = pytest.mark.usefixtures("demo")

RULES = "/device/DeviceAlarmRule"


def set_owner_language(container, language: str | None) -> None:
    with container.session_factory()() as session:
        session.execute(update(AccountRow).where(AccountRow.user_name == "alice").values(language=language))
        session.commit()


def fridge_rule(api, token: str, container) -> dict:
    rules = ok(api.call("POST", f"{RULES}/page", token=token, json={"deviceId": device_id(container, FRIDGE)}))
    return next(r for r in rules["data"] if r["probe"] == "t")


def set_recipients(api, token: str, rule: dict, recipients: list[dict]) -> dict:
    return ok(api.call("PUT", f"{RULES}/update", token=token, json={"id": rule["id"], "recipients": recipients}))


def rendered(row) -> str:
    return render(OutboundMessage(Channel(row.channel), row.recipient, row.template, row.params, row.language,
                                  row.created_at), Translator())


def test_each_recipient_reads_the_alarm_in_their_language_and_the_rest_in_the_owners(api, container, clock):
    alice = api.token("alice")
    rule = fridge_rule(api, alice, container)
    set_recipients(api, alice, rule, [
        {"level": 1, "name": "Alice", "phone": "13800000001"},
        {"level": 1, "name": "Иван", "email": "ivan@example.ru", "language": "ru-RU"},
        {"level": 1, "name": "Ana", "email": "ana@example.es", "language": "es-ES"},
    ])
    set_owner_language(container, "de-DE")
    report(container, FRIDGE, clock.now() - timedelta(minutes=10), (0, 9.0), (5, 9.5))
    by_target = {row.recipient: row for row in outbox(container)}
    assert {target: row.language for target, row in by_target.items()} == {
        "13800000001": "de-DE", "ivan@example.ru": "ru-RU", "ana@example.es": "es-ES"}
    russian = rendered(by_target["ivan@example.ru"])
    english = Translator().translate(TEMPLATES["alarm_temperature_above"], "en-US",
                                     **by_target["ivan@example.ru"].params)
    assert russian != english and "Vaccine fridge logger" in russian
    assert any("\u0400" <= ch <= "\u04ff" for ch in russian)  # written in Cyrillic
    assert rendered(by_target["13800000001"]) == Translator().translate(
        TEMPLATES["alarm_temperature_above"], "de-DE", **by_target["13800000001"].params)


def test_without_any_language_the_alarm_is_in_the_editions(api, container, clock):
    set_owner_language(container, None)
    report(container, FRIDGE, clock.now() - timedelta(minutes=10), (0, 9.0), (5, 9.5))
    assert {row.language for row in outbox(container)} == {"zh-CN"}


def test_a_recipients_language_is_kept_with_the_rule_and_answered(api, container):
    alice = api.token("alice")
    rule = fridge_rule(api, alice, container)
    changed = set_recipients(api, alice, rule, [{"level": 1, "name": "Иван", "phone": "13800000005",
                                                  "language": "ru-RU"}])
    assert changed["recipients"][0]["language"] == "ru-RU"
    assert ok(api.call("GET", f"{RULES}/get", token=alice, query={"id": rule["id"]}))["recipients"][0]["language"] \
        == "ru-RU"
    cleared = set_recipients(api, alice, rule, [{"level": 1, "name": "Иван", "phone": "13800000005",
                                                  "language": None}])
    assert cleared["recipients"][0]["language"] is None


@pytest.mark.parametrize("language", ["xx-XX", "ru", "", "ru-RU" * 100, "\ud800", 7])
def test_a_language_the_console_does_not_speak_is_refused_and_nothing_changes(api, container, language):
    alice = api.token("alice")
    rule = fridge_rule(api, alice, container)
    api.language = "ru-RU"
    reply = api.call("PUT", f"{RULES}/update", token=alice, json={"id": rule["id"], "recipients": [
        {"level": 1, "name": "X", "phone": "13800000005", "language": language}]})
    assert (reply.status, reply.code) == (422, 422)
    assert any("\u0400" <= ch <= "\u04ff" for ch in reply.body["msg"])  # said in the caller's language
    with container.session_factory()() as session:
        kept = session.scalars(select(AlarmRecipientRow.name).where(AlarmRecipientRow.rule_id == rule["id"])).all()
    assert "X" not in kept


def test_a_stranger_cannot_set_the_recipients_of_alices_rule(api, container):
    rule = fridge_rule(api, api.token("alice"), container)
    reply = api.call("PUT", f"{RULES}/update", token=api.token("acme"), json={"id": rule["id"], "recipients": [
        {"level": 1, "name": "X", "phone": "13800000005", "language": "ru-RU"}]})
    assert reply.status in (403, 404)
    with container.session_factory()() as session:
        assert session.scalars(select(AlarmRecipientRow.language).where(AlarmRecipientRow.rule_id == rule["id"])
                               ).all() == [None] * len(rule["recipients"])

