"""White-label platforms, notices and dictionaries."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from core.shared.edition import LANGUAGES


@dataclass
class CustomPage:
    """One white-label platform, found by the top domain the console is opened on."""

    id: int | None
    top_domain: str
    title: str
    company_name: str | None = None
    index_logo: str | None = None
    browser_logo: str | None = None
    login_logo: str | None = None
    background_logo: str | None = None
    theme_color: str | None = None
    style_model: str | None = None
    default_camp: int = 0
    enable_register: int = 1
    use_elitech_logo: int = 0
    force_https: int = 0
    login_page: str | None = None
    record_company: str | None = None
    record_number: str | None = None
    record_connection: str | None = None
    police_filing: str | None = None
    police_connection: str | None = None
    remark: str | None = None
    independent: int = 0


def candidate_domains(host: str) -> list[str]:
    """The host and each parent domain, longest first, so `www.demo.localhost` finds a platform
    registered for `demo.localhost`. A bare top-level label is never matched on its own."""
    labels = [label for label in host.strip().lower().split(".") if label]
    if len(labels) <= 1:
        return labels
    return [".".join(labels[i:]) for i in range(len(labels) - 1)]


@dataclass
class Notice:
    id: int | None
    camp: int
    platform: int
    notice_type: int
    contents: dict[str, str]  # rich text (HTML) by UI language, e.g. {"en-US": ..., "zh-CN": ...}
    published_at: datetime | None
    expires_at: datetime | None = None

    def content(self, language: str, fallback_language: str) -> str:
        """The text in `language`, else in the edition's `fallback_language`, else in the first
        language written (in the order of LANGUAGES): a notice is never shown empty for want of a
        translation."""
        written = [self.contents.get(code) for code in (language, fallback_language, *LANGUAGES)]
        return next((text for text in written if text), next(iter(self.contents.values()), ""))

    def in_force_at(self, now: datetime) -> bool:
        return (self.published_at is not None and self.published_at <= now
                and (self.expires_at is None or now < self.expires_at))


@dataclass
class DictItem:
    data_type: str
    data_code: str
    data_value: str
    labels: dict[str, str] = field(default_factory=dict)
    sort: int = 0

    def label(self, language: str, fallback_language: str) -> str:
        return self.labels.get(language) or self.labels.get(fallback_language) or self.data_value


IDENTITY = "ELITECH_IDENTITY"
INDUSTRY = "ELITECH_INDUSTRY"
COUNTRY_CODE = "COUNTRY_CODE"


@dataclass(frozen=True)
class MerchantField:
    name: str
    secret: bool = False
    required: bool = False
    multiline: bool = False


@dataclass(frozen=True)
class MerchantConfig:
    camp: int
    provider: str
    values: dict[str, str] = field(default_factory=dict)
    secrets: dict[str, str] = field(default_factory=dict, repr=False)
    updated_at: datetime | None = None
    updated_by: str | None = None
