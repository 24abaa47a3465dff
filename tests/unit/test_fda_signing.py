"""The rules of electronic signing (core/fda/signing.py, 21 CFR 11.50, 11.70, 11.200, 11.300) on fakes
of core.fda's ports: re-authentication, the lockout and its alerts, who signs, endorsements, the
second signer who must differ, the review before an approval, and the signature bound to the version."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core.fda.errors import (
    MayNotSign,
    NotEndorsed,
    ReviewBeforeApproval,
    SignatureRequired,
    SignerMustDiffer,
    SigningLocked,
    UnknownTimeZone,
    UserNameNeeded,
    WrongSignature,
)
from core.fda.model import (
    MEMBER_SIGNING_LOCKED,
    SIGNING_LOCKED,
    Endorsement,
    Meaning,
    SignatureInput,
    Signer,
    Subject,
    content_hash,
)
from core.fda.switch import DisableFda, EnableFda
from core.fda.use_cases import RecordSignatures, SignRecord, UnlockSigning
from core.shared.errors import Forbidden, InvalidInput, NotFound
from tests.unit.fda_fakes import ACME_ORG, MEMBER_ROLE_ID, World

ACME = Subject(organization_id=ACME_ORG)


@pytest.fixture
def world() -> World:
    w = World()
    w.record("waybill", "7", ACME, "acme", "carol", "dave", order="WB-7")
    return w


def sign(world: World, name: str, record_id: str = "7", session: int | None = None, record_type: str = "waybill",
         **given):
    """`name` signs with the right password unless given another; session: the account's id unless given."""
    password = given.pop("password", f"pw-{name}")
    signer = Signer(world.ids[name], session if session is not None else world.ids[name])
    return SignRecord(world.uow, world.signing)(signer, record_type, record_id, SignatureInput(password, **given))


# --- the version ---------------------------------------------------------------------------------


def test_a_record_s_hash_depends_on_its_content_not_on_how_it_is_written_down():
    at = datetime(2026, 5, 1, 10, 0, tzinfo=UTC)
    assert content_hash({"a": 1, "at": at}) == content_hash({"at": at.astimezone(), "a": 1})
    assert content_hash({"a": 1}) != content_hash({"a": 2})
    assert len(content_hash({})) == 64


def test_a_signature_is_valid_while_the_record_is_as_it_was_signed(world):
    signed = sign(world, "acme", user_name="acme", meaning="reviewed")
    assert signed.valid and signed.record_label == "waybill 7"
    read = RecordSignatures(world.uow, world.signing)
    assert [m.valid for m in read(world.ids["dave"], "waybill", "7")] == [True]
    world.uow.record_versions["waybill"].rows["7"].content["order"] = "WB-8"
    assert [m.valid for m in read(world.ids["dave"], "waybill", "7")] == [False]
    with pytest.raises(NotFound):
        read(world.ids["alice"], "waybill", "7")


# --- re-authentication ---------------------------------------------------------------------------


def test_the_first_signature_of_a_session_takes_both_components(world):
    with pytest.raises(UserNameNeeded):
        sign(world, "acme", meaning="reviewed")
    assert world.uow.signatures.rows == [] and world.uow.signatures.lock_of(world.ids["acme"]).failures == 0
    sign(world, "acme", user_name="ACME", meaning="reviewed")  # the user name in any case


def test_within_the_window_the_password_alone_signs_and_the_window_runs_from_the_last_signature(world):
    sign(world, "acme", user_name="acme", meaning="reviewed")
    for _ in range(3):
        world.clock.advance(minutes=15)
        sign(world, "acme", meaning="reviewed")
    world.clock.advance(minutes=15, seconds=1)
    with pytest.raises(UserNameNeeded):
        sign(world, "acme", meaning="reviewed")


def test_another_session_of_the_same_account_starts_with_both_components(world):
    sign(world, "acme", user_name="acme", meaning="reviewed")
    with pytest.raises(UserNameNeeded):
        sign(world, "acme", session=999, meaning="reviewed")


def test_a_user_name_given_within_the_window_must_still_be_the_signer_s(world):
    sign(world, "acme", user_name="acme", meaning="reviewed")
    with pytest.raises(WrongSignature):
        sign(world, "acme", user_name="carol", meaning="reviewed")


# --- lockout -------------------------------------------------------------------------------------


def test_each_failure_is_counted_and_committed_before_the_refusal(world):
    for left in (4, 3, 2, 1):
        commits = world.uow.commits
        with pytest.raises(WrongSignature) as refused:
            sign(world, "dave", user_name="dave", password="guess", meaning="reviewed")
        assert refused.value.params == {"left": left} and world.uow.commits == commits + 1


def test_the_fifth_failure_locks_and_tells_the_account_and_the_organization_s_administrators(world):
    for _ in range(4):
        with pytest.raises(WrongSignature):
            sign(world, "dave", user_name="dave", password="guess", meaning="reviewed")
    with pytest.raises(SigningLocked):
        sign(world, "dave", user_name="dave", password="guess", meaning="reviewed")
    told = {(m.account_id, m.template) for m in world.uow.inbox.rows}
    assert told == {(world.ids["dave"], SIGNING_LOCKED), (world.ids["acme"], MEMBER_SIGNING_LOCKED),
                    (world.ids["carol"], MEMBER_SIGNING_LOCKED)}
    assert {m.recipient for m in world.uow.outbox.rows} == {"dave@example.com", "acme@example.com",
                                                          "carol@example.com"}
    with pytest.raises(SigningLocked):  # the right password too, until the lock ends
        sign(world, "dave", user_name="dave", meaning="reviewed")


def test_the_lock_ends_after_its_time_and_the_count_starts_afresh(world):
    for _ in range(5):
        with pytest.raises((WrongSignature, SigningLocked)):
            sign(world, "carol", user_name="carol", password="guess", meaning="reviewed")
    world.clock.advance(minutes=29)
    with pytest.raises(SigningLocked):
        sign(world, "carol", user_name="carol", meaning="reviewed")
    world.clock.advance(minutes=1)
    with pytest.raises(WrongSignature) as refused:
        sign(world, "carol", user_name="carol", password="guess", meaning="reviewed")
    assert refused.value.params == {"left": 4}


def test_a_success_resets_the_count(world):
    for _ in range(4):
        with pytest.raises(WrongSignature):
            sign(world, "acme", user_name="acme", password="guess", meaning="reviewed")
    sign(world, "acme", user_name="acme", meaning="reviewed")
    with pytest.raises(WrongSignature) as refused:
        sign(world, "acme", password="guess", meaning="reviewed")
    assert refused.value.params == {"left": 4}


def test_an_administrator_of_the_account_s_organization_unlocks_it_and_nobody_else(world):
    for _ in range(5):
        with pytest.raises((WrongSignature, SigningLocked)):
            sign(world, "dave", user_name="dave", password="guess", meaning="reviewed")
    unlock = UnlockSigning(world.uow, world.clock)
    for name in ("alice", "dave"):
        with pytest.raises(NotFound):
            unlock(world.ids[name], world.ids["dave"])
    assert unlock(world.ids["carol"], world.ids["dave"]).changed is True
    assert world.uow.signatures.unlocks == [(world.ids["dave"], world.ids["carol"], ACME_ORG)]
    assert unlock(world.ids["carol"], world.ids["dave"]).changed is False
    with pytest.raises(Forbidden):
        unlock(world.ids["carol"], world.ids["carol"])


# --- what a signature says -----------------------------------------------------------------------


def test_the_time_zone_is_an_iana_name_utc_when_absent(world):
    with pytest.raises(UnknownTimeZone):
        sign(world, "acme", user_name="acme", meaning="reviewed", time_zone="CEST")
    assert sign(world, "acme", user_name="acme", meaning="reviewed", time_zone="").time_zone == "UTC"
    assert sign(world, "acme", meaning="reviewed", time_zone="Europe/Berlin").time_zone == "Europe/Berlin"


def test_a_signature_says_what_it_means(world):
    with pytest.raises(InvalidInput) as refused:
        sign(world, "acme", user_name="acme")
    assert refused.value.field == "meaning"
    signed = sign(world, "acme", user_name="acme", meaning="approved", reason="  release  ")
    assert (signed.meaning, signed.reason, signed.signer_login, signed.signer_name) == (
        "approved", "release", "acme", "acme")


def test_the_printed_name_is_the_real_name_when_there_is_one(world):
    world.uow.accounts.rows[world.ids["carol"]].real_name = "Carol Chen"
    assert sign(world, "carol", user_name="carol", meaning="reviewed").signer_name == "Carol Chen"


# --- who signs -----------------------------------------------------------------------------------


def test_who_may_change_the_record_signs_it_a_read_only_member_only_as_an_endorsement_names_them(world):
    sign(world, "carol", user_name="carol", meaning="reviewed")
    with pytest.raises(MayNotSign):
        sign(world, "dave", user_name="dave", meaning="reviewed")
    anyone = world.uow.endorsements.add(Endorsement(ACME, "Anyone", None, "reviewed", ("waybill",)), world.clock.now())
    with pytest.raises(MayNotSign):  # naming nobody, it leaves the record to those who change it
        sign(world, "dave", user_name="dave", endorsement_id=anyone.id)
    members = world.uow.endorsements.add(Endorsement(ACME, "Reviewers", None, "reviewed", ("waybill",),
                                                     role_ids=(MEMBER_ROLE_ID,)), world.clock.now())
    assert sign(world, "dave", user_name="dave", endorsement_id=members.id).endorsement_name == "Reviewers"


def test_an_endorsement_covers_only_its_subject_its_record_types_and_its_signers(world):
    own = Subject(account_id=world.ids["alice"])
    alice_s = world.uow.endorsements.add(Endorsement(own, "Mine", None, "approved", ("waybill",),
                                                     account_ids=(world.ids["alice"],)), world.clock.now())
    alarms = world.uow.endorsements.add(Endorsement(ACME, "Alarms", None, "approved", ("alarm",)), world.clock.now())
    carol_only = world.uow.endorsements.add(Endorsement(ACME, "Carol", None, "approved", ("waybill",),
                                                        account_ids=(world.ids["carol"],)), world.clock.now())
    for endorsement in (alice_s, alarms, carol_only, None):
        with pytest.raises(NotEndorsed):
            sign(world, "acme", user_name="acme", endorsement_id=endorsement.id if endorsement else 99)
    with pytest.raises(InvalidInput):  # the endorsement's meaning is the signature's
        sign(world, "carol", user_name="carol", meaning="reviewed", endorsement_id=carol_only.id)
    assert sign(world, "carol", user_name="carol", endorsement_id=carol_only.id).meaning == "approved"


def test_the_second_signer_must_differ_where_the_endorsement_says_so(world):
    distinct = world.uow.endorsements.add(Endorsement(ACME, "Four eyes", None, "Released", ("waybill",),
                                                      distinct_signer=True), world.clock.now())
    sign(world, "acme", user_name="acme", endorsement_id=distinct.id)
    with pytest.raises(SignerMustDiffer):
        sign(world, "acme", endorsement_id=distinct.id)
    sign(world, "carol", user_name="carol", endorsement_id=distinct.id)
    world.uow.record_versions["waybill"].rows["7"].content["order"] = "WB-8"
    sign(world, "acme", endorsement_id=distinct.id)  # its earlier signature no longer applies


def test_a_report_is_approved_after_another_person_reviewed_this_version_of_it(world):
    world.record("report", "1", ACME, "acme", "carol", "dave", period="2026-04")
    with pytest.raises(ReviewBeforeApproval):
        sign(world, "acme", "1", record_type="report", user_name="acme", meaning="approved")
    sign(world, "acme", "1", record_type="report", user_name="acme", meaning="reviewed")
    with pytest.raises(ReviewBeforeApproval):  # one's own review is not another person's
        sign(world, "acme", "1", record_type="report", meaning="approved")
    sign(world, "carol", "1", record_type="report", user_name="carol", meaning="reviewed")
    world.uow.record_versions["report"].rows["1"].content["late reading"] = 9.5
    with pytest.raises(ReviewBeforeApproval):  # that review was of another version
        sign(world, "acme", "1", record_type="report", meaning="approved")
    sign(world, "carol", "1", record_type="report", meaning="reviewed")
    assert sign(world, "acme", "1", record_type="report", meaning=Meaning.APPROVED).meaning == "approved"


# --- a change signed in its own transaction ------------------------------------------------------


def test_a_change_needs_a_signature_only_where_fda_mode_is_on_for_the_device(world):
    world.uow.fda_switches.devices[5] = ACME
    signer = Signer(world.ids["carol"], 1)
    assert world.signing.check(signer, 5, None) is None
    world.uow.fda_switches.on.add(ACME)
    with pytest.raises(SignatureRequired):
        world.signing.check(signer, 5, None)
    passed = world.signing.check(signer, 5, SignatureInput("pw-carol", "carol"))
    world.record("alarm", "3", ACME, "carol", handling=1)
    signed = world.signing.sign(passed, "alarm", "3", meaning=Meaning.RESPONSIBLE, reason="Door closed")
    assert (signed.meaning, signed.reason, signed.subject) == ("responsible", "Door closed", ACME)


def test_a_change_s_own_check_lets_its_maker_sign_it(world):
    """A sharee who operates a device handles its alarms: the handling's check stands for who may sign."""
    world.record("alarm", "4", Subject(account_id=world.ids["alice"]), "dave", handling=1)
    passed = world.signing.check(Signer(world.ids["dave"], 1), 5, SignatureInput("pw-dave", "dave"))
    assert world.signing.sign(passed, "alarm", "4", meaning="responsible", reason=None).signer_login == "dave"


# --- the switch ----------------------------------------------------------------------------------


def test_switching_on_twice_changes_nothing_the_second_time(world):
    enable = EnableFda(world.uow)
    assert (enable(world.ids["carol"], ACME_ORG).changed, enable(world.ids["acme"], ACME_ORG).changed) == (True, False)
    with pytest.raises(Forbidden):
        enable(world.ids["dave"], ACME_ORG)
    with pytest.raises(NotFound):
        enable(world.ids["alice"], ACME_ORG)


def test_switching_off_takes_an_approval_with_a_reason_and_binds_the_switch_s_new_state(world):
    world.uow.fda_switches.on.add(ACME)
    world.record("fda", ACME.key, ACME, "acme", "carol", "dave", on=True)
    disable = DisableFda(world.uow, world.signing)
    carol = Signer(world.ids["carol"], 1)
    with pytest.raises(SignatureRequired):
        disable(carol, ACME_ORG, None)
    with pytest.raises(InvalidInput):
        disable(carol, ACME_ORG, SignatureInput("pw-carol", "carol"))
    with pytest.raises(InvalidInput):
        disable(carol, ACME_ORG, SignatureInput("pw-carol", "carol", meaning="reviewed", reason="why"))
    assert disable(carol, ACME_ORG, SignatureInput("pw-carol", "carol", reason="audit over")).changed is True
    assert world.uow.fda_switches.on == set()
    [signed] = world.uow.signatures.rows
    assert (signed.record_type, signed.record_id, signed.meaning) == ("fda", "o:1", "approved")
    assert disable(carol, ACME_ORG, None).changed is False  # already off: no signature needed


def test_a_lock_set_now_ends_after_thirty_minutes(world):
    for _ in range(5):
        with pytest.raises((WrongSignature, SigningLocked)):
            sign(world, "acme", user_name="acme", password="guess", meaning="reviewed")
    lock = world.uow.signatures.lock_of(world.ids["acme"])
    assert lock.locked_until == world.clock.now() + timedelta(minutes=30) and lock.failures == 5
