"""The caller's own account: accountInfo, scene permissions, profile."""

from __future__ import annotations

from core.accounts.commands import UpdateProfile
from core.accounts.info import AccountInfo, PremiumState
from core.permissions.scenes import available_scenes, scene_permissions
from core.platform.model import IDENTITY, INDUSTRY
from core.shared.clock import Clock
from core.shared.errors import InvalidInput, NotAuthenticated
from core.shared.messages import N_
from core.shared.unit_of_work import UnitOfWork


class GetAccountInfo:
    def __init__(self, uow: UnitOfWork, clock: Clock) -> None:
        self._uow, self._clock = uow, clock

    def __call__(self, account_id: int) -> AccountInfo:
        with self._uow as uow:
            account = uow.accounts.get(account_id)
            if account is None:
                raise NotAuthenticated()
            held = uow.roles.permissions_of(account_id)
            return AccountInfo(
                account=account,
                profile=uow.accounts.profile(account_id),
                permissions=sorted(held),
                organizations=uow.roles.organizations_of(account_id),
                premium=PremiumState.at(uow.premium.premium_until(account_id), self._clock.now()),
                scenes=available_scenes(held),
            )


class GetPermissions:
    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int) -> set[str]:
        with self._uow as uow:
            return uow.roles.permissions_of(account_id)


class GetScenePermissions:
    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow

    def __call__(self, account_id: int, scene_id: int) -> list[str]:
        with self._uow as uow:
            return scene_permissions(scene_id, uow.roles.permissions_of(account_id))


class UpdateUserProfile:
    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow

    def __call__(self, cmd: UpdateProfile) -> None:
        with self._uow as uow:
            for field, data_type, value in (("elitechIdentity", IDENTITY, cmd.elitech_identity),
                                            ("elitechIndustry", INDUSTRY, cmd.elitech_industry)):
                if value is not None and not uow.dictionary.has(data_type, value):
                    raise InvalidInput(field, N_("Choose one of the listed values"))
            profile = uow.accounts.profile(cmd.account_id)
            for attribute in ("elitech_identity", "elitech_industry", "home_page", "enable_protect"):
                value = getattr(cmd, attribute)
                if value is not None:
                    setattr(profile, attribute, value)
            uow.accounts.save_profile(profile)
            uow.commit()
