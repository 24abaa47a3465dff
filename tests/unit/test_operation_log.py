"""The operation log's rules that need no database: outcomes from statuses, who reads an entry,
which columns are secrets and how values are kept, and that every call, object type and column
the log records has a label (entrypoints/api/audit/labels.py) translated in every language."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

import pytest

from adapters.persistence.audit import SKIPPED_TABLES, is_secret, plain
from core.audit.model import Change, Operation, Outcome
from core.shared.edition import LANGUAGES

AT = datetime(2026, 11, 26, 8, 0, tzinfo=UTC)


@pytest.mark.parametrize(("status", "outcome"), [(200, Outcome.SUCCEEDED), (403, Outcome.REFUSED),
                                                 (422, Outcome.REFUSED), (500, Outcome.FAILED)])
def test_an_answer_status_is_an_outcome(status, outcome):
    assert Outcome.of_status(status) is outcome


def test_an_entry_is_read_by_its_actor_and_the_owners_and_organizations_of_what_it_changed():
    changes = (Change("device", "7", "update", {"device_name": ["a", "b"]}, "b", owner_account_id=3, device_id=7,
                      organization_id=2),
               Change("alarmRule", "9", "update", {"enabled": [True, False]}, None, owner_account_id=4))
    operation = Operation(None, AT, 5, "ops", "10.0.0.1", "Device.update", "PUT", Outcome.SUCCEEDED, 200, changes)
    assert operation.readers() == ({3, 4, 5}, {2})


@pytest.mark.parametrize(("table", "column"), [
    ("accounts", "password_hash"), ("device_credentials", "password_hash"), ("login_sessions", "token_digest"),
    ("verification_codes", "code_digest"), ("verification_codes", "code"), ("x", "client_secret"), ("x", "api_key"),
])
def test_secret_columns_are_known_by_their_names(table, column):
    assert is_secret(table, column)


@pytest.mark.parametrize(("table", "column"), [("devices", "country_code"), ("accounts", "user_name"),
                                               ("orders", "order_code"), ("roles", "code")])
def test_codes_that_name_things_are_not_secrets(table, column):
    assert not is_secret(table, column)


def test_bookkeeping_and_the_log_itself_are_never_recorded():
    assert {"operation_log", "operation_log_changes", "operation_log_readers", "login_sessions", "captchas",
            "outbox_messages", "job_runs", "readings"} <= SKIPPED_TABLES


def test_values_are_kept_as_json_keeps_them():
    assert plain(AT) == "2026-11-26T08:00:00+00:00"
    assert plain(Decimal("1.50")) == "1.50"
    assert plain(b"\x00\x01") == "<2 bytes>"
    assert plain(float("nan")) == "nan"
    assert len(plain("x" * 10_000)) == 500


# Calls the API opens a recording for that can never leave an entry: public (no caller to be
# refused) and writing only bookkeeping tables (SKIPPED_TABLES: sessions, failures, codes).
NEVER_IN_THE_LOG = {"BaseAccount.login", "BaseAccount.code.login", "auth.logout"}


@pytest.fixture(scope="module")
def recorded_actions(tmp_path_factory) -> set[str]:
    """The action of every route the API records, as the app built for tests routes them."""
    from entrypoints.api.app import create_app
    from entrypoints.api.audit.recording import action_of, recorded
    from entrypoints.container import build_container
    from tests.support.fixtures import settings_for_tests

    folder = tmp_path_factory.mktemp("routes")
    app = create_app(build_container(settings_for_tests(f"sqlite:///{folder}/routes.db", folder)))
    return {action_of(rule.rule) for rule in app.url_map.iter_rules() for method in rule.methods or ()
            if recorded(rule, method)}


def recordable_columns() -> set[str]:
    """The log shows a change field by field under the column's name, labelled by name whatever
    its table: every column of a recordable table, less the ones never recorded."""
    from adapters.persistence.audit import SKIPPED_COLUMNS
    from adapters.persistence.models import Base

    tables = [t for t in Base.metadata.sorted_tables if t.name not in SKIPPED_TABLES]
    return {c.name for t in tables for c in t.columns} - SKIPPED_COLUMNS


def object_types() -> set[str]:
    from adapters.persistence.audit import KINDS

    return {kind.object_type for kind in KINDS.values()}


def test_the_calls_never_in_the_log_are_still_calls_of_the_api(recorded_actions):
    assert recorded_actions >= NEVER_IN_THE_LOG
    assert {"Device.update", "Asset.disable", "BaseRole.update", "Device.changeOrganization"} <= recorded_actions


def test_every_table_the_log_can_record_has_an_object_kind():
    from adapters.persistence.audit import KINDS
    from adapters.persistence.models import Base

    recordable = {t.name for t in Base.metadata.sorted_tables} - SKIPPED_TABLES
    assert not recordable - KINDS.keys(), f"no ObjectKind for {sorted(recordable - KINDS.keys())}"


def test_every_call_the_log_records_has_a_label(recorded_actions):
    from entrypoints.api.audit.labels import ACTIONS

    missing = sorted(recorded_actions - NEVER_IN_THE_LOG - ACTIONS.keys())
    assert not missing, f"entrypoints/api/audit/labels.py has no action label for {missing}"


def test_every_object_type_the_log_records_has_a_label():
    from entrypoints.api.audit.labels import OBJECTS

    missing = sorted(object_types() - OBJECTS.keys())
    assert not missing, f"entrypoints/api/audit/labels.py has no object label for {missing}"


def test_every_column_the_log_records_has_a_label():
    from entrypoints.api.audit.labels import FIELDS

    missing = sorted(recordable_columns() - FIELDS.keys())
    assert not missing, f"entrypoints/api/audit/labels.py has no field label for {missing}"


def test_every_label_names_something_the_log_records(recorded_actions):
    from entrypoints.api.audit.labels import ACTIONS, FIELDS, OBJECTS

    stale = {"action": ACTIONS.keys() - (recorded_actions - NEVER_IN_THE_LOG),
             "object": OBJECTS.keys() - object_types(), "field": FIELDS.keys() - recordable_columns()}
    assert not any(stale.values()), f"labels of nothing the log records: {stale}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_label_is_translated_in_each_language(language):
    """Read from the .po itself: the Translator would fall back to the English of a missing one."""
    from babel.messages.pofile import read_po

    from adapters.i18n import LOCALES_DIR
    from entrypoints.api.audit.labels import GROUPS

    with (LOCALES_DIR / language.replace("-", "_") / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        translated = {(m.context, m.id): m.string for m in read_po(handle) if m.id and not m.fuzzy}
    missing = sorted(f"{context}: {msgid}" for context, labels in GROUPS.values() for msgid in labels.values()
                     if not str(translated.get((context, msgid)) or "").strip())
    assert not missing, f"{language} translates no {missing}"
