from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import IO, Protocol

from core.accounts.ports import AccountRepository
from core.devices.ports import DeviceRepository, ReadingHistoryRepository
from core.exports.model import Certificate, Export, ExportStatus
from core.exports.readings import ExportReadingSource
from core.fda.ports import FdaSwitches, SignatureReader
from core.geofences.model import Area
from core.inbox.ports import Inbox
from core.notifications.ports import OutboxRepository
from core.shared.paging import Page, PageRequest
from core.shared.transaction import Transaction


class ExportRepository(Protocol):
    def add(self, export: Export) -> None: ...

    def get(self, export_id: str) -> Export | None: ...

    def save(self, export: Export, only_from: Collection[ExportStatus] = ()) -> bool:
        """Status, progress, title, file name, size, finish and error. With `only_from`, only while
        the stored status is one of those (a job finishing and the sweep failing it may race:
        the first wins); whether it was saved."""
        ...

    def set_progress(self, export_id: str, percent: int) -> None: ...

    def page(self, account_id: int, request: PageRequest) -> Page[Export]:
        """The account's exports, newest first."""
        ...

    def count_open(self, account_id: int, since: datetime) -> int:
        """The account's exports still pending or running, asked for since the instant."""
        ...

    def count_ready(self, account_id: int) -> int: ...

    def created_before(self, instant: datetime, limit: int) -> list[Export]: ...

    def open_created_before(self, instant: datetime, limit: int) -> list[Export]:
        """Exports of every account still pending or running, asked for before the instant."""
        ...

    def delete(self, export_id: str) -> None: ...

    def add_certificate(self, certificate: Certificate) -> None: ...

    def set_certificate_digest(self, code: str, sha256: str) -> None: ...

    def certificate(self, code: str) -> Certificate | None: ...


class ExportFiles(Protocol):
    """Where finished files wait for their owner."""

    def create(self, name: str) -> IO[bytes]:
        """A file to write, which appears under `name` only when closed by `publish`."""
        ...

    def publish(self, handle: IO[bytes], name: str) -> int:
        """Close the file and put it in place; its size."""
        ...

    def discard(self, handle: IO[bytes]) -> None: ...

    def path(self, name: str) -> str | None:
        """Where the file is, or None when it is not there."""
        ...

    def delete(self, name: str) -> None: ...

    def digest(self, name: str) -> str:
        """sha256 of the file, in hex."""
        ...


@dataclass(frozen=True)
class ReadingsSheet:
    """What a readings file holds before its rows: labels in the reader's language."""

    title: str
    facts: Sequence[tuple[str, str]]  # label, value: account, device, period, unit...
    columns: Sequence[str]
    header: Sequence[tuple[str, str]] = ()  # label, value: lines above the columns (FDA mode's statement)


@dataclass(frozen=True)
class ProbeFigures:
    label: str
    unit: str
    minimum: str
    maximum: str
    mean: str
    mkt: str  # empty for a probe it does not apply to
    limits: str


@dataclass(frozen=True)
class MapTrack:
    """One device's way on a route map: where it was, (lat, lon) in time order."""

    label: str
    points: Sequence[tuple[float, float]]


@dataclass(frozen=True)
class MapFence:
    label: str
    areas: Sequence[Area]
    origin: bool  # the trip's origin (else its destination): its colour


class MapTiles(Protocol):
    """A base map's XYZ tiles (Web Mercator, 256 pixels)."""

    def fetch(self, zoom: int, tiles: Sequence[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
        """Each tile's image file by (x, y); raises when one of them cannot be had."""
        ...


@dataclass(frozen=True)
class RouteMap:
    """A report's map of routes, every text in the reader's language."""

    title: str
    tracks: Sequence[MapTrack]  # drawn in the report's series colours, in order
    fences: Sequence[MapFence]
    start: str
    end: str
    no_positions: str  # said instead of a map when no track has a point
    metres: str  # the scale bar's label templates, with {value}
    kilometres: str
    north: str
    tiles: MapTiles | None = None  # a base map under the routes; none: the routes on a plain ground
    attribution: str = ""  # the base map's credit


@dataclass(frozen=True)
class SignatureBlock:
    """The electronic signatures of a signed report (21 CFR 11.50), printed after its data: a row
    per signature (printed name, meaning, date and time with the time zone, ...), each saying
    whether it still applies to the record as printed; every text in the reader's language."""

    title: str
    statement: str  # what a signature here means, said above them
    columns: Sequence[str]
    rows: Sequence[Sequence[str]]
    applies: Sequence[bool]  # per row: signed on the record as it is (else shown as void)
    none: str  # said instead of the table when nobody signed


@dataclass(frozen=True)
class Report:
    """A PDF report, every text already in the reader's language and the device's unit."""

    title: str
    facts: Sequence[tuple[str, str]]
    verification: tuple[str, str]  # label, the code
    summary_title: str
    summary_columns: Sequence[str]
    summary: Sequence[ProbeFigures]
    excursions_title: str
    excursion_columns: Sequence[str]
    excursions: Sequence[Sequence[str]]
    no_excursions: str
    chart_title: str
    chart: Sequence[tuple[datetime, float | None, float | None]]  # instant, temperature, humidity (shown unit)
    chart_labels: tuple[str, str]
    table_title: str
    table_note: str | None  # said when the table is downsampled
    table_columns: Sequence[str]
    table: Sequence[Sequence[str]]
    time_zone: str
    footer_note: str | None = None  # said at the foot of every page beside the verification code
    route: RouteMap | None = None  # a section after the chart
    signatures: SignatureBlock | None = None  # the last section, after the table


class ExportRenderer(Protocol):
    """Writes the formats; each takes its rows as they come and holds none of them."""

    def readings_csv(self, out: IO[bytes], sheet: ReadingsSheet, rows: Iterator[Sequence[str]]) -> None: ...

    def readings_xlsx(self, out: IO[bytes], sheet: ReadingsSheet, rows: Iterator[Sequence[str]]) -> None: ...

    def table_xlsx(self, out: IO[bytes], title: str, columns: Sequence[str],
                   rows: Iterator[Sequence[str | int | None]]) -> None: ...

    def report_pdf(self, out: IO[bytes], report: Report) -> None: ...


class Translate(Protocol):
    def __call__(self, msgid: str, language: str, /, **params: object) -> str: ...


class TranslateInContext(Protocol):
    def __call__(self, context: str, msgid: str, language: str, /) -> str:
        """A message marked NC_(context, msgid) in the language (Translator.pgettext)."""
        ...


class LevelNames(Protocol):
    def level_names(self, level_ids: Sequence[int], languages: Sequence[str]) -> dict[int, str]:
        """Levels' names in the first of `languages` that has one, else their own."""
        ...


class ExportsUnitOfWork(Transaction, Protocol):
    @property
    def exports(self) -> ExportRepository: ...
    @property
    def export_readings(self) -> ExportReadingSource: ...
    @property
    def device_registry(self) -> DeviceRepository: ...
    @property
    def catalogue(self) -> LevelNames: ...  # the device list's levels in the reader's language
    @property
    def history(self) -> ReadingHistoryRepository: ...
    @property
    def accounts(self) -> AccountRepository: ...
    @property
    def inbox(self) -> Inbox: ...  # the owner is told when an export is ready or failed (core.inbox)
    @property
    def outbox(self) -> OutboxRepository: ...
    @property
    def fda_switches(self) -> FdaSwitches: ...  # whether a device's subject has FDA mode on: its exports are signed
    @property
    def signature_reader(self) -> SignatureReader: ...  # an export's signatures, which its files state
