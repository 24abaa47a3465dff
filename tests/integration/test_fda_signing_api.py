"""FDA mode and electronic signatures over the API (issue 22, 21 CFR 11.50, 11.70, 11.200, 11.300), on
SQLite and PostgreSQL, with the demo data and its teams: acme creates Acme's organization, carol
administers it, bob and dave are plain (read-only) members, alice is a stranger to it.

The switch and its repeated-action warning; switching off signed; re-authentication (both components
on a session's first signature and after the window, the password alone within it); the lockout after
five wrong attempts with the system messages it sends and an administrator's unlock; signed alarm
handling and parameter saves in one transaction with their change; signatures bound to the record's
version; endorsements and the second signer who must differ; and the attacks."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select

from adapters.persistence.models import (
    AccountRow,
    AlarmMessageRow,
    OperationLogRow,
    OutboxMessageRow,
    RoleRow,
    SystemMessageRow,
)
from adapters.persistence.models_fda_signatures import FdaSignatureRow
from core.fda.model import MEMBER_SIGNING_LOCKED, SIGNING_LOCKED
from entrypoints.demo_seed import DEMO_PASSWORD
from tests.integration.test_attack_access import warehouse_rule
from tests.support.alarms import WAREHOUSE, device_id, report
from tests.support.api import ApiClient, ok
from tests.support.demo_copy import seeded

R = "/device/FdaRecord"
E = "/device/FdaEndorsement"
RULES = "/device/DeviceAlarmRule"
ALARMS = "/device/DeviceAlarm"
ORGANIZATION_ROLES = "/base/BaseRole/queryRoleByOrganizationType"
NEEDS_SIGNATURE = "This change needs your electronic signature"
USER_NAME_NEEDED = "Sign with your user name and password"
PARAMS = {"displayPrecision": 1, "temperatureUnit": "C", "uploadInterval": 600, "recordInterval": 120}


def signature(user: str | None = None, password: str = DEMO_PASSWORD, **more) -> dict:
    return {"password": password, **({"userName": user} if user else {}), **more}


class Team:
    """The demo's teams with a token each (one login session each) and the ids the calls take."""

    def __init__(self, app) -> None:
        seeded(app, history=False, teams=True)
        self.app, self.container, self.clock = app, app.container, app.clock
        self.api = ApiClient(app.flask.test_client())
        self.tokens = {name: self.api.token(name) for name in ("acme", "alice", "bob", "carol", "dave")}
        with self.container.session_factory()() as session:
            self.ids = {name: id_ for name, id_ in session.execute(select(AccountRow.user_name, AccountRow.id))}
        [org] = [o for o in ok(self.call("acme", "GET", "/base/BaseOrganization/list"))
                 if o["organizationName"] == "Acme Cold Chain"]
        self.org = org["organizationId"]
        self.device = device_id(self.container, WAREHOUSE)

    def call(self, user: str, method: str, path: str, **kwargs):
        return self.api.call(method, path, token=self.tokens[user], **kwargs)

    def enable(self, user: str = "acme", organization: int | None = -1):
        return self.call(user, "POST", f"{R}/enable",
                         json={"organizationId": self.org if organization == -1 else organization})

    def sign(self, caller: str, record_type: str, record_id, **given):
        return self.call(caller, "POST", f"{R}/sign", json={"recordType": record_type, "recordId": str(record_id),
                                                            "signature": signature(**given)})

    def signatures(self, user: str, record_type: str, record_id) -> list[dict]:
        return ok(self.call(user, "GET", f"{R}/recordSignatures",
                            query={"recordType": record_type, "recordId": str(record_id)}))

    def alarm(self) -> int:
        """An alarm on Acme's warehouse cold room (its 2-8 °C rule added while FDA mode is off)."""
        ok(self.call("acme", "POST", f"{RULES}/insert", json=warehouse_rule(self.device)))
        report(self.container, WAREHOUSE, self.clock.now() - timedelta(minutes=5), (0, 12.0))
        with self.container.session_factory()() as session:
            return session.scalar(select(AlarmMessageRow.id).where(AlarmMessageRow.device_id == self.device))

    def rows(self, model, *where):
        with self.container.session_factory()() as session:
            return list(session.scalars(select(model).where(*where)))


@pytest.fixture
def team(app) -> Team:
    return Team(app)


# --- the switch ----------------------------------------------------------------------------------


def test_the_page_lists_the_own_switch_then_the_organizations_with_who_may_change_them(team):
    subjects = ok(team.call("dave", "GET", f"{R}/status"))["subjects"]
    assert subjects == [
        {"accountId": team.ids["dave"], "organizationId": None, "name": "dave", "enabled": False, "changeable": True},
        {"accountId": None, "organizationId": team.org, "name": "Acme Cold Chain", "enabled": False,
         "changeable": False}]
    assert [s["changeable"] for s in ok(team.call("carol", "GET", f"{R}/status"))["subjects"]] == [True, True]


def test_a_repeated_enable_warns_that_it_is_not_needed_in_the_caller_s_language(team):
    first = team.enable()
    assert (first.data, first.body["msg"]) == ({"enabled": True, "changed": True}, "ok")
    again = team.enable()
    assert (again.status, again.code, again.data) == (200, 0, {"enabled": True, "changed": False})
    assert again.body["msg"] == "FDA mode is already on: nothing to do"
    team.api.language = "de-DE"
    german = team.enable()
    assert german.data["changed"] is False and german.body["msg"] not in ("ok", again.body["msg"])
    off = team.call("acme", "POST", f"{R}/disable", json={"organizationId": None})
    assert (off.data, off.body["msg"] != "ok") == ({"enabled": False, "changed": False}, True)  # own: already off
    assert ok(team.call("dave", "GET", f"{R}/status"))["subjects"][1]["enabled"] is True


def test_only_the_organization_s_creator_and_administrators_switch_it(team):
    assert team.enable("dave").status == 403
    assert team.enable("alice").status == 404
    assert team.enable("alice", organization=2_000_000_000).status == 404
    assert team.enable("carol").data["changed"] is True
    assert ok(team.enable("bob", organization=None))["changed"] is True  # bob's own records


def test_switching_off_needs_a_signed_approval_with_a_reason_and_stays_in_the_log(team, clock):
    ok(team.enable())
    body = {"organizationId": team.org}
    refused = team.call("acme", "POST", f"{R}/disable", json=body)
    assert (refused.status, refused.code, refused.body["msg"]) == (428, 2321, NEEDS_SIGNATURE)
    no_reason = team.call("acme", "POST", f"{R}/disable", json={**body, "signature": signature("acme")})
    assert no_reason.status == 422 and "reason" in no_reason.body["errors"]
    reviewed = team.call("acme", "POST", f"{R}/disable", json={
        **body, "signature": signature("acme", reason="audit over", meaning="reviewed")})
    assert reviewed.status == 422 and "meaning" in reviewed.body["errors"]
    wrong = team.call("acme", "POST", f"{R}/disable", json={
        **body, "signature": signature("acme", "not the password", reason="audit over")})
    assert (wrong.status, wrong.code) == (403, 2323)
    assert ok(team.call("acme", "GET", f"{R}/status"))["subjects"][1]["enabled"] is True  # nothing changed
    clock.advance(minutes=1)
    off = team.call("acme", "POST", f"{R}/disable", json={**body, "signature": signature("acme", reason="audit over")})
    assert ok(off) == {"enabled": False, "changed": True}
    [signed] = team.signatures("dave", "fda", f"o:{team.org}")
    assert (signed["meaning"], signed["reason"], signed["signerLogin"], signed["valid"]) == (
        "approved", "audit over", "acme", True)
    assert signed["recordLabel"] == "Acme Cold Chain"
    with team.container.session_factory()() as session:
        actions = list(session.scalars(select(OperationLogRow.action).order_by(OperationLogRow.id)))
    assert actions.count("FdaRecord.disable") == 5  # 428, 422, 422, 403 refused, then the switch itself
    ok(team.enable())
    assert team.signatures("acme", "fda", f"o:{team.org}")[0]["valid"] is False  # the switch changed since


# --- re-authentication ---------------------------------------------------------------------------


def test_a_session_s_first_signature_takes_the_user_name_then_the_password_alone_until_the_window_ends(team, clock):
    state = ok(team.call("bob", "GET", f"{R}/signingState"))
    assert state == {"needsUserName": True, "locked": False, "lockedUntil": None, "reauthMinutes": 15,
                     "userName": "bob"}
    bob = f"a:{team.ids['bob']}"
    alone = team.sign("bob", "fda", bob, meaning="reviewed")
    assert (alone.status, alone.code, alone.body["msg"]) == (400, 2322, USER_NAME_NEEDED)
    ok(team.sign("bob", "fda", bob, user="bob", meaning="reviewed"))
    assert ok(team.call("bob", "GET", f"{R}/signingState"))["needsUserName"] is False
    clock.advance(minutes=14)
    ok(team.sign("bob", "fda", bob, meaning="reviewed"))  # within 15 minutes of the last signature
    clock.advance(minutes=14)
    ok(team.sign("bob", "fda", bob, meaning="approved"))  # the window runs from the last one
    other = team.api.token("bob")  # another login session starts with both components again
    assert team.api.call("POST", f"{R}/sign", token=other, json={
        "recordType": "fda", "recordId": bob, "signature": signature(meaning="reviewed")}).status == 400
    clock.advance(minutes=16)
    assert team.sign("bob", "fda", bob, meaning="reviewed").code == 2322
    assert ok(team.sign("bob", "fda", bob, user="BOB", meaning="reviewed"))["signerLogin"] == "bob"


def test_a_user_name_given_must_be_the_signer_s_own(team):
    bob = f"a:{team.ids['bob']}"
    taken = team.sign("bob", "fda", bob, user="carol", meaning="reviewed")  # carol's name, bob's password
    assert (taken.status, taken.code) == (403, 2323)
    assert "Attempts left before signing is locked: 4" in taken.body["msg"]


# --- lockout -------------------------------------------------------------------------------------


def test_five_wrong_attempts_lock_signing_and_tell_the_account_and_its_organization_s_administrators(team, clock):
    bob = f"a:{team.ids['bob']}"
    for left in (4, 3, 2, 1):
        wrong = team.sign("bob", "fda", bob, user="bob", password="guess", meaning="reviewed")
        assert (wrong.status, wrong.code) == (403, 2323) and wrong.body["msg"].endswith(f": {left}")
    locked = team.sign("bob", "fda", bob, user="bob", password="guess", meaning="reviewed")
    assert (locked.status, locked.code) == (423, 2324)
    right = team.sign("bob", "fda", bob, user="bob", meaning="reviewed")
    assert (right.status, right.code) == (423, 2324)  # even with the right password
    state = ok(team.call("bob", "GET", f"{R}/signingState"))
    assert state["locked"] is True and state["lockedUntil"].startswith(
        (clock.now() + timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%M"))
    told = {(m.account_id, m.template) for m in team.rows(SystemMessageRow)}
    assert told == {(team.ids["bob"], SIGNING_LOCKED), (team.ids["acme"], MEMBER_SIGNING_LOCKED),
                    (team.ids["carol"], MEMBER_SIGNING_LOCKED)}  # not dave, a plain member
    mailed = {m.recipient for m in team.rows(OutboxMessageRow, OutboxMessageRow.template.startswith("fda_"),
                                             OutboxMessageRow.channel == "email")}
    assert mailed == {"bob@acme.example", "it@acme.example", "carol@acme.example"}  # whatever they chose
    inbox = ok(team.call("carol", "POST", "/base/BaseMessage/page", json={}))["data"]
    assert "bob" in inbox[0]["content"] and "Acme Cold Chain" in inbox[0]["content"]
    with team.container.session_factory()() as session:
        refused = session.scalar(select(func.count()).select_from(OperationLogRow).where(
            OperationLogRow.action == "FdaRecord.sign", OperationLogRow.outcome == "refused"))
    assert refused == 6  # every failed attempt is in the operation log
    clock.advance(minutes=31)
    ok(team.sign("bob", "fda", bob, user="bob", meaning="reviewed"))  # the lock has ended


def test_an_administrator_unlocks_a_member_and_nobody_else_may(team):
    bob = f"a:{team.ids['bob']}"
    for _ in range(5):
        team.sign("bob", "fda", bob, user="bob", password="guess", meaning="reviewed")
    for user, status in (("dave", 404), ("alice", 404), ("bob", 404)):
        assert team.call(user, "POST", f"{R}/unlockSigning", json={"accountId": team.ids["bob"]}).status == status
    unlocked = team.call("carol", "POST", f"{R}/unlockSigning", json={"accountId": team.ids["bob"]})
    assert ok(unlocked) == {"locked": False, "changed": True}
    ok(team.sign("bob", "fda", bob, user="bob", meaning="reviewed"))
    again = team.call("carol", "POST", f"{R}/unlockSigning", json={"accountId": team.ids["bob"]})
    assert ok(again) == {"locked": False, "changed": False} and again.body["msg"] != "ok"
    assert team.call("carol", "POST", f"{R}/unlockSigning", json={"accountId": team.ids["carol"]}).status == 403


def test_a_success_starts_the_count_again(team):
    bob = f"a:{team.ids['bob']}"
    for _ in range(4):
        team.sign("bob", "fda", bob, user="bob", password="guess", meaning="reviewed")
    ok(team.sign("bob", "fda", bob, user="bob", meaning="reviewed"))
    for _ in range(4):
        assert team.sign("bob", "fda", bob, password="guess", meaning="reviewed").status == 403


# --- signed alarm handling -----------------------------------------------------------------------


def test_alarm_handling_is_signed_where_fda_mode_is_on_and_a_refused_signature_changes_nothing(team):
    alarm = team.alarm()
    ok(team.enable())
    deal = {"id": alarm, "handling": 1, "result": "Door closed"}
    unsigned = team.call("carol", "POST", f"{ALARMS}/deal", json=deal)
    assert (unsigned.status, unsigned.body["msg"]) == (428, NEEDS_SIGNATURE)
    wrong = team.call("carol", "POST", f"{ALARMS}/deal", json={**deal, "signature": signature("carol", "nope")})
    assert wrong.status == 403
    [row] = team.rows(AlarmMessageRow, AlarmMessageRow.id == alarm)
    assert (row.state, row.handling) == (0, None)
    handled = ok(team.call("carol", "POST", f"{ALARMS}/deal", json={
        **deal, "signature": signature("carol", timeZone="Asia/Shanghai")}))
    assert handled["handling"] == 1
    [signed] = handled["signatures"]
    assert (signed["recordType"], signed["recordId"], signed["signerName"], signed["meaning"],
            signed["meaningText"], signed["reason"], signed["timeZone"], signed["valid"]) == (
        "alarm", str(alarm), "carol", "responsible", "Responsible", "Door closed", "Asia/Shanghai", True)
    assert signed["localTime"].endswith("+08:00") and signed["signedAt"].endswith("+00:00")
    listed = ok(team.call("dave", "POST", f"{ALARMS}/page", json={"deviceId": team.device}))["data"]
    assert [s["id"] for s in listed[0]["signatures"]] == [signed["id"]]


def test_a_deferral_is_signed_too_and_no_longer_applies_once_the_alarm_is_approved(team):
    alarm = team.alarm()
    ok(team.enable())
    ok(team.call("acme", "POST", f"{ALARMS}/deal", json={
        "id": alarm, "handling": 3, "result": "Technician called", "signature": signature("acme")}))
    approved = ok(team.call("acme", "POST", f"{ALARMS}/deal", json={
        "id": alarm, "handling": 1, "result": "Fixed", "signature": signature(meaning="approved")}))
    assert [(s["reason"], s["meaning"], s["valid"]) for s in approved["signatures"]] == [
        ("Technician called", "responsible", False), ("Fixed", "approved", True)]


def test_with_fda_mode_off_an_alarm_is_handled_without_a_signature(team):
    alarm = team.alarm()
    handled = ok(team.call("acme", "POST", f"{ALARMS}/deal", json={"id": alarm, "handling": 2}))
    assert handled["signatures"] == []


# --- signatures bound to the record's version ----------------------------------------------------


def test_a_parameters_signature_no_longer_applies_once_the_alarm_limits_change(team):
    ok(team.call("acme", "POST", f"{RULES}/insert", json=warehouse_rule(team.device)))
    rule = ok(team.call("acme", "POST", f"{RULES}/page", json={"deviceId": team.device}))["data"][0]["id"]
    ok(team.enable())
    unsigned = team.call("acme", "POST", "/device/DeviceParam/save", json={"deviceId": team.device, **PARAMS})
    assert unsigned.status == 428
    assert ok(team.call("acme", "GET", "/device/DeviceParam/get", query={"deviceId": team.device}))["commandId"] is None
    ok(team.call("acme", "POST", "/device/DeviceParam/save", json={
        "deviceId": team.device, **PARAMS, "signature": signature("acme")}))
    [saved] = team.signatures("dave", "deviceParams", team.device)
    assert (saved["meaning"], saved["valid"]) == ("authored", True)
    assert team.call("acme", "PUT", f"{RULES}/update", json={"id": rule, "upperLimit": 6.0}).status == 428
    assert team.signatures("dave", "deviceParams", team.device)[0]["valid"] is True  # nothing changed
    ok(team.call("acme", "PUT", f"{RULES}/update", json={"id": rule, "upperLimit": 6.0,
                                                          "signature": signature(reason="new SOP")}))
    before, after = team.signatures("dave", "deviceParams", team.device)
    assert (before["valid"], after["valid"], after["reason"]) == (False, True, "new SOP")
    deleted = team.call("acme", "DELETE", f"{RULES}/delete", query={"id": rule}, json={"signature": signature()})
    assert deleted.status == 200, deleted.body
    assert [s["valid"] for s in team.signatures("acme", "deviceParams", team.device)] == [False, False, True]


def test_a_signature_cannot_be_moved_to_another_record(team):
    """Each signature names its record and the hash of the version it signed: the table refuses a change."""
    ok(team.sign("bob", "fda", f"a:{team.ids['bob']}", user="bob", meaning="reviewed"))
    from sqlalchemy import update
    from sqlalchemy.exc import DBAPIError
    with pytest.raises(DBAPIError, match="append-only"), team.container.engine().begin() as connection:
        connection.execute(update(FdaSignatureRow).values(record_id=f"a:{team.ids['acme']}"))


# --- meaning, manifestation ----------------------------------------------------------------------


def test_a_signature_shows_printed_name_local_time_with_zone_and_translated_meaning(team):
    ok(team.call("bob", "POST", "/base/BaseAccount/modifyBaseInfo", json={"realName": "Robert Brown"}))
    team.api.language = "zh-CN"
    signed = ok(team.sign("bob", "fda", f"a:{team.ids['bob']}", user="bob", meaning="reviewed",
                          timeZone="America/New_York", reason="季度复核"))
    assert (signed["signerName"], signed["signerLogin"], signed["reason"]) == ("Robert Brown", "bob", "季度复核")
    assert signed["meaningText"] not in ("reviewed", "Reviewed")
    at = datetime.fromisoformat(signed["signedAt"])
    assert datetime.fromisoformat(signed["localTime"]) == at and signed["localTime"][-6:] in ("-05:00", "-04:00")


def test_an_unknown_time_zone_and_a_meaningless_signature_are_refused(team):
    bob = f"a:{team.ids['bob']}"
    unknown = team.sign("bob", "fda", bob, user="bob", meaning="reviewed", timeZone="Mars/Olympus")
    assert (unknown.status, unknown.code) == (400, 2328)
    no_meaning = team.sign("bob", "fda", bob, user="bob")
    assert no_meaning.status == 422 and "meaning" in no_meaning.body["errors"]
    assert team.sign("bob", "fda", bob, user="bob", meaning="signed off").status == 422
    assert ok(team.call("bob", "GET", f"{R}/signingState"))["needsUserName"] is True  # none of them signed


# --- endorsements and who signs ------------------------------------------------------------------


def _waybill(team) -> int:
    return ok(team.call("acme", "POST", "/device/Waybill/insert", json={
        "orderNum": "WB-FDA-1", "organizationId": team.org}))["id"]


def _endorsement(team, user="carol", **fields):
    body = {"organizationId": team.org, "name": "QA release", "description": "Checked, then approved",
            "meaning": "approved", "recordTypes": ["waybill"], **fields}
    return team.call(user, "POST", f"{E}/insert", json=body)


def test_the_second_signer_must_differ_where_the_endorsement_says_so(team):
    waybill = _waybill(team)
    endorsement = ok(_endorsement(team, distinctSigner=True))
    assert (endorsement["meaningText"], endorsement["organizationId"]) == ("Approved", team.org)
    ok(team.sign("acme", "waybill", waybill, user="acme", endorsementId=endorsement["id"]))
    twice = team.sign("acme", "waybill", waybill, endorsementId=endorsement["id"])
    assert (twice.status, twice.code) == (409, 2326)
    second = ok(team.sign("carol", "waybill", waybill, user="carol", endorsementId=endorsement["id"]))
    assert (second["meaning"], second["endorsementName"]) == ("approved", "QA release")
    ok(team.call("acme", "PUT", "/device/Waybill/update", json={"id": waybill, "orderNum": "WB-FDA-2"}))
    assert [s["valid"] for s in team.signatures("dave", "waybill", waybill)] == [False, False]
    ok(team.sign("acme", "waybill", waybill, endorsementId=endorsement["id"]))  # the changed waybill anew


def test_a_read_only_member_signs_only_as_an_endorsement_names_them(team):
    waybill = _waybill(team)
    refused = team.sign("dave", "waybill", waybill, user="dave", meaning="reviewed")
    assert (refused.status, refused.code) == (403, 2329)
    [member_role] = [r.id for r in team.rows(RoleRow, RoleRow.code == "org_member")]  # a built-in role's id
    by_role = ok(_endorsement(team, name="Reviewers", meaning="reviewed", roleIds=[member_role]))
    signed = ok(team.sign("dave", "waybill", waybill, user="dave", endorsementId=by_role["id"]))
    assert (signed["meaning"], signed["endorsementId"]) == ("reviewed", by_role["id"])
    mismatch = team.sign("dave", "waybill", waybill, meaning="approved", endorsementId=by_role["id"])
    assert mismatch.status == 422
    by_person = ok(_endorsement(team, name="Bob only", meaning="Released for shipping",
                                accountIds=[team.ids["bob"]]))
    assert team.sign("dave", "waybill", waybill, endorsementId=by_person["id"]).code == 2325
    own = ok(team.sign("bob", "waybill", waybill, user="bob", endorsementId=by_person["id"]))
    assert own["meaningText"] == own["meaning"] == "Released for shipping"
    alarm_only = ok(_endorsement(team, name="Alarms", recordTypes=["alarm"]))
    assert team.sign("acme", "waybill", waybill, user="acme", endorsementId=alarm_only["id"]).code == 2325
    alice_own = ok(team.call("alice", "POST", f"{E}/insert", json={
        "name": "Mine", "meaning": "approved", "recordTypes": ["waybill"], "accountIds": [team.ids["alice"]]}))
    assert alice_own["organizationId"] is None
    assert team.sign("acme", "waybill", waybill, user="acme", endorsementId=alice_own["id"]).code == 2325


def test_an_endorsement_names_a_built_in_role_by_the_id_the_role_list_answers(team):
    """The FDA page picks roles from queryRoleByOrganizationType: a built-in one comes with its
    row's id, and an endorsement naming it lets its holders sign and nobody else."""
    listed = ok(team.call("carol", "GET", ORGANIZATION_ROLES,
                          query={"organizationType": 2, "organizationId": team.org}))
    built_in = {r["roleCode"]: r["roleId"] for r in listed if r["builtIn"]}
    assert set(built_in) == {"org_creator", "org_admin", "org_member"}
    assert all(isinstance(role_id, int) for role_id in built_in.values()), built_in
    unscoped = ok(team.call("alice", "GET", ORGANIZATION_ROLES, query={"organizationType": 2}))
    assert {r["roleCode"]: r["roleId"] for r in unscoped} == built_in  # the same rows for a caller of no organization

    waybill = _waybill(team)
    admins = ok(_endorsement(team, name="Administrators", roleIds=[built_in["org_admin"]]))
    assert admins["roleIds"] == [built_in["org_admin"]]
    signed = ok(team.sign("carol", "waybill", waybill, user="carol", endorsementId=admins["id"]))  # an administrator
    assert (signed["signerLogin"], signed["endorsementName"]) == ("carol", "Administrators")
    for outsider in ("bob", "acme"):  # a plain member; the creator holds org_creator, not org_admin
        refused = team.sign(outsider, "waybill", waybill, user=outsider, endorsementId=admins["id"])
        assert (refused.status, refused.code) == (403, 2325), outsider

    members = ok(_endorsement(team, name="Members", meaning="reviewed", roleIds=[built_in["org_member"]]))
    assert team.sign("dave", "waybill", waybill, user="dave", meaning="reviewed").code == 2329  # unendorsed: may not
    by_member = ok(team.sign("dave", "waybill", waybill, user="dave", endorsementId=members["id"]))
    assert (by_member["signerLogin"], by_member["meaning"]) == ("dave", "reviewed")
    assert team.sign("carol", "waybill", waybill, endorsementId=members["id"]).code == 2325
    assert [(s["signerLogin"], s["valid"]) for s in team.signatures("bob", "waybill", waybill)] == [
        ("carol", True), ("dave", True)]


def test_endorsements_are_read_by_members_and_changed_by_administrators(team):
    made = ok(_endorsement(team))
    page = ok(team.call("dave", "POST", f"{E}/page", json={"organizationId": team.org}))
    assert page["totalCount"] == 1 and page["data"][0]["name"] == "QA release"
    assert _endorsement(team, "dave").status == 403
    assert team.call("alice", "POST", f"{E}/page", json={"organizationId": team.org}).status == 404
    changed = {"id": made["id"], "name": "QA final", "meaning": "reviewed", "recordTypes": ["waybill", "alarm"]}
    for user, status in (("dave", 403), ("alice", 404), ("bob", 403)):
        assert team.call(user, "POST", f"{E}/update", json=changed).status == status
        assert team.call(user, "POST", f"{E}/delete", json={"id": made["id"]}).status == status
    updated = ok(team.call("carol", "POST", f"{E}/update", json=changed))
    assert (updated["name"], updated["recordTypes"], updated["description"]) == ("QA final", ["waybill", "alarm"], None)
    ok(team.call("acme", "POST", f"{E}/delete", json={"id": made["id"]}))
    assert ok(team.call("dave", "POST", f"{E}/page", json={"organizationId": team.org}))["totalCount"] == 0
    assert ok(team.call("dave", "POST", f"{E}/page", json={}))["totalCount"] == 0  # dave's own


@pytest.mark.parametrize(("fields", "field"), [
    ({"name": "x" * 51}, "name"), ({"name": "   "}, "name"), ({"description": "d" * 51}, "description"),
    ({"meaning": "m" * 51}, "meaning"), ({"meaning": "🔥"}, "meaning"), ({"recordTypes": []}, "recordTypes"),
    ({"recordTypes": ["invoice"]}, "recordTypes"), ({"roleIds": [1]}, "roleIds"),  # the system administrator's
    ({"accountIds": [2_000_000_000]}, "accountIds"),
])
def test_an_endorsement_s_fields_are_checked(team, fields, field):
    refused = _endorsement(team, **fields)
    assert refused.status == 422 and field in refused.body["errors"], refused.body


def test_an_endorsement_of_one_s_own_records_names_nobody_else(team):
    refused = team.call("alice", "POST", f"{E}/insert", json={
        "name": "Mine", "meaning": "approved", "recordTypes": ["waybill"], "accountIds": [team.ids["bob"]]})
    assert refused.status == 422 and "accountIds" in refused.body["errors"]


# --- the signatures list -------------------------------------------------------------------------


def test_the_signatures_list_is_scoped_to_the_caller_s_records_and_filtered(team, clock):
    waybill = _waybill(team)
    ok(team.sign("acme", "waybill", waybill, user="acme", meaning="reviewed"))
    clock.advance(minutes=1)
    ok(team.sign("carol", "waybill", waybill, user="carol", meaning="approved"))
    ok(team.sign("alice", "fda", f"a:{team.ids['alice']}", user="alice", meaning="authored"))
    page = ok(team.call("dave", "POST", f"{R}/signatures", json={}))
    assert [r["signerLogin"] for r in page["data"]] == ["carol", "acme"] and page["totalCount"] == 2
    assert ok(team.call("dave", "POST", f"{R}/signatures", json={"signerName": "CAR"}))["totalCount"] == 1
    assert ok(team.call("dave", "POST", f"{R}/signatures", json={"meaning": "reviewed"}))["data"][0][
        "signerLogin"] == "acme"
    assert ok(team.call("dave", "POST", f"{R}/signatures", json={"recordType": "alarm"}))["totalCount"] == 0
    since = (clock.now() - timedelta(seconds=30)).isoformat()
    assert ok(team.call("dave", "POST", f"{R}/signatures", json={"startTime": since}))["totalCount"] == 1
    assert team.call("alice", "POST", f"{R}/signatures", json={"organizationId": team.org}).status == 404
    assert [r["recordType"] for r in ok(team.call("alice", "POST", f"{R}/signatures", json={}))["data"]] == ["fda"]


def test_a_stranger_neither_reads_nor_signs_another_s_records(team):
    waybill = _waybill(team)
    for record_type, record_id in (("waybill", waybill), ("deviceParams", team.device), ("fda", f"o:{team.org}"),
                                   ("fda", f"a:{team.ids['acme']}"), ("alarm", 2_000_000_000), ("waybill", "x1")):
        assert team.sign("alice", record_type, record_id, user="alice", meaning="approved").status == 404
        assert team.call("alice", "GET", f"{R}/recordSignatures",
                         query={"recordType": record_type, "recordId": str(record_id)}).status == 404
    assert ok(team.call("alice", "GET", f"{R}/signingState"))["needsUserName"] is True  # no attempt counted
