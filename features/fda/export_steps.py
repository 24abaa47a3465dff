"""Steps of features/fda/exports.feature (signed data exports), imported by features/conftest.py;
the scenario's other steps are features/fda/steps.py's."""

from __future__ import annotations

import io
from datetime import timedelta

from features.fda.steps import _call, _ok, _organization, _signature, _token
from openpyxl import load_workbook  # type: ignore[import-untyped]
from pypdf import PdfReader
from pytest_bdd import parsers, then, when
from sqlalchemy import func, select
from tests.integration.test_fda_trail_api import as_superuser
from tests.support.alarms import WAREHOUSE, device_id

from adapters.persistence.models import AccountRow, ExportRow, OperationLogRow
from adapters.persistence.models_fda_trail import FdaTrailLinkRow

X = "/device/DeviceDataExport"


def _export(api, world, container, user: str, fmt: str, signature: dict | None):
    until = container.clock().now()
    body = {"deviceId": device_id(container, WAREHOUSE), "startTime": (until - timedelta(days=1)).isoformat(),
            "endTime": until.isoformat(), "format": fmt.lower(),
            **({"signature": signature} if signature is not None else {})}
    reply = _call(api, world, user, "POST", f"{X}/create", json=body)
    if reply.status == 200:
        world["export"] = (user, reply.data["id"], fmt.lower())
    return reply


def _file_lines(api, world) -> list[str]:
    """The export's file as text lines: the XLSX's first sheet's rows, or the PDF's text."""
    user, export_id, fmt = world["export"]
    response = api.client.get(f"/api{X}/download", query_string={"id": export_id}, headers={
        "Authorization": f"Bearer {_token(api, world, user)}", "Accept-Language": "en-US"})
    assert response.status_code == 200
    if fmt == "pdf":
        return [" ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.data)).pages)
                .replace("\n", " ")]
    rows = load_workbook(io.BytesIO(response.data), read_only=True).worksheets[0].iter_rows(values_only=True)
    return [" ".join(str(v) for v in row if v is not None) for row in rows]


@when(parsers.parse("{user} exports the warehouse cold room's readings as {fmt} without a signature"))
def _exports_unsigned(api, world, container, user, fmt):
    _export(api, world, container, user, fmt, None)


@when(parsers.parse("{user} exports the warehouse cold room's readings as {fmt} signed with a wrong password"))
def _exports_wrong(api, world, container, user, fmt):
    _export(api, world, container, user, fmt, _signature(user, "Wrong#Guess1"))


@when(parsers.parse("{user} exports the warehouse cold room's readings as {fmt} signed with her user name and "
                    "password"))
def _exports_signed(api, world, container, user, fmt):
    _ok(_export(api, world, container, user, fmt, _signature(user)))


@when(parsers.parse("{user} exports the warehouse cold room's readings as {fmt} signed with her password"))
def _exports_password(api, world, container, user, fmt):
    _ok(_export(api, world, container, user, fmt, _signature(None)))


@when("a superuser edits the first entry of Acme Cold Chain's audit trail")
def _tampers(api, world, container):
    with container.session_factory()() as session:
        first = session.scalar(select(FdaTrailLinkRow.operation_id).where(
            FdaTrailLinkRow.chain_key == f"o:{_organization(api, world)}", FdaTrailLinkRow.seq == 1))
    with as_superuser(container) as connection:
        connection.execute(OperationLogRow.__table__.update().where(OperationLogRow.id == first)
                           .values(client_address="10.6.6.6"))


@then(parsers.parse("{user} has asked for no export"))
def _no_export(container, user):
    with container.session_factory()() as session:
        account = session.scalar(select(AccountRow.id).where(AccountRow.user_name == user))
        assert session.scalar(select(func.count()).select_from(ExportRow).where(ExportRow.account_id == account)) == 0


@then(parsers.parse('the export\'s file states the signature of "{name}" meaning "{meaning}"'))
def _states_signature(api, world, name, meaning):
    text = " ".join(_file_lines(api, world))
    assert f"Electronic signature {name}; {meaning}; " in text, text[:500]


@then("the export's file states that the audit trail verified, with its newest hash")
def _states_verified(api, world, container):
    lines = _file_lines(api, world)
    [trail] = [line for line in lines if line.startswith("Audit trail ")]
    assert trail.startswith("Audit trail Verified: ") and "unbroken" in trail
    with container.session_factory()() as session:
        hashes = set(session.scalars(select(FdaTrailLinkRow.hash)))
    [newest] = [line for line in lines if line.startswith("Newest link's hash")]
    assert newest.rsplit(" ", 1)[1] in hashes


@then(parsers.parse("the export's file states that the audit trail is broken at entry {seq:d}"))
def _states_broken(api, world, seq):
    assert f"Audit trail Broken at entry {seq} (checked " in " ".join(_file_lines(api, world))


@then(parsers.parse("the export shows {count:d} valid signature of {user}"))
def _export_signatures(api, world, count, user):
    _, export_id, _ = world["export"]
    shown = _ok(api.call("GET", "/device/FdaRecord/recordSignatures", token=_token(api, world, user),
                         query={"recordType": "export", "recordId": export_id}))
    assert [(s["signerLogin"], s["meaning"], s["valid"]) for s in shown] == [(user, "authored", True)] * count
