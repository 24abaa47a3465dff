"""The tests' copy of the demo data (tests.support.demo_copy) puts back exactly what the seed wrote."""

from sqlalchemy import text

from tests.support.demo_copy import holding, seeded, sequences_of


def _contents(app) -> dict:
    """Every row of the application's own tables, and their sequences."""
    with app.container.engine().connect() as connection:
        rows = {table.strip('"'): sorted(map(tuple, connection.execute(text(f"SELECT * FROM {table}")).all()), key=repr)
                for table in holding(connection, app.owned_tables)}
        return {"rows": rows, "sequences": sequences_of(connection, app.owned_tables)}


def test_a_copy_restores_every_row_and_sequence_and_the_seed_s_clock(app):
    seeded(app, history=True, teams=True)
    seeded_at, written = app.clock.now(), _contents(app)
    assert {"accounts", "devices", "readings", "account_roles"} <= set(written["rows"])

    app.reset()
    app.clock.advance(seconds=5)  # a later test, within the copy's minute
    seeded(app, history=True, teams=True)
    assert app.clock.now() == seeded_at
    assert _contents(app) == written
    # the next rows take the next ids, as after the seed itself
    with app.container.engine().begin() as connection:
        account = connection.execute(text("SELECT nextval(pg_get_serial_sequence('accounts', 'id'))")).scalar_one()
    assert account == max(row[0] for row in written["rows"]["accounts"]) + 1


def test_a_moved_clock_gets_a_seed_of_its_own(app):
    seeded(app, history=False)
    app.reset()
    app.clock.advance(days=2)
    later = app.clock.now()
    seeded(app, history=False)  # a copy two days old would date everything two days early
    assert app.clock.now() == later
    with app.container.engine().connect() as connection:
        assert connection.execute(text("SELECT max(created_at) FROM accounts")).scalar_one() == later


def test_a_seed_on_top_of_what_a_test_wrote_keeps_what_it_wrote(app):
    seeded(app, history=False, teams=True)
    app.reset()
    seeded(app, history=False)
    with app.container.engine().begin() as connection:
        connection.execute(text("UPDATE devices SET device_name = 'renamed by the test'"))
    seeded(app, history=False, teams=True)  # teams on top, as the seed adds them: no copy put back
    with app.container.engine().connect() as connection:
        names = set(connection.execute(text("SELECT device_name FROM devices")).scalars())
        carol = connection.execute(text("SELECT count(*) FROM accounts WHERE user_name_key = 'carol'")).scalar_one()
    assert names == {"renamed by the test"} and carol == 1
