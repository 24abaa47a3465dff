"""A device-data export under FDA mode (core.exports.use_cases.RequestExport, core.exports.signed)
with the signing rules' fakes: the signature is checked before anything is recorded, binds the
export's version (its request) meaning authored, and the file's lines state it and the trail.

The fake transaction never rolls back: what it holds after a refusal is what the use case wrote
before raising, so "nothing recorded" proves the order of the checks."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest

from core.devices.grants import FULL
from core.exports import signed
from core.exports.device_report import Labels
from core.exports.model import ExportFormat
from core.exports.use_cases import RequestDeviceListExport, RequestExport, RequestReadingsExport
from core.fda.errors import SignatureRequired, WrongSignature
from core.fda.model import EXPORT, SignableRecord, SignatureInput, Subject, TrailState
from tests.unit.fakes import FakeExportRepository
from tests.unit.fda_fakes import ACME_ORG, World

DEVICE = 40
ORG = Subject(organization_id=ACME_ORG)


class Devices:
    """The registry's `visible` (carol sees the organization's device) beside the fakes' organizations_of."""

    def __init__(self, registry, readers: set[int]) -> None:
        self._registry, self._readers = registry, readers

    def visible(self, account_id: int, device_id: int):
        if device_id != DEVICE or account_id not in self._readers:
            return None
        return SimpleNamespace(id=DEVICE, name="Warehouse", grant=FULL)

    def organizations_of(self, account_id: int) -> dict[int, bool]:
        return self._registry.organizations_of(account_id)


class ExportVersions:
    """RecordVersions of "export" as the persistence adapter answers it: the recorded request."""

    def __init__(self, exports: FakeExportRepository) -> None:
        self._exports = exports

    def version_of(self, record_id: str, reader_account_id: int) -> SignableRecord | None:
        export = self._exports.get(record_id)
        if export is None or export.account_id != reader_account_id:
            return None
        return SignableRecord(EXPORT, export.id, signed.version_label(export), signed.version_hash(export), ORG)


@pytest.fixture
def world() -> World:
    w = World()
    w.uow.exports = FakeExportRepository()
    w.uow.device_registry = Devices(w.uow.device_registry, {w.ids["carol"]})
    w.uow.record_versions[EXPORT] = ExportVersions(w.uow.exports)
    w.uow.fda_switches.devices[DEVICE] = ORG
    return w


def ask(world: World, signature: SignatureInput | None, fmt: ExportFormat = ExportFormat.PDF):
    now = world.clock.now()
    return RequestExport(world.uow, world.clock, signing=world.signing)(RequestReadingsExport(
        world.ids["carol"], DEVICE, now - timedelta(days=1), now, fmt, "en-US", "Asia/Shanghai", 9, signature))


def test_fda_off_asks_no_signature_and_signs_nothing(world):
    made = ask(world, None)
    assert list(world.uow.exports.rows) == [made.id] and world.uow.signatures.rows == []


def test_fda_on_refuses_an_unsigned_export_and_records_nothing(world):
    world.uow.fda_switches.set_on(ORG, True)
    with pytest.raises(SignatureRequired):
        ask(world, None)
    assert world.uow.exports.rows == {} and world.uow.signatures.rows == []


def test_a_wrong_password_records_nothing_but_counts_the_attempt(world):
    world.uow.fda_switches.set_on(ORG, True)
    with pytest.raises(WrongSignature):
        ask(world, SignatureInput("pw-wrong", user_name="carol"))
    assert world.uow.exports.rows == {} and world.uow.signatures.rows == []
    assert world.uow.signatures.lock_of(world.ids["carol"]).failures == 1


def test_the_signature_binds_the_export_as_requested_meaning_authored(world):
    world.uow.fda_switches.set_on(ORG, True)
    made = ask(world, SignatureInput("pw-carol", user_name="carol", time_zone="Asia/Shanghai"), ExportFormat.CSV)
    [signature] = world.uow.signatures.rows
    assert (signature.record_type, signature.record_id, signature.meaning, signature.signer_login) == (
        EXPORT, made.id, "authored", "carol")
    assert signature.content_hash == signed.version_hash(made) and signature.subject == ORG
    assert signature.record_label.startswith("Warehouse ") and signature.record_label.endswith("(CSV)")
    # the version is the request: another period, format or asker is another version
    assert len({signed.version_hash(e) for e in (made, replace(made, format=ExportFormat.PDF),
                                                 replace(made, since=made.until - timedelta(hours=1)),
                                                 replace(made, account_id=made.account_id + 1))}) == 4


def test_the_device_list_is_never_signed(world):
    world.uow.fda_switches.set_on(ORG, True)
    RequestExport(world.uow, world.clock, signing=world.signing)(
        RequestDeviceListExport(world.ids["carol"], {}, "en-US", "UTC"))
    assert len(world.uow.exports.rows) == 1 and world.uow.signatures.rows == []


def test_the_statement_gives_each_manifestation_then_the_trail_and_its_newest_hash(world):
    world.uow.fda_switches.set_on(ORG, True)
    made = ask(world, SignatureInput("pw-carol", user_name="carol", time_zone="Asia/Shanghai"))
    part = signed.signed_part(world.uow, made)  # type: ignore[arg-type]
    assert part is not None and part.subject == ORG
    t = Labels(lambda msgid, language, **params: msgid.format(**params), "en-US")
    checked = datetime(2026, 5, 1, 9, 30, tzinfo=UTC)
    zone = ZoneInfo("Asia/Shanghai")
    lines = signed.statement(part, TrailState(True, 4, None, checked, "ab" * 32), t, lambda c, m: m, zone)
    assert lines == [("Electronic signature", "carol (carol); Authored; 2026-05-01 16:00:00 UTC+08:00 (Asia/Shanghai)"),
                     ("Audit trail", "Verified: 4 entries, unbroken (checked 2026-05-01 17:30:00)"),
                     (signed.NEWEST_HASH, "ab" * 32)]
    broken = signed.statement(signed.Signed(ORG, []), TrailState(False, 4, 2, checked, "cd" * 32), t,
                              lambda c, m: m, zone)
    assert broken[0] == ("Electronic signature", "Not signed")
    assert broken[1] == ("Audit trail", "Broken at entry 2 (checked 2026-05-01 17:30:00)")


def test_fda_has_no_part_in_an_unsigned_export_of_a_subject_with_fda_off(world):
    made = ask(world, None)
    assert signed.signed_part(world.uow, made) is None  # type: ignore[arg-type]
