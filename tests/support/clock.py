from datetime import UTC, datetime, timedelta


class MutableClock:
    """Stands in for the Clock port in tests, so a test can let seven days pass in a line."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime.now(UTC).replace(microsecond=0)

    def now(self) -> datetime:
        return self._now

    def set(self, at: datetime) -> None:
        self._now = at

    def advance(self, **delta: float) -> None:
        self._now += timedelta(**delta)
