"""The home page's tiles, chosen and ordered per user and kept on the server (at least 5). On
SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from core.accounts.home_tiles import DEFAULT_TILES, HOME_TILES, MIN_TILES

pytestmark = pytest.mark.usefixtures("demo")

TILES = "/base/BaseUserProfile/homeTiles"


def test_a_user_who_never_chose_sees_the_device_counts(api):
    reply = api.call("GET", TILES, token=api.token("alice"))
    assert (reply.status, reply.code) == (200, 0)
    assert reply.data == {"tiles": list(DEFAULT_TILES), "available": list(HOME_TILES), "minimum": MIN_TILES}


def test_the_chosen_tiles_and_their_order_are_kept_for_that_user_alone(api):
    alice, bob = api.token("alice"), api.token("bob")
    chosen = ["alarm", "expiring30", "online", "total", "expired"]
    reply = api.call("POST", TILES, token=alice, json={"tiles": chosen})
    assert (reply.status, reply.code) == (200, 0) and reply.data["tiles"] == chosen
    assert api.call("GET", TILES, token=api.token("alice")).data["tiles"] == chosen  # a new session too
    assert api.call("GET", TILES, token=bob).data["tiles"] == list(DEFAULT_TILES)
    again = list(reversed(HOME_TILES))
    assert api.call("POST", TILES, token=alice, json={"tiles": again}).data["tiles"] == again
    assert api.call("GET", TILES, token=alice).data["tiles"] == again


@pytest.mark.parametrize("tiles", [
    ["total", "online", "offline", "alarm"],  # fewer than 5
    ["total", "online", "offline", "alarm", "alarm"],  # twice
    ["total", "online", "offline", "alarm", "weather"],  # no such tile
    ["total", "online", "offline", "alarm", "\ud800"], ["total"] * 10_000, [["total"]] * 5,
    ["total", "online", "offline", "alarm", "x" * 100_000], [],
])
def test_too_few_unknown_or_hostile_tiles_are_refused_in_the_caller_s_language_and_change_nothing(api, tiles):
    alice = api.token("alice")
    chosen = list(HOME_TILES[2:8])
    api.call("POST", TILES, token=alice, json={"tiles": chosen})
    reply = api.call("POST", TILES, token=alice, headers={"Accept-Language": "de-DE"}, json={"tiles": tiles})
    assert (reply.status, reply.code) == (422, 422), reply.body
    assert reply.body["msg"] and "tiles" in str(reply.body.get("errors", {"tiles": 1}))
    assert api.call("GET", TILES, token=alice).data["tiles"] == chosen


def test_tiles_need_a_session_and_the_home_permission(api):
    assert api.call("GET", TILES).status == 401
    assert api.call("POST", TILES, json={"tiles": list(HOME_TILES)}).status == 401


def test_a_tile_given_twice_is_refused_in_german_for_a_german_caller(api):
    reply = api.call("POST", TILES, token=api.token("alice"), headers={"Accept-Language": "de-DE"},
                     json={"tiles": ["total", "online", "offline", "alarm", "alarm"]})
    assert reply.body["errors"] == {"tiles": ["Wählen Sie Kacheln aus der Liste, jede nur einmal"]}
