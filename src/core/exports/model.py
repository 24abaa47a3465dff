"""An export: what was asked, how far the job has got, and the file it left."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from core.shared.messages import N_

KEPT_FOR = timedelta(days=7)
MAX_SPAN = timedelta(days=366)
MAX_PENDING = 3  # per account: exports asked for and not yet written
FILE_NAME_MAX = 80
ID_LENGTH = 22  # secrets.token_urlsafe(16)

SPAN_PROBLEM = N_("The time range may span at most 366 days")
ORDER_PROBLEM = N_("The end time must be after the start time")

# The owner's system messages (core.inbox) when an export ends; `reason` is a msgid, rendered in
# the reader's language with the message.
EXPORT_READY = "export_ready"  # params: file
EXPORT_FAILED = "export_failed"  # a device's readings; params: device, format, reason
DEVICE_LIST_EXPORT_FAILED = "device_list_export_failed"  # params: reason
# Why an export failed, besides the device going away.
GAVE_UP = N_("The file could not be written after several attempts")
NEVER_FINISHED = N_("The export was interrupted and did not finish")


class ExportFormat(StrEnum):
    CSV = "csv"
    XLSX = "xlsx"
    PDF = "pdf"


class ExportKind(StrEnum):
    READINGS = "readings"  # one device over a period
    DEVICE_LIST = "deviceList"  # the caller's device list with its filters


class ExportStatus(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    READY = "ready"
    FAILED = "failed"

    @property
    def open(self) -> bool:
        return self in (ExportStatus.PENDING, ExportStatus.RUNNING)


@dataclass
class Export:
    id: str  # unguessable: names the file too
    account_id: int
    kind: ExportKind
    format: ExportFormat
    created_at: datetime
    language: str
    time_zone: str
    device_id: int | None = None
    since: datetime | None = None
    until: datetime | None = None
    filters: dict[str, Any] = field(default_factory=dict)  # the device list's, as the API names them
    status: ExportStatus = ExportStatus.PENDING
    progress: int = 0  # percent
    title: str = ""  # what the download centre shows: the device's name, or the list
    file_name: str | None = None  # offered to the browser
    size: int | None = None
    finished_at: datetime | None = None
    error: str | None = None

    @property
    def expires_at(self) -> datetime:
        return self.created_at + KEPT_FOR

    @property
    def stored_name(self) -> str:
        return f"{self.id}.{self.format.value}"


def safe_file_name(*parts: str, extension: str) -> str:
    """A name any file system and browser takes: letters and digits of any script, '-' and '_';
    everything else (slashes, dots, quotes, controls, spaces) becomes '_', runs of it one, and the
    stem is cut to FILE_NAME_MAX characters."""
    stem = "_".join(parts)
    stem = unicodedata.normalize("NFC", stem)
    stem = re.sub(r"[^\w-]+", "_", stem, flags=re.UNICODE).strip("_")[:FILE_NAME_MAX].strip("_")
    return f"{stem or 'export'}.{extension}"


@dataclass(frozen=True)
class Certificate:
    """The facts a PDF report states, kept after the file is gone, so its code can be checked."""

    code: str
    export_id: str  # in the signed facts: two reports of the same facts have different codes
    account_name: str
    device_guid: str
    device_name: str
    since: datetime
    until: datetime
    generated_at: datetime
    readings: int
    sha256: str | None = None  # of the file as issued; known once it is written
