from datetime import UTC, datetime, timedelta

import pytest

from core.devices.device_commands import (
    COMMAND_TIMEOUT,
    RECORD_AFTER_UPLOAD_PROBLEM,
    CommandKind,
    CommandState,
    DeviceCommand,
    DeviceParams,
    params_problems,
    parse_answer,
)

GOOD = DeviceParams(2, "C", 600, 60)
NOW = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def test_parameters_in_range_have_no_problem():
    assert params_problems(GOOD) == {}
    assert params_problems(DeviceParams(0, "F", 60, 60)) == {}
    assert params_problems(DeviceParams(4, "C", 86_400, 10)) == {}


@pytest.mark.parametrize("params,field", [
    (DeviceParams(5, "C", 600, 60), "displayPrecision"), (DeviceParams(-1, "C", 600, 60), "displayPrecision"),
    (DeviceParams(2, "K", 600, 60), "temperatureUnit"), (DeviceParams(2, "C", 59, 10), "uploadInterval"),
    (DeviceParams(2, "C", 86_401, 60), "uploadInterval"), (DeviceParams(2, "C", 600, 9), "recordInterval"),
    (DeviceParams(2, "C", 600, 86_401), "recordInterval"),
])
def test_each_parameter_out_of_range_is_named(params, field):
    assert list(params_problems(params)) == [field]


def test_recording_less_often_than_uploading_is_refused():
    assert params_problems(DeviceParams(2, "C", 600, 601)) == {"recordInterval": RECORD_AFTER_UPLOAD_PROBLEM}


def test_a_command_unanswered_past_its_time_out_shows_as_not_answered():
    command = DeviceCommand("c1", 1, CommandKind.PARAMS, GOOD, 7, NOW)
    assert command.shown_state(NOW + COMMAND_TIMEOUT) is CommandState.PENDING
    assert command.shown_state(NOW + COMMAND_TIMEOUT + timedelta(seconds=1)) is CommandState.NOT_ANSWERED
    answered = DeviceCommand("c1", 1, CommandKind.PARAMS, GOOD, 7, NOW, CommandState.ACKNOWLEDGED)
    assert answered.shown_state(NOW + timedelta(days=1)) is CommandState.ACKNOWLEDGED


def test_the_command_carries_its_id_type_and_parameters():
    import json

    command = DeviceCommand("c1", 1, CommandKind.PARAMS, GOOD, 7, NOW)
    assert json.loads(command.message("ABCDEFGH1")) == {
        "id": "c1", "type": "params", "guid": "ABCDEFGH1", "displayPrecision": 2, "temperatureUnit": "C",
        "uploadInterval": 600, "recordInterval": 60}


def test_a_device_s_answer_is_read_by_its_id():
    assert parse_answer("G1", b'{"id": "c1", "ok": true}') == parse_answer("G1", b'{"id":"c1","ok":true,"x":1}')
    refused = parse_answer("G1", b'{"id": "c1", "ok": false, "error": "flash busy"}')
    assert refused is not None and (refused.ok, refused.error, refused.guid) == (False, "flash busy", "G1")


@pytest.mark.parametrize("payload", [
    b"", b"not json", b"[]", b'"c1"', b'{"ok": true}', b'{"id": 5, "ok": true}', b'{"id": "c1", "ok": "yes"}',
    b'{"id": "c1", "ok": 1}', b'{"id": "", "ok": true}', b'{"id": "' + b"x" * 65 + b'", "ok": true}', b"\xff\xfe",
    b'{"id": "c1", "ok": NaN}',
])
def test_what_is_not_an_answer_is_refused(payload):
    assert parse_answer("G1", payload) is None


def test_a_device_s_error_text_is_kept_short_and_printable():
    long = parse_answer("G1", b'{"id": "c1", "ok": false, "error": "' + b"e" * 5000 + b'"}')
    assert long is not None and long.error == "e" * 200
    odd = parse_answer("G1", b'{"id": "c1", "ok": false, "error": "bad\\u0000\\ud800 \\u001b[31mred"}')
    assert odd is not None and odd.error == "bad [31mred"
    empty = parse_answer("G1", b'{"id": "c1", "ok": false, "error": {"deep": [1]}}')
    assert empty is not None and empty.error is None
    number = parse_answer("G1", b'{"id": "c1", "ok": false, "error": 42}')
    assert number is not None and number.error == "42"
