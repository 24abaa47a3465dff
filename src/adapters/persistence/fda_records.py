"""What a signature binds (core.fda.ports.RecordVersions): the current version of each kind of
signable record, as the reader may see it, with the hash of its content (core.fda.model.content_hash).

A version holds what the signer vouches for, and nothing that changes by itself later: an alarm's
raising, its handling and deferrals (not its level, end or furthest value, which the excursion
moves on after the handling); a device's parameters and alarm limits; a waybill's particulars, state
and devices; an FDA switch's state; a device-data export's request (core.exports.signed). The
reports' source is added to `record_versions` by the periodic reports' work."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from types import SimpleNamespace
from typing import cast

from sqlalchemy import select
from sqlalchemy.orm import Session

from adapters.persistence.alarms import SqlAlchemyAlarmRepository
from adapters.persistence.device_records import SqlAlchemyDeviceCommandRepository
from adapters.persistence.devices import SqlAlchemyDeviceRepository
from adapters.persistence.exports import SqlAlchemyExportRepository
from adapters.persistence.fda_reports import report_versions
from adapters.persistence.fda_switches import SqlAlchemyFdaSwitches
from adapters.persistence.models import (
    AccountRow,
    AlarmDeferralRow,
    AlarmMessageRow,
    DeviceRow,
    OrganizationMemberRow,
    OrganizationRow,
)
from adapters.persistence.waybills import SqlAlchemyWaybillRepository
from core.devices.device_commands import CommandKind, DeviceParams
from core.devices.grants import Element
from core.exports import signed
from core.exports.model import ID_LENGTH, ExportKind
from core.fda.model import (
    ALARM,
    DEVICE_PARAMS,
    EXPORT,
    FDA_SWITCH,
    REPORT,
    WAYBILL,
    SignableRecord,
    Subject,
    content_hash,
)
from core.fda.ports import RecordVersions
from core.shared.errors import NotFound
from core.waybills.ports import WaybillsUnitOfWork
from core.waybills.use_cases import readable


def _int_id(record_id: str) -> int | None:
    return int(record_id) if record_id.isdigit() and len(record_id) <= 10 else None


class AlarmVersions:
    """An alarm message, for whoever may see the alarm records of its device."""

    def __init__(self, session: Session) -> None:
        self._s, self._alarms = session, SqlAlchemyAlarmRepository(session)

    def version_of(self, record_id: str, reader_account_id: int) -> SignableRecord | None:
        alarm_id = _int_id(record_id)
        row = self._s.get(AlarmMessageRow, alarm_id, populate_existing=True) if alarm_id is not None else None
        if row is None or not self._alarms.device_grant(reader_account_id, row.device_id).sees(Element.ALARMS):
            return None
        device = self._s.execute(select(DeviceRow.device_name, DeviceRow.guid, DeviceRow.owner_account_id,
                                        DeviceRow.organization_id).where(DeviceRow.id == row.device_id)).one()
        deferrals = self._s.execute(select(AlarmDeferralRow.account_id, AlarmDeferralRow.deferred_at,
                                           AlarmDeferralRow.deferred_until, AlarmDeferralRow.result)
                                    .where(AlarmDeferralRow.alarm_id == row.id).order_by(AlarmDeferralRow.id))
        content = {
            "alarm": row.id, "device": row.device_id, "guid": device.guid, "probe": row.probe, "kind": row.kind,
            "limit": row.limit_value, "value": row.value, "startedAt": row.started_at, "raisedAt": row.raised_at,
            "state": row.state, "handling": row.handling, "result": row.result, "handledBy": row.handled_by,
            "handledAt": row.handled_at, "deferrals": [list(d) for d in deferrals],
        }
        label = f"{device.device_name} {row.probe} {row.raised_at:%Y-%m-%d %H:%M} UTC"
        return SignableRecord(ALARM, str(row.id), label, content_hash(content),
                              Subject.of_device(device.owner_account_id, device.organization_id))


class DeviceParamsVersions:
    """A device's parameters as last asked for, with its alarm limits, for whoever may see its
    parameter settings."""

    def __init__(self, session: Session) -> None:
        self._devices, self._commands = SqlAlchemyDeviceRepository(session), SqlAlchemyDeviceCommandRepository(session)

    def version_of(self, record_id: str, reader_account_id: int) -> SignableRecord | None:
        device_id = _int_id(record_id)
        device = self._devices.visible(reader_account_id, device_id) if device_id is not None else None
        if device is None or not device.grant.sees(Element.PARAMS):
            return None
        latest = self._commands.latest(device.id, CommandKind.PARAMS)
        params = latest.params if latest is not None else DeviceParams.defaults_of(device)
        content = {"device": device.id, "guid": device.guid, "params": params.as_payload(),
                   "limits": [[p.probe, p.lower_limit, p.upper_limit, p.enabled] for p in device.limits]}
        return SignableRecord(DEVICE_PARAMS, str(device.id), f"{device.name} ({device.guid})", content_hash(content),
                              Subject.of_device(device.owner_account_id, device.organization_id))


class WaybillVersions:
    """A waybill, for whoever may read it (core.waybills: its owner, its organization's members,
    a sharee of one of its devices)."""

    def __init__(self, session: Session) -> None:
        self._uow = cast(WaybillsUnitOfWork, SimpleNamespace(waybills=SqlAlchemyWaybillRepository(session),
                                                             device_registry=SqlAlchemyDeviceRepository(session)))

    def version_of(self, record_id: str, reader_account_id: int) -> SignableRecord | None:
        waybill_id = _int_id(record_id)
        if waybill_id is None:
            return None
        try:
            waybill = readable(self._uow, reader_account_id, waybill_id)
        except NotFound:
            return None
        content = {"waybill": waybill.id, "particulars": asdict(waybill.particulars), "state": int(waybill.state),
                   "startedAt": waybill.started_at, "finishedAt": waybill.finished_at,
                   "organization": waybill.organization_id, "devices": sorted(waybill.device_ids)}
        label = waybill.particulars.order_number or f"#{waybill.id}"
        return SignableRecord(WAYBILL, str(waybill.id), label, content_hash(content),
                              Subject.of_device(waybill.owner_account_id, waybill.organization_id))


class FdaSwitchVersions:
    """A subject's FDA switch ("a:12", "o:3"), for the account itself or a member of the organization."""

    def __init__(self, session: Session) -> None:
        self._s, self._switches = session, SqlAlchemyFdaSwitches(session)

    def version_of(self, record_id: str, reader_account_id: int) -> SignableRecord | None:
        kind, _, number = record_id.partition(":")
        subject_id = _int_id(number)
        if subject_id is None or kind not in ("a", "o"):
            return None
        if kind == "a":
            subject = Subject(account_id=subject_id)
            name = self._s.scalar(select(AccountRow.user_name).where(AccountRow.id == subject_id))
            if subject_id != reader_account_id:
                return None
        else:
            subject = Subject(organization_id=subject_id)
            name = self._s.scalar(select(OrganizationRow.name).join(
                OrganizationMemberRow, OrganizationMemberRow.organization_id == OrganizationRow.id).where(
                OrganizationRow.id == subject_id, OrganizationMemberRow.account_id == reader_account_id))
        if name is None:
            return None
        content = {"subject": subject.key, "on": self._switches.is_on(subject)}
        return SignableRecord(FDA_SWITCH, subject.key, name, content_hash(content), subject)


class ExportVersions:
    """A device's readings export, for the account that asked for it and for the people of its
    device's subject (the account itself, the organization's members), who list its signatures.
    Gone with its device, or once purged (a week on)."""

    def __init__(self, session: Session) -> None:
        self._s, self._exports = session, SqlAlchemyExportRepository(session)

    def version_of(self, record_id: str, reader_account_id: int) -> SignableRecord | None:
        export = self._exports.get(record_id) if 0 < len(record_id) <= ID_LENGTH + 10 else None
        if export is None or export.kind is not ExportKind.READINGS or export.device_id is None:
            return None
        device = self._s.execute(select(DeviceRow.owner_account_id, DeviceRow.organization_id)
                                 .where(DeviceRow.id == export.device_id)).first()
        if device is None:
            return None
        subject = Subject.of_device(device.owner_account_id, device.organization_id)
        if reader_account_id not in (export.account_id, subject.account_id) and (
                subject.organization_id is None or self._s.scalar(select(OrganizationMemberRow.account_id).where(
                    OrganizationMemberRow.organization_id == subject.organization_id,
                    OrganizationMemberRow.account_id == reader_account_id)) is None):
            return None
        return SignableRecord(EXPORT, export.id, signed.version_label(export), signed.version_hash(export), subject)


def record_version_sources(session: Session) -> Mapping[str, RecordVersions]:
    """Every signable record type's source on the session (the unit of work's `record_versions`)."""
    return {ALARM: AlarmVersions(session), DEVICE_PARAMS: DeviceParamsVersions(session),
            WAYBILL: WaybillVersions(session), FDA_SWITCH: FdaSwitchVersions(session), REPORT: report_versions(session),
            EXPORT: ExportVersions(session)}
