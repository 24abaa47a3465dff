"""Whether FDA mode is on (core.fda.ports.FdaSwitches): user_profiles.enable_fda for an account's
own records, organizations.enable_fda for an organization's."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from adapters.persistence.models import AccountRow, DeviceRow, OrganizationMemberRow, OrganizationRow, UserProfileRow
from core.fda.model import FdaSwitch, Subject


class SqlAlchemyFdaSwitches:
    def __init__(self, session: Session) -> None:
        self._s = session

    def is_on(self, subject: Subject) -> bool:
        if subject.account_id is not None:
            query = select(UserProfileRow.enable_fda).where(UserProfileRow.account_id == subject.account_id)
        else:
            query = select(OrganizationRow.enable_fda).where(OrganizationRow.id == subject.organization_id)
        return bool(self._s.scalar(query))

    def subject_of_device(self, device_id: int) -> Subject | None:
        row = self._s.execute(select(DeviceRow.owner_account_id, DeviceRow.organization_id)
                              .where(DeviceRow.id == device_id)).first()
        return None if row is None else Subject.of_device(row.owner_account_id, row.organization_id)

    def is_on_for_device(self, device_id: int) -> bool:
        subject = self.subject_of_device(device_id)
        return subject is not None and self.is_on(subject)

    def switches_of(self, account_id: int) -> list[FdaSwitch]:
        own = self._s.execute(select(AccountRow.user_name, UserProfileRow.enable_fda)
                              .outerjoin(UserProfileRow, UserProfileRow.account_id == AccountRow.id)
                              .where(AccountRow.id == account_id)).first()
        switches = [] if own is None else [FdaSwitch(Subject(account_id=account_id), bool(own.enable_fda),
                                                     own.user_name)]
        organizations = self._s.execute(
            select(OrganizationRow.id, OrganizationRow.name, OrganizationRow.enable_fda)
            .join(OrganizationMemberRow, OrganizationMemberRow.organization_id == OrganizationRow.id)
            .where(OrganizationMemberRow.account_id == account_id).order_by(OrganizationRow.name, OrganizationRow.id))
        return switches + [FdaSwitch(Subject(organization_id=o.id), bool(o.enable_fda), o.name) for o in organizations]

    def set_on(self, subject: Subject, on: bool) -> None:
        if subject.account_id is not None:
            self._s.execute(update(UserProfileRow).where(UserProfileRow.account_id == subject.account_id)
                            .values(enable_fda=int(on)))
        else:
            self._s.execute(update(OrganizationRow).where(OrganizationRow.id == subject.organization_id)
                            .values(enable_fda=int(on)))
