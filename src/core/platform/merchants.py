"""The merchant accounts each white-label platform is paid to (`PayPdAliConfig`, `PayPdWxConfig`
and their international equivalents): one configuration per camp and provider. A camp without
its own for a provider is paid to the console's, which are the environment's (camp 0: never
stored, so production checks them at start).

The fields are the provider adapter's to name and check (MerchantFields); the rules here are
what every provider shares: a secret is never given back (only whether it is set and its last
four characters), a secret left out of a change keeps the stored one, a required field cannot be
emptied, and every change says who made it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from core.platform.model import MerchantConfig, MerchantField
from core.platform.ports import MerchantFields, PlatformUnitOfWork
from core.platform.queries import FindCustomPage
from core.shared.clock import Clock
from core.shared.errors import InvalidInput, NotFound
from core.shared.messages import N_

MAX_CAMP = 1_000_000  # camps are small numbers an operator gives platforms; this bounds a hostile one
REQUIRED = N_("Required")


@dataclass(frozen=True)
class ShownField:
    """A field as the operator sees it: a value, or for a secret whether it is set and its end."""

    spec: MerchantField
    value: str = ""
    last4: str | None = None


@dataclass(frozen=True)
class MerchantView:
    camp: int
    provider: str
    own: bool
    fields: tuple[ShownField, ...]
    updated_at: datetime | None = None
    updated_by: str | None = None


@dataclass(frozen=True)
class CampSummary:
    camp: int
    platforms: tuple[tuple[str, str], ...]  # (top domain, title) of each platform of the camp
    own: dict[str, bool]  # by provider: whether the camp has its own merchant account


def _shown(config: MerchantConfig | None, specs: tuple[MerchantField, ...]) -> tuple[ShownField, ...]:
    values = config.values if config else {}
    secrets = config.secrets if config else {}
    return tuple(ShownField(s, last4=secrets[s.name][-4:] if secrets.get(s.name) else None) if s.secret
                 else ShownField(s, value=values.get(s.name, "")) for s in specs)


def _view(camp: int, provider: str, config: MerchantConfig | None, fields: MerchantFields) -> MerchantView:
    return MerchantView(camp, provider, config is not None, _shown(config, fields.fields(provider)),
                        config.updated_at if config else None, config.updated_by if config else None)


def _checked_camp(camp: int, provider: str, fields: MerchantFields) -> None:
    if not 0 <= camp <= MAX_CAMP or provider not in fields.providers():
        raise NotFound()


class MerchantOverview:
    """Every camp a platform names, and the console's own (0), with the providers each has its own
    merchant account for."""

    def __init__(self, uow: PlatformUnitOfWork, fields: MerchantFields) -> None:
        self._uow, self._fields = uow, fields

    def __call__(self) -> list[CampSummary]:
        with self._uow as uow:
            platforms = uow.custom_pages.all()
            own = uow.merchant_configs.owned()
        camps = sorted({0, *(p.default_camp for p in platforms), *(camp for camp, _ in own)})
        return [CampSummary(camp, tuple((p.top_domain, p.title) for p in platforms if p.default_camp == camp),
                            {provider: (camp, provider) in own for provider in self._fields.providers()})
                for camp in camps]


class GetMerchantConfig:
    def __init__(self, uow: PlatformUnitOfWork, fields: MerchantFields) -> None:
        self._uow, self._fields = uow, fields

    def __call__(self, camp: int, provider: str) -> MerchantView:
        _checked_camp(camp, provider, self._fields)
        with self._uow as uow:
            config = uow.merchant_configs.get(camp, provider)
        return _view(camp, provider, config, self._fields)


class SaveMerchantConfig:
    """Sets a camp's merchant account at a provider. Values not named by the provider are refused;
    a secret left out (or sent empty) keeps the stored one."""

    def __init__(self, uow: PlatformUnitOfWork, fields: MerchantFields, clock: Clock) -> None:
        self._uow, self._fields, self._clock = uow, fields, clock

    def __call__(self, camp: int, provider: str, values: Mapping[str, str | None], by: str) -> MerchantView:
        _checked_camp(camp, provider, self._fields)
        if camp == 0:
            raise InvalidInput("camp", N_("The console's own accounts are set in its environment"))
        specs = {s.name: s for s in self._fields.fields(provider)}
        unknown = [name for name in values if name not in specs]
        if unknown:
            raise InvalidInput.of({f"values.{name}": N_("Unknown field") for name in unknown})
        sent = {name: (value or "").strip() for name, value in values.items()}
        with self._uow as uow:
            stored = uow.merchant_configs.get(camp, provider)
            secrets = {**(stored.secrets if stored else {}),
                       **{n: v for n, v in sent.items() if specs[n].secret and v}}
            plain = {n: v for n, v in {**(stored.values if stored else {}), **sent}.items() if not specs[n].secret}
            merged = {**plain, **secrets}
            problems: dict[str, str] = {f"values.{s.name}": REQUIRED for s in specs.values()
                                        if s.required and not merged.get(s.name)}
            params: dict[str, dict[str, Any]] = {}
            for name, (message, message_params) in self._fields.problems(
                    provider, {n: v for n, v in sent.items() if v}).items():
                problems.setdefault(f"values.{name}", message)
                params[f"values.{name}"] = message_params
            if problems:
                raise InvalidInput.of(problems, params)
            config = MerchantConfig(camp, provider, {n: v for n, v in plain.items() if v}, secrets,
                                    self._clock.now(), by)
            uow.merchant_configs.save(config)
            uow.commit()
        return _view(camp, provider, config, self._fields)


class DeleteMerchantConfig:
    """The camp is paid to the console's merchant account at the provider again."""

    def __init__(self, uow: PlatformUnitOfWork, fields: MerchantFields) -> None:
        self._uow, self._fields = uow, fields

    def __call__(self, camp: int, provider: str) -> MerchantView:
        _checked_camp(camp, provider, self._fields)
        with self._uow as uow:
            uow.merchant_configs.delete(camp, provider)
            uow.commit()
        return _view(camp, provider, None, self._fields)


class CampOfHost:
    """The camp of the platform a request came through (by its host), 0 for the console's own."""

    def __init__(self, uow: PlatformUnitOfWork) -> None:
        self._uow = uow

    def __call__(self, host: str) -> int:
        page = FindCustomPage(self._uow)(host)
        return page.default_camp if page is not None else 0
