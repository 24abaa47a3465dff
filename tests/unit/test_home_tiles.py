from core.accounts.home_tiles import HOME_TILES, TOO_FEW, UNKNOWN, tiles_problem


def test_five_known_tiles_each_once_in_any_order_are_fine():
    assert tiles_problem(list(reversed(HOME_TILES[:5]))) is None
    assert tiles_problem(HOME_TILES) is None


def test_fewer_than_five_or_repeated_or_unknown_tiles_are_refused():
    assert tiles_problem(HOME_TILES[:4]) == TOO_FEW
    assert tiles_problem([*HOME_TILES[:4], HOME_TILES[0]]) == UNKNOWN
    assert tiles_problem([*HOME_TILES[:4], "weather"]) == UNKNOWN
