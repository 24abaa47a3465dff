"""The dwell state machine (core/geofences/dwell.py) and the detection around it, with fakes."""

from datetime import UTC, datetime, timedelta

from core.geofences.detection import DetectCrossings
from core.geofences.dwell import Dwell, Observation, judge
from core.geofences.model import Circle, DwellState, WatchedFence
from core.shared.edition import Edition
from core.telemetry.model import Position, Reading

T0 = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)
IN, OUT = 200.0, -200.0  # metres inside, outside


def seen(*margins: float, accuracy: float | None = 10.0, start: datetime = T0) -> list[Observation]:
    return [Observation(start + timedelta(minutes=i), m, accuracy) for i, m in enumerate(margins)]


def test_the_first_side_a_device_is_seen_on_is_where_it_is_not_a_crossing():
    state, crossings = judge(DwellState(), seen(IN, IN, IN), Dwell(3))
    assert state.inside is True and crossings == []


def test_three_readings_outside_make_one_leaving_at_the_first_of_them():
    state, crossings = judge(DwellState(inside=True), seen(IN, OUT, OUT, OUT, OUT), Dwell(3))
    assert crossings == [(False, T0 + timedelta(minutes=1))]
    assert state.inside is False and state.pending_inside is None


def test_jitter_across_the_edge_flips_nothing():
    state, crossings = judge(DwellState(inside=True), seen(OUT, OUT, IN, OUT, IN, OUT, OUT, IN), Dwell(3))
    assert crossings == [] and state.inside is True


def test_a_fix_vaguer_than_its_distance_to_the_edge_neither_extends_nor_ends_a_run():
    vague = Observation(T0 + timedelta(minutes=1), -50.0, 80.0)  # 50 m outside, give or take 80 m
    runs = [Observation(T0, OUT, 5.0), vague, Observation(T0 + timedelta(minutes=2), OUT, 5.0)]
    state, crossings = judge(DwellState(inside=True), runs, Dwell(3))
    assert crossings == [] and state.pending_count == 2
    state, crossings = judge(state, [Observation(T0 + timedelta(minutes=3), OUT, 5.0)], Dwell(3))
    assert crossings == [(False, T0)]


def test_a_dwell_in_minutes_flips_on_two_readings_far_enough_apart():
    observations = [Observation(T0, OUT), Observation(T0 + timedelta(minutes=6), OUT)]
    _, crossings = judge(DwellState(inside=True), observations, Dwell(readings=10, minutes=5))
    assert crossings == [(False, T0)]


def test_readings_are_judged_in_time_order_and_old_ones_passed_over():
    shuffled = list(reversed(seen(IN, IN, OUT, OUT, OUT, IN, IN, IN)))
    state, crossings = judge(DwellState(inside=True), shuffled, Dwell(3))
    assert crossings == [(False, T0 + timedelta(minutes=2)), (True, T0 + timedelta(minutes=5))]
    again, more = judge(state, seen(OUT, OUT, OUT), Dwell(3))  # older than the last judged: nothing
    assert more == [] and again == state


class FakeWatch:
    def __init__(self, fences: list[WatchedFence]) -> None:
        self.fences, self.saved, self.events, self.asked = fences, {}, [], []

    def watching(self, device_ids):
        self.asked.append(list(device_ids))
        return [f for f in self.fences if f.device_id in device_ids]

    def save_states(self, states):
        self.saved.update(states)

    def add_events(self, crossings, received_at):
        self.events.extend(crossings)


class FakeInbox:
    def __init__(self) -> None:
        self.messages = []

    def recipient(self, account_id):
        from core.inbox.model import Recipient
        return Recipient(None, None, "en-US")

    def add(self, message):
        self.messages.append(message)
        return message


class FakeUow:
    def __init__(self, watch: FakeWatch) -> None:
        self.fence_watch, self.inbox, self.outbox = watch, FakeInbox(), []


class FakeListener:
    def __init__(self, fail: bool = False) -> None:
        self.calls, self.fail = [], fail

    def crossed(self, device_id, fence_id, entered, at):
        self.calls.append((device_id, fence_id, entered, at))
        if self.fail:
            raise RuntimeError("the waybills are down")


class FixedClock:
    def now(self):
        return T0 + timedelta(hours=1)


DEPOT = WatchedFence(7, 1, 42, "Depot", "Truck", "TRUCK0001", (Circle(31.0, 121.0, 500),), DwellState(inside=True))


def reading(minute: int, lat: float, device_id: int = 1) -> Reading:
    return Reading(device_id, T0 + timedelta(minutes=minute), 4.0, None, position=Position(lat, 121.0, 10.0))


def test_a_device_leaving_its_depot_tells_the_owner_and_the_listener_once_committed():
    watch, listener = FakeWatch([DEPOT]), FakeListener()
    uow = FakeUow(watch)
    detect = DetectCrossings(FixedClock(), Edition.INTERNATIONAL, listener, Dwell(2))
    after = detect(uow, [reading(0, 31.0), reading(1, 31.1), reading(2, 31.1)])
    assert [(c.entered, c.at) for c in watch.events] == [(False, T0 + timedelta(minutes=1))]
    assert [(m.account_id, m.template, m.params["fence"]) for m in uow.inbox.messages] == [(42, "fence_left", "Depot")]
    assert listener.calls == []  # not before the batch is committed
    after()
    assert listener.calls == [(1, 7, False, T0 + timedelta(minutes=1))]


def test_readings_without_a_position_ask_the_database_nothing():
    watch = FakeWatch([DEPOT])
    detect = DetectCrossings(FixedClock(), Edition.INTERNATIONAL, FakeListener())
    assert detect(FakeUow(watch), [Reading(1, T0, 4.0, None)]) is None
    assert watch.asked == []


def test_a_failing_listener_never_stops_the_ingest():
    watch, listener = FakeWatch([DEPOT]), FakeListener(fail=True)
    detect = DetectCrossings(FixedClock(), Edition.INTERNATIONAL, listener, Dwell(1))
    detect(FakeUow(watch), [reading(0, 31.1)])()
    assert len(listener.calls) == 1
