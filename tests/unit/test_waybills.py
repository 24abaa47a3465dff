"""The waybills' rules on fakes: the state table, starting and finishing (by hand, by plan, by
fence), the span corrected to the devices' data, trip figures and the mean kinetic temperature,
the trip's limits taking precedence over the device's in the alarm evaluation, share links."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

import pytest

from core.alarms.evaluation import evaluate_probe
from core.alarms.model import AlarmKind, AlarmRule, Recipient, TripLimits
from core.alarms.use_cases import with_trips
from core.devices.access import Access
from core.shared.errors import Forbidden, InvalidInput, NotFound
from core.telemetry.model import Reading
from core.waybills.errors import DeviceOnAnotherTrip, NoDeviceBound, StateChangeRefused, WaybillFinished
from core.waybills.fence_rules import WaybillFenceRules
from core.waybills.model import BoundDevice, Particulars, Waybill, WaybillState, corrected_span, may_go
from core.waybills.ports import FenceOwner, Trip
from core.waybills.rules import checked
from core.waybills.sharing import CUSTOM, ReportSeal, ShareLink, expiry, token_digest
from core.waybills.statistics import GAS_CONSTANT, Point, mean_kinetic_temperature, trip_figures
from core.waybills.use_cases import BindDevices, ChangeWaybillState, RunDueWaybills, UpdateWaybill
from tests.support.clock import MutableClock

T0 = datetime(2026, 3, 1, 8, 0, tzinfo=UTC)
ALICE, BOB = 1, 2
NOT_STARTED, IN_PROGRESS, FINISHED = WaybillState.NOT_STARTED, WaybillState.IN_PROGRESS, WaybillState.FINISHED


# --- fakes ---------------------------------------------------------------------------------------


class FakeWaybills:
    def __init__(self) -> None:
        self.rows: dict[int, Waybill] = {}
        self.running: dict[int, int] = {}  # device -> waybill

    def put(self, waybill: Waybill) -> Waybill:
        self.rows[waybill.id] = waybill
        return waybill

    def get(self, waybill_id):
        found = self.rows.get(waybill_id)
        return None if found is None else replace(found)

    def update(self, waybill):
        self.rows[waybill.id] = replace(waybill)

    def sees_a_device(self, account_id, waybill_id):
        return False

    def bind(self, waybill_id, device_ids, running):
        w = self.rows[waybill_id]
        w.devices += tuple(BoundDevice(d, f"device {d}", f"G{d}") for d in device_ids)

    def trips_of(self, device_ids):
        return [Trip(d, f"device {d}", w, f"N{w}") for d, w in self.running.items() if d in device_ids]

    def change_state(self, waybill_id, from_state, to_state, at):
        w = self.rows[waybill_id]
        if w.state is not from_state:
            return False
        w.state = to_state
        if to_state is IN_PROGRESS:
            w.started_at = at
            self.running.update(dict.fromkeys(w.device_ids, waybill_id))
        else:
            w.finished_at = at
            self.running = {d: x for d, x in self.running.items() if x != waybill_id}
        return True

    def due(self, now):
        return [w for w in self.rows.values() if (w.state is NOT_STARTED and w.particulars.planned_start
                                                  and w.particulars.planned_start <= now)
                or (w.state is IN_PROGRESS and w.particulars.planned_stop and w.particulars.planned_stop <= now)]

    def of_device_at_fence(self, device_id, fence_id):
        return [replace(w) for w in self.rows.values() if device_id in w.device_ids]

    def alarm_count(self, device_ids, since, until):
        return 0


class FakeReadings:
    def span(self, device_ids, since, until):
        return None, None

    def points(self, device_ids, since, until):
        return {}

    def routes(self, device_ids, since, until, max_points):
        return {}


@dataclass
class FakeDevice:
    id: int
    access: Access
    organization_id: int | None = None


class FakeRegistry:
    def __init__(self, devices: dict[int, FakeDevice] | None = None) -> None:
        self.devices = devices or {}

    def organizations_of(self, account_id):
        return {}

    def visible_many(self, account_id, device_ids):
        return [self.devices[d] for d in device_ids if d in self.devices]


class FakeFences:
    """Every fence is alice's; what is watched, as (fence, device) pairs."""

    def __init__(self) -> None:
        self.watched: set[tuple[int, int]] = set()

    def owners(self, fence_ids):
        return {f: FenceOwner(ALICE, None) for f in fence_ids}

    def owned(self, fence_ids, owner_account_id, organization_id):
        return []

    def watch(self, fence_ids, device_ids):
        self.watched |= {(f, d) for f in fence_ids for d in device_ids}


class Rejudged(list):
    """The rejudge port: records each call."""

    def __call__(self, device_ids, since):
        self.append((list(device_ids), since))


class FakeUow:
    def __init__(self, devices: dict[int, FakeDevice] | None = None) -> None:
        self.waybills, self.trip_readings = FakeWaybills(), FakeReadings()
        self.waybill_fences = FakeFences()
        self.device_registry = FakeRegistry(devices)
        self.committed = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def commit(self):
        self.committed += 1

    def rollback(self):
        pass


def waybill(id_=1, state=NOT_STARTED, devices=(10,), owner=ALICE, **particulars) -> Waybill:
    return Waybill(id_, owner, Particulars(order_number=f"N{id_}", upper_limit=8.0, lower_limit=2.0, **particulars),
                   state, T0, devices=tuple(BoundDevice(d, f"device {d}", f"G{d}") for d in devices))


# --- the state table -------------------------------------------------------------------------------


def test_a_waybill_goes_from_not_started_to_in_progress_to_finished_and_never_back():
    assert may_go(NOT_STARTED, IN_PROGRESS) and may_go(IN_PROGRESS, FINISHED)
    assert not any(may_go(FINISHED, s) for s in WaybillState)
    assert not may_go(NOT_STARTED, FINISHED) and not may_go(IN_PROGRESS, NOT_STARTED)


def test_starting_by_hand_stamps_the_start_and_puts_its_devices_on_the_trip():
    uow, clock = FakeUow(), MutableClock(T0)
    uow.waybills.put(waybill())
    view = ChangeWaybillState(uow, clock)(ALICE, 1, IN_PROGRESS)
    assert (view.waybill.state, view.waybill.started_at) == (IN_PROGRESS, T0)
    assert uow.waybills.running == {10: 1}


def test_a_finished_waybill_cannot_start_again_nor_skip_a_state():
    uow, clock = FakeUow(), MutableClock(T0)
    uow.waybills.put(waybill(state=FINISHED))
    uow.waybills.put(waybill(2))
    with pytest.raises(StateChangeRefused):
        ChangeWaybillState(uow, clock)(ALICE, 1, IN_PROGRESS)
    with pytest.raises(StateChangeRefused):
        ChangeWaybillState(uow, clock)(ALICE, 2, FINISHED)


def test_a_waybill_without_a_device_does_not_start():
    uow = FakeUow()
    uow.waybills.put(waybill(devices=()))
    with pytest.raises(NoDeviceBound):
        ChangeWaybillState(uow, MutableClock(T0))(ALICE, 1, IN_PROGRESS)


def test_a_device_runs_one_waybill_in_progress_at_a_time():
    uow, clock = FakeUow(), MutableClock(T0)
    uow.waybills.put(waybill(1))
    uow.waybills.put(waybill(2))
    ChangeWaybillState(uow, clock)(ALICE, 1, IN_PROGRESS)
    with pytest.raises(DeviceOnAnotherTrip):
        ChangeWaybillState(uow, clock)(ALICE, 2, IN_PROGRESS)
    ChangeWaybillState(uow, clock)(ALICE, 1, FINISHED)
    assert ChangeWaybillState(uow, clock)(ALICE, 2, IN_PROGRESS).waybill.state is IN_PROGRESS


def test_another_account_gets_not_found_and_changes_nothing():
    uow = FakeUow()
    uow.waybills.put(waybill())
    with pytest.raises(NotFound):
        ChangeWaybillState(uow, MutableClock(T0))(BOB, 1, IN_PROGRESS)
    assert uow.waybills.rows[1].state is NOT_STARTED


def test_the_planned_times_start_and_finish_a_waybill_at_those_times_however_late_the_job_runs():
    uow, clock = FakeUow(), MutableClock(T0 + timedelta(hours=5))
    uow.waybills.put(waybill(planned_start=T0, planned_stop=T0 + timedelta(hours=3)))
    rejudged = Rejudged()
    assert RunDueWaybills(uow, clock, rejudged)() == (1, 0)
    assert RunDueWaybills(uow, clock, rejudged)() == (0, 1)
    assert RunDueWaybills(uow, clock, rejudged)() == (0, 0)
    done = uow.waybills.rows[1]
    assert (done.state, done.started_at, done.finished_at) == (FINISHED, T0, T0 + timedelta(hours=3))
    # the readings since each planned time were judged by the limits before: judged again, once each
    assert rejudged == [([10], T0), ([10], T0 + timedelta(hours=3))]


def test_a_finished_waybill_is_a_record_and_a_running_one_keeps_its_limits():
    uow, clock = FakeUow(), MutableClock(T0)
    uow.waybills.put(waybill(1, state=FINISHED))
    uow.waybills.put(waybill(2, state=IN_PROGRESS))
    with pytest.raises(WaybillFinished):
        UpdateWaybill(uow, clock)(ALICE, 1, Particulars(goods_name="Vaccines"))
    with pytest.raises(Exception) as refused:
        UpdateWaybill(uow, clock)(ALICE, 2, Particulars(upper_limit=9.0, lower_limit=2.0))
    assert refused.value.code == 2105
    assert UpdateWaybill(uow, clock)(ALICE, 2, Particulars(goods_name="Insulin", upper_limit=8.0,
                                                           lower_limit=2.0)).waybill.particulars.goods_name == "Insulin"


def test_binding_takes_only_devices_the_caller_operates_and_at_most_two_hundred():
    devices = {10: FakeDevice(10, Access.WRITE), 11: FakeDevice(11, Access.READ)}
    uow = FakeUow(devices)
    uow.waybills.put(waybill(devices=()))
    with pytest.raises(Forbidden):
        BindDevices(uow, MutableClock(T0))(ALICE, 1, [10, 11])
    with pytest.raises(NotFound):
        BindDevices(uow, MutableClock(T0))(ALICE, 1, [12])
    with pytest.raises(InvalidInput):
        BindDevices(uow, MutableClock(T0))(ALICE, 1, list(range(1, 202)))
    assert uow.waybills.rows[1].devices == ()
    assert BindDevices(uow, MutableClock(T0))(ALICE, 1, [10]).waybill.device_ids == [10]


# --- fences -----------------------------------------------------------------------------------------


def test_leaving_the_origin_fence_starts_and_entering_the_destination_finishes():
    uow = FakeUow()
    uow.waybills.put(waybill(origin_fence_id=7, destination_fence_id=8))
    rejudged = Rejudged()
    rules = WaybillFenceRules(uow, rejudged)
    rules.crossed(10, 7, True, T0)  # entering the origin: nothing
    rules.crossed(10, 8, True, T0)  # the destination before the start: nothing
    assert uow.waybills.rows[1].state is NOT_STARTED and rejudged == []
    rules.crossed(10, 7, False, T0 + timedelta(minutes=5))
    assert (uow.waybills.rows[1].state, uow.waybills.rows[1].started_at) == (IN_PROGRESS, T0 + timedelta(minutes=5))
    rules.crossed(10, 8, True, T0 + timedelta(hours=2))
    assert (uow.waybills.rows[1].state, uow.waybills.rows[1].finished_at) == (FINISHED, T0 + timedelta(hours=2))
    assert rejudged == [([10], T0 + timedelta(minutes=5)), ([10], T0 + timedelta(hours=2))]


# --- the span, figures and MKT --------------------------------------------------------------------


def test_the_span_is_corrected_to_the_first_and_last_reading_inside_the_window():
    window = (T0, T0 + timedelta(hours=4))
    span = corrected_span(window, T0 + timedelta(minutes=30), T0 + timedelta(hours=3))
    assert (span.start, span.end, span.corrected) == (T0 + timedelta(minutes=30), T0 + timedelta(hours=3), True)
    assert corrected_span(window, T0, T0 + timedelta(hours=4)).corrected is False
    assert corrected_span(window, None, None).corrected is False


def test_the_mean_kinetic_temperature_matches_a_worked_example():
    celsius = [2.0, 5.0, 8.0, 25.0]
    delta_h, r = 83_144.0, 8.3144621
    kelvin = [t + 273.15 for t in celsius]
    expected = (delta_h / r) / -math.log(sum(math.exp(-delta_h / (r * k)) for k in kelvin) / len(kelvin)) - 273.15
    assert mean_kinetic_temperature(celsius) == pytest.approx(expected, abs=1e-9)
    assert r == GAS_CONSTANT
    assert 10.0 < expected < 25.0  # weighted towards the warm reading, above the mean of 10
    assert mean_kinetic_temperature([5.0, 5.0]) == pytest.approx(5.0)
    assert mean_kinetic_temperature(celsius, 60_000.0) < expected  # a lower ΔH weighs the warm one less


def test_trip_figures_count_the_time_out_of_range_and_each_excursion():
    values = [5.0, 9.0, 10.0, 6.0, 1.0, 4.0]
    points = [Point(T0 + timedelta(minutes=10 * i), v) for i, v in enumerate(values)]
    figures = trip_figures(points, upper=8.0, lower=2.0)
    assert (figures.minimum, figures.maximum, figures.count) == (1.0, 10.0, 6)
    assert figures.mean == pytest.approx(sum(values) / 6)
    assert figures.out_of_range == timedelta(minutes=30)
    above, below = figures.excursions
    assert (above.above, above.start, above.end, above.extreme) == (True, points[1].ts, points[3].ts, 10.0)
    assert (below.above, below.start, below.end, below.extreme) == (False, points[4].ts, points[5].ts, 1.0)


# --- limits precedence in the alarm path ------------------------------------------------------------


RULE = AlarmRule(device_id=10, probe="t", name="Fridge", upper_limit=20.0, lower_limit=0.0, id=3)


def test_a_reading_inside_the_trip_is_judged_by_the_waybill_limits_and_one_outside_by_the_device_rule():
    trip = TripLimits(10, T0, T0 + timedelta(hours=1), 8.0, 2.0)
    inside = [Reading(10, T0 + timedelta(minutes=10), 9.0, None)]
    assert evaluate_probe(RULE, None, inside, [trip]).new_alarms[0].limit_value == 8.0
    outside = [Reading(10, T0 + timedelta(hours=2), 9.0, None)]
    assert evaluate_probe(RULE, None, outside, [trip]).new_alarms == []
    assert evaluate_probe(RULE, None, inside).new_alarms == []  # no trip: the rule's 20 °C


def test_late_history_is_judged_by_its_own_timestamps():
    finished = TripLimits(10, T0, T0 + timedelta(hours=1), 8.0, 2.0)
    uploaded_later = [Reading(10, T0 + timedelta(minutes=m), t, None) for m, t in ((5, 5.0), (15, 1.0), (90, 1.0))]
    outcome = evaluate_probe(RULE, None, uploaded_later, [finished])
    [alarm] = outcome.new_alarms
    assert (alarm.kind, alarm.started_at, alarm.ended_at) == (AlarmKind.BELOW, T0 + timedelta(minutes=15),
                                                              T0 + timedelta(minutes=90))


def test_a_device_on_a_trip_without_a_temperature_rule_gets_one_carrying_the_trip_contacts():
    contact = Recipient(level=1, name="Dock", phone="13800000000")
    rules = with_trips([], [TripLimits(11, T0, None, 8.0, 2.0, (contact,))])
    [rule] = rules
    assert (rule.device_id, rule.probe, rule.upper_limit, rule.id, rule.recipients) == (11, "t", None, None,
                                                                                          [contact])
    [extended] = with_trips([RULE], [TripLimits(10, T0, None, 8.0, 2.0, (contact,))])
    assert extended.recipients == [contact] and RULE.recipients == []


# --- validation and sharing ------------------------------------------------------------------------


def test_hostile_or_inconsistent_particulars_are_refused_field_by_field():
    with pytest.raises(InvalidInput) as refused:
        checked(Particulars(order_number="x" * 21, express_number="y" * 101, goods_name="💉", upper_limit=2.0,
                            lower_limit=8.0, planned_start=T0, planned_stop=T0 - timedelta(seconds=1)))
    assert set(refused.value.problems) == {"orderNum", "expressNumber", "goodsName", "upperLimit", "startTime"}
    assert checked(Particulars(order_number="  A-1  ")).order_number == "A-1"


@pytest.mark.parametrize(("validity", "hours"), [("8h", 8), ("1d", 24), ("3d", 72), ("7d", 168)])
def test_a_share_link_lasts_the_chosen_validity(validity, hours):
    assert expiry(validity, T0, None) == T0 + timedelta(hours=hours)


def test_a_custom_end_must_be_ahead_and_a_link_stores_only_a_digest():
    assert expiry(CUSTOM, T0, T0 + timedelta(days=2)) == T0 + timedelta(days=2)
    assert isinstance(expiry(CUSTOM, T0, T0 - timedelta(minutes=1)), str)
    assert isinstance(expiry(CUSTOM, T0, None), str)
    link = ShareLink(1, 1, token_digest("secret"), ALICE, T0, T0 + timedelta(hours=8))
    assert "secret" not in link.token_digest and link.usable(T0) and not link.usable(T0 + timedelta(hours=8))
    assert not replace(link, revoked_at=T0).usable(T0)


def test_a_report_seal_depends_on_the_key_the_waybill_and_its_data():
    seal = ReportSeal(b"k1")
    assert seal.code(1, "d") == ReportSeal(b"k1").code(1, "d")
    assert len({seal.code(1, "d"), seal.code(2, "d"), seal.code(1, "e"), ReportSeal(b"k2").code(1, "d")}) == 4
