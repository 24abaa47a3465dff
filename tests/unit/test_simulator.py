import random

from adapters.messaging.simulator import PROFILES, DeviceModel


def model(scene: str, seed: int = 1, **rates) -> DeviceModel:
    return DeviceModel(*PROFILES[scene], rng=random.Random(seed), **rates)


def test_a_quiet_fridge_stays_near_its_set_point():
    fridge = model("1", door_per_hour=0, excursion_per_hour=0)
    values = [fridge.step(60)[0] for _ in range(24 * 60)]
    assert all(3.5 < v < 6.5 for v in values)


def test_a_failing_compressor_breaks_the_limits_and_recovers():
    fridge = model("1", door_per_hour=0, excursion_per_hour=0)
    fridge.excursion_left_s = 1800
    peak = max(fridge.step(60)[0] for _ in range(30))
    assert peak > 8.0  # above the usual 2-8 °C limits
    after = [fridge.step(60)[0] for _ in range(180)]
    assert 3.5 < after[-1] < 6.5


def test_a_freezer_is_a_freezer_and_humidity_stays_in_range():
    freezer = model("3")
    steps = [freezer.step(30) for _ in range(2000)]
    assert sum(t for t, _ in steps[-100:]) / 100 < -10
    assert all(0 <= h <= 100 for _, h in steps)


def test_the_same_seed_gives_the_same_readings():
    first, second = model("2", 7), model("2", 7)
    assert [first.step(60) for _ in range(50)] == [second.step(60) for _ in range(50)]
    assert [model("2", 8).step(60) for _ in range(1)] != [model("2", 7).step(60)]


def test_a_simulated_device_takes_params_and_their_upload_interval_and_refuses_other_commands():
    from adapters.messaging.simulator import SimulatedDevice, Simulator

    simulator = Simulator("mqtt://127.0.0.1:1", [SimulatedDevice("SIMULATED001", "1")], 60)
    answer = simulator.answer_to("SIMULATED001", b'{"id": "c1", "type": "params", "uploadInterval": 120}')
    assert answer == {"id": "c1", "ok": True}
    assert simulator.intervals["SIMULATED001"] == 120
    refused = simulator.answer_to("SIMULATED001", b'{"id": "c2", "type": "upgrade"}')
    assert refused is not None and refused["ok"] is False and refused["id"] == "c2"
    assert simulator.answer_to("SIMULATED001", b"not json") is None
    assert simulator.answer_to("SIMULATED001", b'{"type": "params"}') is None
    assert simulator.intervals["SIMULATED001"] == 120


def test_a_cold_room_counts_up_its_kwh_and_a_logger_moves_with_a_fix():
    from adapters.messaging.simulator import SimulatedDevice, Simulator

    simulator = Simulator("mqtt://127.0.0.1:1", [SimulatedDevice("ROOM", "2"), SimulatedDevice("LOGGER", "1"),
                                                  SimulatedDevice("FREEZER", "3")], 60, seed=3)
    totals = [simulator.extras("ROOM", "2", 60)["kwh"] for _ in range(60)]
    assert totals == sorted(totals) and 1.0 < totals[-1] - totals[0] < 4.0  # an hour at 1.2-3.5 kW
    fixes = [simulator.extras("LOGGER", "1", 60) for _ in range(3)]
    assert all(-90 <= f["lat"] <= 90 and -180 <= f["lon"] <= 180 and 5 <= f["acc"] <= 30 for f in fixes)
    assert fixes[0] != fixes[2]
    assert simulator.extras("FREEZER", "3", 60) == {}


def test_a_truck_on_its_route_leaves_the_depot_reaches_the_yard_and_publishes_its_fixes():
    from adapters.messaging.simulator import DELIVERY_ROUTE, SimulatedDevice, Simulator
    from core.geofences.geometry import haversine_m

    simulator = Simulator("mqtt://127.0.0.1:1", [SimulatedDevice("TRUCK", "1", route=DELIVERY_ROUTE)], 60, seed=1)
    fixes = [simulator.extras("TRUCK", "1", 60) for _ in range(60)]  # an hour at 43 km/h
    distances = [haversine_m(DELIVERY_ROUTE[0], (f["lat"], f["lon"])) for f in fixes]
    assert distances[0] < 1000 and max(distances) > 10_000  # out of a 1 km depot, up to the yard 11 km north
    assert min(haversine_m(DELIVERY_ROUTE[3], (f["lat"], f["lon"])) for f in fixes) < 500
    assert all(5 <= f["acc"] <= 15 for f in fixes)
