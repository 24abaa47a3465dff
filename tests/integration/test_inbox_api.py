"""The message centre's system messages: posted when things happen to an account, read, answered
once, and copied by e-mail or SMS as the owner chose (issue 16)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import select

from adapters.persistence.models import AccountRow, DeviceRow, OutboxMessageRow, SystemMessageRow
from core.inbox.model import Decision, MessageKind, SystemMessage
from core.inbox.posting import post
from core.shared.errors import MessageAlreadyAnswered
from tests.integration.test_recharge_api import COLD_ROOM_A, levels, ok, options, pay, service_order

PAGE, READ, ANSWER, CHANNELS, UNREAD = ("/base/BaseMessage/page", "/base/BaseMessage/read", "/base/BaseMessage/answer",
                                        "/base/BaseMessage/channels", "/base/BaseMessage/unreadCount")


def account_id(container, user: str) -> int:
    with container.session_factory()() as session:
        return session.scalar(select(AccountRow.id).where(AccountRow.user_name == user))


def invite(container, user: str, organization: str = "Acme Cold Chain") -> int:
    """A message that asks for an answer about a subject no feature acts on: the inbox's own
    rules (answered once, by its owner). Real invitations: test_organizations_api.py."""
    uow = container.uow()
    with uow:
        message = post(uow, SystemMessage(account_id(container, user), MessageKind.INVITATION, "verification_code",
                                          {"code": organization}, container.clock().now(), needs_decision=True,
                                          subject="question:1"), "en-US")
        uow.commit()
    assert message is not None
    return message.stored_id


def decision_of(container, message_id: int) -> str | None:
    with container.session_factory()() as session:
        return session.scalar(select(SystemMessageRow.decision).where(SystemMessageRow.id == message_id))


def outbox(container, template: str) -> list[tuple[str, str]]:
    with container.session_factory()() as session:
        return [(r.channel, r.recipient) for r in session.scalars(
            select(OutboxMessageRow).where(OutboxMessageRow.template == template).order_by(OutboxMessageRow.id))]


@pytest.mark.usefixtures("recharge_demo")
def test_a_paid_order_tells_its_payer_in_the_inbox_and_by_e_mail_once(api, container):
    alice = api.token("alice")
    room = ok(api.call("POST", "/device/Device/page", token=alice, json={"deviceGuid": COLD_ROOM_A}))["data"][0]
    basic = levels(api, alice, room["deviceId"])["Basic"]
    placed = ok(service_order(api, alice, [room["deviceId"]], basic, options(api, alice, room["deviceId"], basic)[1]))
    ok(pay(api, placed))
    ok(pay(api, placed))  # the provider's repeated notification
    page = ok(api.call("POST", PAGE, token=alice, json={}))
    [message] = page["data"]
    assert (message["kind"], message["read"], message["needsDecision"]) == ("payment", False, False)
    assert placed["orderCode"] in message["title"] and placed["orderCode"] in message["content"]
    assert outbox(container, "order_paid") == [("email", "alice@example.com")]
    assert ok(api.call("GET", UNREAD, token=alice)) == 1
    assert ok(api.call("POST", PAGE, token=api.token("bob"), json={}))["totalCount"] == 0


@pytest.mark.usefixtures("demo")
def test_expiry_reminders_reach_the_owners_inbox_in_the_readers_language(api, container, clock):
    with container.session_factory()() as session:
        room = session.scalars(select(DeviceRow).where(DeviceRow.guid == COLD_ROOM_A)).one()
        clock._now = room.service_expires_at - timedelta(days=7)
    assert container.send_expiry_reminders()() >= 1
    api.language = "ru-RU"
    page = ok(api.call("POST", PAGE, token=api.token("alice"), json={"kind": "expiry"}))
    [reminder] = [m for m in page["data"] if COLD_ROOM_A in m["content"]]
    assert reminder["content"].startswith("Облачный сервис устройства") and not reminder["needsDecision"]


@pytest.mark.usefixtures("demo")
def test_messages_are_marked_read_one_by_one_or_all_and_only_the_callers(api, container):
    alice, bob = api.token("alice"), api.token("bob")
    first, second = invite(container, "alice"), invite(container, "alice")
    bobs = invite(container, "bob")
    assert ok(api.call("POST", READ, token=alice, json={"messageIds": [first, bobs]})) == {"marked": 1}
    assert ok(api.call("GET", UNREAD, token=bob)) == 1  # bob's message untouched by alice
    unread = ok(api.call("POST", PAGE, token=alice, json={"unread": True}))
    assert [m["messageId"] for m in unread["data"]] == [second]
    assert ok(api.call("POST", READ, token=alice, json={})) == {"marked": 1}
    assert ok(api.call("GET", UNREAD, token=alice)) == 0


@pytest.mark.usefixtures("demo")
def test_an_invitation_is_answered_once_and_a_second_answer_is_refused(api, container):
    alice = api.token("alice")
    message_id = invite(container, "alice")
    answered = ok(api.call("POST", ANSWER, token=alice, json={"messageId": message_id, "decision": "approved"}))
    assert (answered["decision"], answered["read"]) == ("approved", True) and answered["decidedAt"]
    for decision in ("rejected", "approved"):
        again = api.call("POST", ANSWER, token=alice, json={"messageId": message_id, "decision": decision})
        assert (again.status, again.code) == (409, 1631)
    assert decision_of(container, message_id) == "approved"


@pytest.mark.usefixtures("demo")
def test_a_message_awaiting_its_answer_stays_first_above_newer_ones_until_answered(api, container):
    alice = api.token("alice")
    invitation = invite(container, "alice")
    uow = container.uow()
    with uow:
        for n in range(12):  # more payment results than a page holds, all newer than the invitation
            post(uow, SystemMessage(account_id(container, "alice"), MessageKind.PAYMENT, "verification_code",
                                    {"code": str(n)}, container.clock().now()), "en-US")
        uow.commit()
    first = ok(api.call("POST", PAGE, token=alice, json={"pageSize": 10}))["data"]
    assert first[0]["messageId"] == invitation and first[0]["needsDecision"]
    ok(api.call("POST", ANSWER, token=alice, json={"messageId": invitation, "decision": "rejected"}))
    newest_first = [m["messageId"] for m in ok(api.call("POST", PAGE, token=alice, json={"pageSize": 100}))["data"]]
    assert newest_first == sorted(newest_first, reverse=True) and invitation in newest_first


@pytest.mark.usefixtures("demo")
def test_another_account_cannot_answer_or_see_my_message(api, container):
    message_id = invite(container, "alice")
    for user in ("bob", "acme"):
        reply = api.call("POST", ANSWER, token=api.token(user), json={"messageId": message_id, "decision": "rejected"})
        assert (reply.status, reply.code) == (404, 404)
    assert api.call("POST", ANSWER, json={"messageId": message_id, "decision": "rejected"}).status == 401
    assert decision_of(container, message_id) is None


@pytest.mark.usefixtures("recharge_demo")
def test_a_message_that_asks_nothing_cannot_be_answered(api, container):
    uow = container.uow()
    with uow:
        message = post(uow, SystemMessage(account_id(container, "alice"), MessageKind.EXPORT, "verification_code",
                                          {"code": "x"}, container.clock().now()), "en-US")
        uow.commit()
    reply = api.call("POST", ANSWER, token=api.token("alice"),
                     json={"messageId": message.stored_id, "decision": "approved"})
    assert (reply.status, reply.code) == (409, 1632)


@pytest.mark.usefixtures("demo")
def test_two_simultaneous_answers_record_one(api, container):
    message_id = invite(container, "alice")
    owner = account_id(container, "alice")
    barrier, outcomes = threading.Barrier(2), []

    def answer(decision):
        use_case = container.answer_message()
        barrier.wait()
        try:
            outcomes.append(use_case(owner, message_id, decision).decision.value)
        except MessageAlreadyAnswered:
            outcomes.append("refused")

    threads = [threading.Thread(target=answer, args=(d,)) for d in (Decision.APPROVED, Decision.REJECTED)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("refused") == 1 and decision_of(container, message_id) in outcomes


@pytest.mark.usefixtures("demo")
@pytest.mark.parametrize("path,body,field", [
    (ANSWER, {"messageId": 1, "decision": "maybe"}, "decision"),
    (ANSWER, {"messageId": 2**40, "decision": "approved"}, "messageId"),
    (ANSWER, {"messageId": "1\ud800", "decision": "approved"}, "messageId"),
    (READ, {"messageIds": list(range(1, 202))}, "messageIds"),
    (READ, {"messageIds": [0]}, "messageIds"),
    (PAGE, {"kind": "spam"}, "kind"),
    (PAGE, {"pageSize": 10**6}, "pageSize"),
    (CHANNELS, {"channels": [{"kind": "expiry", "email": True, "phone": True, "voice": True}]}, "channels"),
    (CHANNELS, {"channels": [{"kind": "alarm", "email": True, "phone": True}]}, "channels"),
    (CHANNELS, {"channels": []}, "channels"),
])
def test_hostile_input_is_refused_with_a_422(api, container, path, body, field):
    reply = api.call("POST", path, token=api.token("alice"), json=body)
    assert (reply.status, reply.code) == (422, 422) and field in reply.body["errors"], reply.body


@pytest.mark.usefixtures("recharge_demo")
def test_the_owner_chooses_which_messages_also_go_by_e_mail_or_sms(api, container, clock):
    alice = api.token("alice")
    defaults = {c["kind"]: (c["email"], c["phone"]) for c in ok(api.call("GET", CHANNELS, token=alice))}
    assert defaults == {"expiry": (True, True), "payment": (True, False), "export": (False, False),
                        "invitation": (True, False), "geofence": (False, False)}  # crossings: the inbox alone
    chosen = ok(api.call("POST", CHANNELS, token=alice, json={"channels": [
        {"kind": "expiry", "email": False, "phone": True}, {"kind": "invitation", "email": False, "phone": False}]}))
    assert {c["kind"]: (c["email"], c["phone"]) for c in chosen}["expiry"] == (False, True)
    assert {c["kind"]: (c["email"], c["phone"]) for c in ok(api.call("GET", CHANNELS, token=api.token("bob")))} \
        == defaults  # bob keeps his
    invite(container, "alice")
    assert outbox(container, "verification_code") == []  # invitations: no copy any more
    with container.session_factory()() as session:
        room = session.scalars(select(DeviceRow).where(DeviceRow.guid == COLD_ROOM_A)).one()
        clock._now = room.service_expires_at - timedelta(days=7)
    container.send_expiry_reminders()()
    assert ("email", "alice@example.com") not in outbox(container, "service_expiring")
    assert ("phone", "13800000001") in outbox(container, "service_expiring")


def test_the_demo_gives_alice_an_invitation_to_answer_and_a_payment_result(api, app):
    from entrypoints.demo_seed import seed
    seed(app.container, history=False, inbox=True)
    seed(app.container, history=False, inbox=True)  # once
    api.language = "de-DE"
    page = ok(api.call("POST", PAGE, token=api.token("alice"), json={}))
    assert [(m["kind"], m["needsDecision"]) for m in page["data"]] == [("invitation", True), ("payment", False)]
    assert page["data"][0]["title"] == "Einladung in die Organisation Acme Cold Chain"
