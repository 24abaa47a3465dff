"""In-memory fakes of the core's ports, for unit tests of the core only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from core.accounts.captcha import Captcha
from core.accounts.info import BaseAccount, StoredAccountInfo
from core.accounts.model import Account, Bearer, CodePurpose, LoginSession, UserProfile
from core.accounts.rules import normalize_login_name
from core.accounts.throttling import Failure, Hold
from core.accounts.verification import VerificationCode
from core.alarms.push import PushSetting
from core.devices.expiry_reminders import ReminderCandidate
from core.exports.model import Export
from core.inbox.model import Decision, InboxQuery, MessageKind, Recipient, SystemMessage
from core.jobs.model import JobRun
from core.notifications.model import Channel, OutboundMessage
from core.ordering.bills import Bill
from core.ordering.invoice_model import (
    Delivery,
    InvoiceFile,
    InvoiceFilter,
    InvoiceRequest,
    InvoiceRequestStatus,
    invoiceable_cents,
)
from core.ordering.model import (
    ORDER_TRANSITIONS,
    PAID_STATES,
    Agreement,
    CloseReason,
    InvoiceStatus,
    Order,
    OrderEvent,
    OrderKind,
    OrderMove,
    PaymentFailure,
    PayStatus,
)
from core.ordering.payments import (
    NotificationRecord,
    PaymentRequest,
    PaymentResult,
    PaymentStart,
    RefundRequest,
    RefundResult,
)
from core.ordering.ports import ServicedDevice
from core.ordering.refund_model import Refund, RefundStatus
from core.ordering.take_back import DeviceHolding, TakeBack
from core.organizations.model import (
    CustomRole,
    Invitation,
    InvitationStatus,
    Invitee,
    Member,
    MyOrganization,
    Organization,
)
from core.permissions.roles import BUILT_IN, BY_CODE
from core.platform.model import DictItem
from core.pricing.level_change import ServiceState
from core.pricing.model import AlertPackage, Level, ServiceItem
from core.pricing.rules import DataPlan
from core.shared.edition import PayType
from core.shared.errors import UserAlreadyExists
from core.shared.paging import Page, PageRequest


class FakeAccountRepository:
    def __init__(self) -> None:
        self.rows: dict[int, Account] = {}
        self.profiles: dict[int, UserProfile] = {}

    def add(self, account: Account) -> Account:
        if self.user_name_taken(account.user_name):
            raise UserAlreadyExists()
        account.id = len(self.rows) + 1
        self.rows[account.id] = account
        return account

    def get(self, account_id: int) -> Account | None:
        return self.rows.get(account_id)

    def by_login_name(self, name: str) -> Account | None:
        name = name.strip()
        return next((a for a in self.rows.values()
                     if normalize_login_name(a.user_name) == normalize_login_name(name)
                     or a.phone == name or (a.email or "").lower() == name.lower()), None)

    def by_contact(self, channel: Channel, target: str) -> Account | None:
        attribute = "phone" if channel is Channel.PHONE else "email"
        return next((a for a in self.rows.values() if getattr(a, attribute) == target), None)

    def user_name_taken(self, user_name: str) -> bool:
        return any(normalize_login_name(a.user_name) == normalize_login_name(user_name) for a in self.rows.values())

    def set_password_hash(self, account_id: int, password_hash: str) -> None:
        self.rows[account_id].password_hash = password_hash

    def set_contact(self, account_id: int, channel: Channel, target: str) -> None:
        setattr(self.rows[account_id], "phone" if channel is Channel.PHONE else "email", target)

    def set_base_info(self, account_id: int, real_name: str | None, company: str | None) -> None:
        self.rows[account_id].real_name, self.rows[account_id].company = real_name, company

    def set_language(self, account_id: int, language: str) -> None:
        self.rows[account_id].language = language

    def profile(self, account_id: int) -> UserProfile:
        return replace(self.profiles.get(account_id, UserProfile(account_id)))

    def save_profile(self, profile: UserProfile) -> None:
        self.profiles[profile.account_id] = profile


class FakeRoleRepository:
    def __init__(self) -> None:
        self.assigned: dict[int, set[str]] = {}

    def assign(self, account_id: int, role_code: str) -> None:
        self.assigned.setdefault(account_id, set()).add(role_code)

    def permissions_of(self, account_id: int) -> frozenset[str]:
        return frozenset().union(*(BY_CODE[c].permissions for c in self.assigned.get(account_id, set())))


class FakeAccountInfoRepository:
    def __init__(self, accounts: FakeAccountRepository) -> None:
        self._accounts = accounts
        self.premium_until: dict[int, datetime] = {}

    def of(self, account_id: int) -> StoredAccountInfo | None:
        a = self._accounts.get(account_id)
        if a is None or a.id is None:
            return None
        shown = BaseAccount(a.id, a.user_name, a.photo_url, a.phone, a.email, a.account_type, a.real_name, a.company)
        return StoredAccountInfo(shown, self._accounts.profile(account_id), [], self.premium_until.get(account_id))


class FakeSessionRepository:
    def __init__(self, accounts: FakeAccountRepository, roles: FakeRoleRepository) -> None:
        self._accounts, self._roles = accounts, roles
        self.rows: list[LoginSession] = []

    def add(self, session: LoginSession) -> None:
        session.id = len(self.rows) + 1
        self.rows.append(session)

    def bearer(self, token_digest: str) -> Bearer | None:
        session = next((s for s in self.rows if s.token_digest == token_digest), None)
        account = self._accounts.get(session.account_id) if session is not None else None
        if session is None or session.id is None or account is None:
            return None
        return Bearer(session.id, session.account_id, account.user_name, session.expires_at, session.revoked_at,
                      account.status, self._roles.permissions_of(session.account_id))

    def revoke(self, session_id: int, now: datetime) -> None:
        for s in self.rows:
            if s.id == session_id and s.revoked_at is None:
                s.revoked_at = now

    def revoke_all(self, account_id: int, now: datetime, keep_session_id: int | None = None) -> None:
        for s in self.rows:
            if s.account_id == account_id and s.revoked_at is None and s.id != keep_session_id:
                s.revoked_at = now


class FakeThrottleRepository:
    def __init__(self) -> None:
        self.failures: list[tuple[str, Failure]] = []
        self.holds: dict[tuple[Hold, str], datetime] = {}

    def add_failure(self, name_key, address, at):
        self.failures.append((name_key, Failure(address, at)))

    def failures_of(self, name_key, since):
        return [f for k, f in self.failures if k == name_key and f.at > since]

    def names_failing_from(self, address, since):
        return len({k for k, f in self.failures if f.address == address and f.at > since})

    def clear_pair(self, name_key, address):
        self.failures = [(k, f) for k, f in self.failures if (k, f.address) != (name_key, address)]

    def held_until(self, hold, key, now):
        until = self.holds.get((hold, key))
        return until if until and until > now else None

    def hold(self, hold, key, until):
        self.holds[(hold, key)] = until


class FakeCodeRepository:
    def __init__(self) -> None:
        self.rows: list[VerificationCode] = []

    def add(self, code: VerificationCode) -> None:
        code.id = len(self.rows) + 1
        self.rows.append(code)

    def latest(self, channel: Channel, target: str, purpose: CodePurpose) -> VerificationCode | None:
        matching = [c for c in self.rows if (c.channel, c.target, c.purpose) == (channel, target, purpose)]
        return matching[-1] if matching else None

    def sent_since(self, channel: Channel, target: str, since: datetime) -> int:
        return sum(1 for c in self.rows if (c.channel, c.target) == (channel, target) and c.created_at > since)

    def save(self, code: VerificationCode) -> None:
        pass  # the fake holds the objects themselves


class FakeCaptchaRepository:
    def __init__(self) -> None:
        self.rows: dict[str, Captcha] = {}

    def add(self, captcha: Captcha) -> None:
        self.rows[captcha.id] = captcha

    def take(self, captcha_id: str) -> Captcha | None:
        return self.rows.pop(captcha_id, None)

    def purge_expired(self, now: datetime) -> None:
        self.rows = {k: c for k, c in self.rows.items() if c.expires_at > now}


class FakeOutboxRepository:
    def __init__(self) -> None:
        self.rows: list[OutboundMessage] = []

    def add(self, message: OutboundMessage) -> None:
        message.id = len(self.rows) + 1
        self.rows.append(message)

    def pending(self, limit: int):
        return [m for m in self.rows if m.sent_at is None and m.attempts < 5][:limit]

    def save(self, message: OutboundMessage) -> None:
        pass


class FakeDictionaryRepository:
    def __init__(self, items: list[DictItem] | None = None) -> None:
        self.rows = items or []

    def items(self, data_type: str) -> list[DictItem]:
        return [i for i in self.rows if i.data_type == data_type]

    def has(self, data_type: str, data_code: str) -> bool:
        return any(i.data_type == data_type and i.data_code == data_code for i in self.rows)


class FakeTransaction:
    """The transaction every fake unit of work is: entered, counted at each commit, never undone."""

    commits = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def commit(self) -> None:
        self.commits += 1

    def rollback(self) -> None:
        pass


class FakeUnitOfWork(FakeTransaction):
    def __init__(self) -> None:
        self.accounts = FakeAccountRepository()
        self.roles = FakeRoleRepository()
        self.account_info = FakeAccountInfoRepository(self.accounts)
        self.sessions = FakeSessionRepository(self.accounts, self.roles)
        self.throttle = FakeThrottleRepository()
        self.codes = FakeCodeRepository()
        self.captchas = FakeCaptchaRepository()
        self.outbox = FakeOutboxRepository()
        self.dictionary = FakeDictionaryRepository()
        self.custom_pages = self.notices = None
        self.expiry_reminders = FakeExpiryReminderRepository()
        self.inbox = FakeInbox()
        self.job_runs = FakeJobRunRepository()
        self.commits = 0


class FakeHasher:
    """A transparent 'hash' that records what was verified."""

    def __init__(self, scheme: str = "v2") -> None:
        self.scheme = scheme
        self.verified: list[str] = []

    def hash(self, password: str) -> str:
        return f"{self.scheme}:{password}"

    def verify(self, password_hash: str, password: str) -> bool:
        self.verified.append(password_hash)
        return password_hash.split(":", 1)[1] == password

    def needs_rehash(self, password_hash: str) -> bool:
        return not password_hash.startswith(f"{self.scheme}:")


class FakeDeviceExpiryRepository:
    """Devices by the accounts that may see them; a unit of work gets it as `uow.devices`."""

    def __init__(self) -> None:
        self.visible: dict[int, list] = {}

    def add(self, account_id: int, device) -> None:
        self.visible.setdefault(account_id, []).append(device)

    def _matching(self, account_id: int, window) -> list:
        return sorted((d for d in self.visible.get(account_id, []) if window.contains(d.service_expires_at)),
                      key=lambda d: (d.type_name, d.service_expires_at, d.id))

    def count_expiring(self, account_id: int, window) -> int:
        return len(self._matching(account_id, window))

    def expiring_page(self, account_id: int, window, request):
        from core.shared.paging import Page

        rows = self._matching(account_id, window)
        return Page(request.start, request.page_size, len(rows),
                    rows[request.offset:request.offset + request.page_size])


class FakeDeviceRepository:
    """The device registry in memory; `visible_to` lists who sees each device id, `writers` who
    may change it besides its owner (its organization's administrators)."""

    def __init__(self) -> None:
        self.devices: dict = {}
        self.visible_to: dict[int, set[int]] = {}
        self.writers: dict[int, set[int]] = {}
        self.types: dict = {}
        self.free_levels: dict[int, int] = {}
        self.gifts: dict = {}
        self.added: list = []
        self.deleted: list[int] = []
        self.alarms: dict[int, int] = {}
        self.memberships: dict[int, dict[int, bool]] = {}  # account: {organization: changes its devices}
        self.in_assets: set[int] = set()  # ids of devices in an asset

    def organizations_of(self, account_id: int) -> dict[int, bool]:
        return dict(self.memberships.get(account_id, {}))

    def in_asset(self, device_ids) -> list[str]:
        return [self.devices[i].name for i in device_ids if i in self.in_assets]

    def set_organization(self, device_ids, organization_id) -> None:
        for i in device_ids:
            if self.devices[i].organization_id != organization_id:
                self.devices[i] = replace(self.devices[i], organization_id=organization_id, project_id=None)

    def put(self, device, *viewers: int, writers: tuple[int, ...] = ()) -> None:
        self.devices[device.id] = device
        self.visible_to[device.id] = {device.owner_account_id, *viewers, *writers}
        self.writers[device.id] = {device.owner_account_id, *writers}

    def visible(self, account_id: int, device_id: int):
        from core.devices.grants import FULL, VIEW_ALL

        device = self.devices.get(device_id)
        if device is None or account_id not in self.visible_to[device_id]:
            return None
        return replace(device, grant=FULL if account_id in self.writers[device_id] else VIEW_ALL)

    def visible_many(self, account_id: int, device_ids):
        return [d for d in (self.visible(account_id, i) for i in dict.fromkeys(device_ids)) if d is not None]

    def guid_taken(self, guid: str) -> bool:
        return any(d.guid.upper() == guid.upper() for d in self.devices.values())

    def device_type(self, type_id: int):
        return self.types.get(type_id)

    def published_types(self, scene=None):
        return [t for t in self.types.values() if t.status == 2 and (scene is None or scene in t.scenes)]

    def new_device_gift(self, type_id: int):
        from core.devices.model import FREE_SERVICE_MONTHS, NewDeviceGift

        return self.gifts.get(type_id) or NewDeviceGift(self.free_levels.get(type_id), FREE_SERVICE_MONTHS)

    def add(self, new) -> int:
        from core.devices.model import Device

        device_id = max(self.devices, default=0) + 1
        t = self.types[new.type_id]
        self.added.append(new)
        self.put(Device(
            id=device_id, guid=new.guid, name=new.name, type_id=t.id, type_name=t.name, type_scenes=t.scenes,
            probes=t.probes, owner_account_id=new.owner_account_id, owner_name="owner", organization_id=None,
            organization_name=None, level_id=new.level_id, level_name=None, service_expires_at=new.service_expires_at,
            sms_count=0, voice_count=0, country_code=new.country_code, sim_iccid=None, jc_iccid_status=0,
            agreement_active=False, node_type=1, display_precision=new.display_precision,
            temperature_unit=new.temperature_unit, status=1, remark=new.remark, created_at=new.created_at,
            activated_at=None, last_seen_at=None, online=False, last_reading_at=None, last_temperature=None,
            last_humidity=None, alarm_state=0))
        return device_id

    def update(self, device_id: int, changes: dict) -> None:
        self.devices[device_id] = replace(self.devices[device_id], **changes)

    def delete(self, device_id: int) -> None:
        self.deleted.append(device_id)
        del self.devices[device_id]

    def set_scrapped(self, device_ids, at) -> None:
        for device_id in device_ids:
            self.devices[device_id] = replace(self.devices[device_id], scrapped_at=at)

    def retention_candidates(self, expired_before):
        return sorted((d.id, d.service_expires_at) for d in self.devices.values()
                      if d.service_expires_at is not None and d.service_expires_at < expired_before)

    def clear_records(self, device_id: int) -> int:
        """`alarms` holds each device's alarm message count."""
        self.devices[device_id] = replace(self.devices[device_id], last_reading_at=None, last_temperature=None,
                                          last_humidity=None, alarm_state=0)
        return self.alarms.pop(device_id, 0)


class FakeDeviceEventRepository:
    def __init__(self) -> None:
        self.events: list = []

    def record(self, event) -> None:
        self.events.append(event)


class FakeBrokerCredentialRepository:
    def __init__(self) -> None:
        self.rows: dict[int, tuple[str, str, datetime]] = {}

    def save(self, device_id: int, username: str, password_hash: str, issued_at: datetime) -> None:
        self.rows[device_id] = (username, password_hash, issued_at)

    def of_device(self, device_id: int):
        from core.devices.ports import BrokerCredential

        row = self.rows.get(device_id)
        return BrokerCredential(device_id, row[0], row[2]) if row else None

    def accounts(self):
        from core.devices.ports import BrokerAccount

        return sorted(BrokerAccount(u, h) for u, h, _ in self.rows.values())


class FakeReadingHistoryRepository:
    """Readings as {device_id: [Point, ...]}; extremes computed by the core's reference."""

    def __init__(self) -> None:
        self.readings: dict[int, list] = {}
        self.batches: list[int] = []

    def _range(self, device_id: int, since, until) -> list:
        return sorted((p for p in self.readings.get(device_id, []) if since <= p.ts <= until), key=lambda p: p.ts)

    def count(self, device_id: int, since, until) -> int:
        return len(self._range(device_id, since, until))

    def points(self, device_id: int, since, until) -> list:
        return self._range(device_id, since, until)

    def extremes(self, device_id: int, plan) -> tuple[list, int]:
        from core.telemetry.downsample import downsample

        points = self._range(device_id, plan.start, plan.end)
        return downsample(points, plan), len(points)

    def delete_batch(self, device_id: int, before, limit: int) -> int:
        points = sorted(self.readings.get(device_id, []), key=lambda p: p.ts)
        doomed = [p for p in points if before is None or p.ts < before][:limit]
        self.readings[device_id] = [p for p in points if p not in doomed]
        self.batches.append(len(doomed))
        return len(doomed)

    def orphan_device_ids(self, limit: int) -> list[int]:
        return []


class FakeBrokerHasher:
    def hash(self, password: str) -> str:
        return f"hashed:{password}"


class FakeBrokerAccess:
    """What the running broker was told, with how many commits the unit of work had seen by then."""

    def __init__(self, uow: FakeUnitOfWork) -> None:
        self._uow = uow
        self.calls: list[tuple[str, list, int]] = []

    def grant(self, grants) -> None:
        self.calls.append(("grant", [(g.username, g.password, g.password_hash) for g in grants], self._uow.commits))

    def revoke(self, usernames) -> None:
        self.calls.append(("revoke", list(usernames), self._uow.commits))

    def disable(self, usernames) -> None:
        self.calls.append(("disable", list(usernames), self._uow.commits))

    def enable(self, usernames) -> None:
        self.calls.append(("enable", list(usernames), self._uow.commits))


class FakeFdaSwitches:
    """FDA mode per subject (core.fda): `on` holds the subjects switched on; a device's subject is
    read from the registry given."""

    def __init__(self, registry: FakeDeviceRepository | None = None) -> None:
        self.on: set = set()
        self._registry = registry

    def is_on(self, subject) -> bool:
        return subject in self.on

    def subject_of_device(self, device_id: int):
        from core.fda.model import Subject

        device = self._registry.devices.get(device_id) if self._registry is not None else None
        return None if device is None else Subject.of_device(device.owner_account_id, device.organization_id)

    def is_on_for_device(self, device_id: int) -> bool:
        subject = self.subject_of_device(device_id)
        return subject is not None and self.is_on(subject)

    def switches_of(self, account_id: int) -> list:
        raise NotImplementedError

    def set_on(self, subject, on: bool) -> None:
        (self.on.add if on else self.on.discard)(subject)


def device_unit_of_work() -> FakeUnitOfWork:
    """A fake unit of work with the device registry, broker credentials, reading history and FDA
    switches."""
    uow = FakeUnitOfWork()
    uow.device_registry = FakeDeviceRepository()
    uow.broker_credentials = FakeBrokerCredentialRepository()
    uow.history = FakeReadingHistoryRepository()
    uow.device_events = FakeDeviceEventRepository()
    uow.fda_switches = FakeFdaSwitches(uow.device_registry)
    return uow


class FakeCountRepository:
    """The prepaid SMS and voice counts of devices, as `uow.alarms` sees them when alerting."""

    def __init__(self, counts: dict[int, dict[Channel, int]] | None = None,
                 push_settings: dict[int, PushSetting] | None = None) -> None:
        self.counts = {device_id: dict(c) for device_id, c in (counts or {}).items()}
        self.push_settings = dict(push_settings or {})

    def push_setting(self, device_id: int) -> PushSetting | None:
        return self.push_settings.get(device_id)

    def consume_count(self, device_id: int, channel: Channel) -> bool:
        left = self.counts.setdefault(device_id, {}).get(channel, 0)
        if left <= 0:
            return False
        self.counts[device_id][channel] = left - 1
        return True


# --- ordering ----------------------------------------------------------------------------------


class FakeOrderRepository:
    """Orders in memory. Every change of state is a move of core.ordering.model.ORDER_TRANSITIONS,
    conditional on its sources, as the SQL repository's conditional UPDATE is."""

    def __init__(self) -> None:
        self.rows: dict[int, Order] = {}
        self.events: list[OrderEvent] = []

    def add(self, order: Order) -> Order:
        order = replace(order, id=max(self.rows, default=0) + 1)
        self.rows[order.id] = order
        return order

    def get(self, order_id: int) -> Order | None:
        return self.rows.get(order_id)

    def by_code(self, code: str) -> Order | None:
        return next((o for o in self.rows.values() if o.code == code), None)

    def by_reference(self, reference: str) -> Order | None:
        return next((o for o in self.rows.values() if o.payment_reference == reference), None)

    def set_payment(self, order_id: int, payment: dict[str, str], reference: str | None) -> None:
        self.rows[order_id] = replace(self.rows[order_id], payment=dict(payment), payment_reference=reference)

    def _move(self, order_id: int, move: OrderMove, **changes: object) -> bool:
        transition = ORDER_TRANSITIONS[move]
        order = self.rows.get(order_id)
        if order is None or order.status not in transition.sources:
            return False
        self.rows[order_id] = replace(order, status=transition.target, **changes)  # type: ignore[arg-type]
        return True

    def mark_paid(self, order_id: int, pay_fee_cents: int, paid_at: datetime, reference: str | None) -> bool:
        return self._move(order_id, OrderMove.PAY, pay_fee_cents=pay_fee_cents, paid_at=paid_at,
                          settlement_reference=reference)

    def mark_closed(self, order_id: int, at: datetime, reason: CloseReason) -> bool:
        return self._move(order_id, OrderMove.CLOSE, closed_at=at, close_reason=reason)

    def lock(self, order_id: int) -> Order | None:
        return self.rows.get(order_id)

    def move_refunded(self, order_id: int, cents: int, move: OrderMove, at: datetime,
                      actor_id: int | None = None) -> bool:
        order = self.rows.get(order_id)
        changes: dict[str, object] = {"refunded_cents": (order.refunded_cents if order else 0) + cents}
        if move in (OrderMove.REFUND, OrderMove.PARTIAL_REFUND):
            changes["refunded_at"] = at
        elif move is OrderMove.REFUND_REFUSED:
            changes["refunded_at"] = None
        return self._move(order_id, move, **changes)

    def record_event(self, event: OrderEvent) -> None:
        self.events.append(event)

    def record_failure(self, order_id: int, failure: PaymentFailure, attempt: str | None) -> bool:
        order = self.rows[order_id]
        if order.status is not PayStatus.UNPAID:
            return False
        self.rows[order_id] = replace(order, last_failure=failure, failure_count=order.failure_count + 1)
        return True

    def record_service_result(self, order_id: int, device_id: int, expires_at: datetime | None,
                              recomputed: bool) -> None:
        order = self.rows[order_id]
        lines = tuple(replace(line, settled_expires_at=expires_at, recomputed=recomputed)
                      if line.device_id == device_id else line for line in order.lines)
        self.rows[order_id] = replace(order, lines=lines)

    def page(self, account_id: int, status: PayStatus | None, request: PageRequest) -> Page[Order]:
        rows = sorted((o for o in self.rows.values() if o.account_id == account_id
                       and (status is None or o.status is status)
                       and not (o.status is PayStatus.CLOSED and o.close_reason is CloseReason.SUPERSEDED)),
                      key=lambda o: o.created_at, reverse=True)
        shown = rows[request.offset:request.offset + request.page_size]
        return Page(request.start, request.page_size, len(rows), shown)

    def set_invoice_wanted(self, order_ids: Sequence[int], wanted: bool) -> None:
        for order_id in order_ids:
            self.rows[order_id] = replace(self.rows[order_id], apply_flag=wanted)

    def mark_invoiced(self, order_ids: Sequence[int]) -> None:
        for order_id in order_ids:
            self.rows[order_id] = replace(self.rows[order_id], invoice_status=InvoiceStatus.INVOICED)

    def unpaid_created_before(self, instant: datetime, limit: int) -> list[Order]:
        return sorted((o for o in self.rows.values() if o.status is PayStatus.UNPAID and o.created_at < instant),
                      key=lambda o: (o.created_at, o.id))[:limit]

    def unpaid_for_devices(self, account_id: int, kind: OrderKind, device_ids: Sequence[int],
                           before_id: int) -> list[Order]:
        return [o for o in self.rows.values() if o.account_id == account_id and o.kind is kind
                and o.status is PayStatus.UNPAID and o.id < before_id and set(o.device_ids) == set(device_ids)]


class FakeCatalogueRepository:
    def __init__(self, levels: Sequence[Level] = (), packages: Sequence[AlertPackage] = ()) -> None:
        self.levels, self.packages = list(levels), list(packages)

    def levels_for_type(self, type_id: int, account_id: int, now: datetime, currency: str,
                        languages: Sequence[str] = ()) -> list[Level]:
        return [replace(lv, options=tuple(o for o in lv.options if o.currency == currency)) for lv in self.levels]

    def items(self, languages: Sequence[str] = ()) -> list[ServiceItem]:
        return []

    def level_names(self, level_ids: Sequence[int], languages: Sequence[str]) -> dict[int, str]:
        return {lv.id: lv.name for lv in self.levels if lv.id in level_ids}

    def alert_packages(self, country_code: str, currency: str) -> list[AlertPackage]:
        return [p for p in self.packages if p.country_code == country_code and p.currency == currency]

    def alert_package(self, package_id: int, currency: str) -> AlertPackage | None:
        return next((p for p in self.packages if p.id == package_id and p.currency == currency), None)


class FakeDeviceServiceRepository:
    """The service state of the devices of a FakeDeviceRepository; `credited` records each write."""

    def __init__(self, registry: FakeDeviceRepository) -> None:
        self.registry = registry
        self.credited: list[tuple[int, int, datetime]] = []
        self.alert_counts: list[tuple[int, int, int]] = []

    def services_for_update(self, device_ids: Sequence[int]) -> dict[int, ServicedDevice]:
        devices = (self.registry.devices[i] for i in device_ids if i in self.registry.devices)
        return {d.id: ServicedDevice(ServiceState(d.level_id, d.service_expires_at), d.type_id,
                                     DataPlan.of(d.sim_iccid, d.jc_iccid_status)) for d in devices}

    def set_service(self, device_id: int, level_id: int, expires_at: datetime) -> None:
        self.credited.append((device_id, level_id, expires_at))
        self.registry.update(device_id, {"level_id": level_id, "service_expires_at": expires_at})

    def add_alert_counts(self, device_id: int, sms: int, voice: int, country_code: str | None) -> None:
        self.alert_counts.append((device_id, sms, voice))
        device = self.registry.devices[device_id]
        self.registry.update(device_id, {"sms_count": device.sms_count + sms,
                                         "voice_count": device.voice_count + voice})

    def holdings_for_update(self, device_ids: Sequence[int]) -> dict[int, DeviceHolding]:
        devices = (self.registry.devices[i] for i in device_ids if i in self.registry.devices)
        return {d.id: DeviceHolding(d.level_id, d.service_expires_at, d.sms_count, d.voice_count) for d in devices}


class FakeRefundRepository:
    def __init__(self) -> None:
        self.rows: dict[int, Refund] = {}

    def add(self, refund: Refund) -> Refund:
        refund = replace(refund, id=len(self.rows) + 1)
        self.rows[refund.stored_id] = refund
        return refund

    def get(self, refund_id: int) -> Refund | None:
        return self.rows.get(refund_id)

    def count(self, order_id: int) -> int:
        return sum(r.order_id == order_id for r in self.rows.values())

    def awaiting_cents(self, order_id: int) -> int:
        return sum(r.amount_cents for r in self.rows.values()
                   if r.order_id == order_id and r.status is RefundStatus.AWAITING_APPROVAL)

    def set_take_backs(self, refund_id: int, take_backs: Sequence[TakeBack]) -> None:
        self.rows[refund_id] = replace(self.rows[refund_id], take_backs=tuple(take_backs))

    def _move(self, refund_id: int, source: RefundStatus, **changes: object) -> bool:
        refund = self.rows[refund_id]
        if refund.status is not source:
            return False
        self.rows[refund_id] = replace(refund, **changes)  # type: ignore[arg-type]
        return True

    def decide(self, refund_id: int, status: RefundStatus, operator_id: int, at: datetime, note: str | None) -> bool:
        return self._move(refund_id, RefundStatus.AWAITING_APPROVAL, status=status, decided_by=operator_id,
                          decided_at=at, decision_note=note)

    def finish(self, refund_id: int, status: RefundStatus, at: datetime, *, reference: str | None = None,
               error: str | None = None) -> bool:
        return self._move(refund_id, RefundStatus.PROCESSING, status=status, finished_at=at, reference=reference,
                          error=error)

    def by_code(self, refund_code: str) -> Refund | None:
        return next((r for r in self.rows.values() if r.code == refund_code), None)

    def set_reference(self, refund_id: int, reference: str) -> bool:
        return self._move(refund_id, RefundStatus.PROCESSING, reference=reference)

    def of_order(self, order_id: int) -> list[Refund]:
        return [r for r in self.rows.values() if r.order_id == order_id]

    def awaiting(self, limit: int) -> list[Refund]:
        return [r for r in self.rows.values() if r.status is RefundStatus.AWAITING_APPROVAL][:limit]

    def processing_before(self, instant: datetime, limit: int) -> list[Refund]:
        return [r for r in self.rows.values() if r.status is RefundStatus.PROCESSING
                and (r.decided_at or r.requested_at) < instant][:limit]


class FakeInvoiceRepository:
    """Invoice requests in memory; `covered` stands for the partial unique index on covered orders."""

    def __init__(self, orders: FakeOrderRepository) -> None:
        self.rows: dict[int, InvoiceRequest] = {}
        self.files: dict[int, InvoiceFile] = {}
        self.covered: dict[int, int] = {}  # order id -> the waiting or issued request covering it
        self._orders = orders

    def add(self, request: InvoiceRequest) -> InvoiceRequest:
        taken = [o.order_id for o in request.orders if o.order_id in self.covered]
        if taken:
            raise AssertionError(f"unique index: orders {taken} are covered already")
        request = replace(request, id=len(self.rows) + 1)
        self.rows[request.stored_id] = request
        self.covered.update({o.order_id: request.stored_id for o in request.orders})
        return request

    def get(self, invoice_id: int) -> InvoiceRequest | None:
        request = self.rows.get(invoice_id)
        if request is None or invoice_id not in self.files:
            return request
        file = self.files[invoice_id]
        return replace(request, file=InvoiceFile(file.name, file.size, file.sha256))

    def covering(self, order_ids: Sequence[int]) -> dict[int, int]:
        return {i: self.covered[i] for i in order_ids if i in self.covered}

    def decide(self, invoice_id: int, status: InvoiceRequestStatus, operator_id: int, at: datetime, *,
               delivery: Delivery | None = None, invoice_number: str | None = None, note: str | None = None) -> bool:
        request = self.rows[invoice_id]
        if request.status is not InvoiceRequestStatus.REQUESTED:
            return False
        self.rows[invoice_id] = replace(request, status=status, decided_by=operator_id, decided_at=at,
                                        delivery=delivery, invoice_number=invoice_number, decision_note=note)
        if status is InvoiceRequestStatus.REJECTED:
            self.covered = {o: i for o, i in self.covered.items() if i != invoice_id}
        return True

    def attach(self, invoice_id: int, file: InvoiceFile, at: datetime) -> None:
        self.files[invoice_id] = file

    def file(self, invoice_id: int) -> InvoiceFile | None:
        return self.files.get(invoice_id)

    def invoiceable(self, account_id: int, limit: int) -> list[Order]:
        return [o for o in self._orders.rows.values() if o.account_id == account_id and o.status in PAID_STATES
                and invoiceable_cents(o) > 0 and o.stored_id not in self.covered][:limit]

    def of_account(self, account_id: int, status: InvoiceRequestStatus | None,
                   request: PageRequest) -> Page[InvoiceRequest]:
        mine = [r for r in reversed(self.rows.values()) if r.account_id == account_id
                and (status is None or r.status is status)]
        shown = mine[request.offset:request.offset + request.page_size]
        return Page(request.start, request.page_size, len(mine), shown)

    def _where(self, where: InvoiceFilter, cutoff: datetime) -> list[InvoiceRequest]:
        def overdue(r: InvoiceRequest) -> bool:
            return r.status is InvoiceRequestStatus.REQUESTED and r.requested_at <= cutoff

        return [r for r in self.rows.values() if (where.status is None or r.status is where.status)
                and (where.overdue is None or overdue(r) is where.overdue)]

    def page(self, where: InvoiceFilter, overdue_cutoff: datetime, request: PageRequest) -> Page[InvoiceRequest]:
        found = self._where(where, overdue_cutoff)
        return Page(request.start, request.page_size, len(found),
                    found[request.offset:request.offset + request.page_size])

    def batch(self, where: InvoiceFilter, overdue_cutoff: datetime, before_id: int | None,
              limit: int) -> list[InvoiceRequest]:
        found = sorted(self._where(where, overdue_cutoff), key=lambda r: r.stored_id, reverse=True)
        return [r for r in found if before_id is None or r.stored_id < before_id][:limit]


class FakeAgreementRepository:
    """Agreements by device (the active one), and the orders they were signed with."""

    def __init__(self, orders: FakeOrderRepository | None = None) -> None:
        self.rows: dict[int, Agreement] = {}
        self.ended: list[Agreement] = []
        self.signed_orders: set[int] = set()
        self.orders = orders

    def active(self, device_id: int) -> Agreement | None:
        return self.rows.get(device_id)

    def cancel(self, device_id: int, at: datetime) -> bool:
        return self.rows.pop(device_id, None) is not None

    def add(self, agreement: Agreement, first_order_id: int, at: datetime) -> Agreement:
        agreement = replace(agreement, id=len(self.signed_orders) + 1)
        self.rows[agreement.device_id] = agreement
        self.signed_orders.add(first_order_id)
        return agreement

    def _by_id(self, agreement_id: int) -> Agreement | None:
        return next((a for a in self.rows.values() if a.id == agreement_id), None)

    def get(self, agreement_id: int) -> Agreement | None:
        return self._by_id(agreement_id)

    def by_code(self, code: str) -> Agreement | None:
        return next((a for a in self.rows.values() if a.code == code), None)

    def _change(self, agreement_id: int, **changes: object) -> None:
        agreement = self._by_id(agreement_id)
        assert agreement is not None
        self.rows[agreement.device_id] = replace(agreement, **changes)  # type: ignore[arg-type]

    def due(self, now: datetime, limit: int) -> list[Agreement]:
        return [a for a in self.rows.values() if a.next_execution_at <= now][:limit]

    def to_remind(self, until: datetime, limit: int) -> list[Agreement]:
        return [a for a in self.rows.values() if a.next_execution_at <= until and a.charging_order_id is None
                and a.reminded_for != a.next_execution_at and a.failures == 0][:limit]

    def mark_reminded(self, agreement_id: int, charge_at: datetime) -> None:
        self._change(agreement_id, reminded_for=charge_at)

    def claim(self, agreement_id: int, due_at: datetime, hold_until: datetime, order_id: int) -> bool:
        agreement = self._by_id(agreement_id)
        if agreement is None or agreement.next_execution_at != due_at:
            return False
        self._change(agreement_id, next_execution_at=hold_until, charging_order_id=order_id)
        return True

    def charged(self, agreement_id: int, next_at: datetime) -> None:
        self._change(agreement_id, next_execution_at=next_at, charging_order_id=None, failures=0, last_error=None)

    def charge_failed(self, agreement_id: int, failures: int, retry_at: datetime | None, error: str) -> None:
        if retry_at is None:
            agreement = self._by_id(agreement_id)
            assert agreement is not None
            self.ended.append(replace(agreement, failures=failures, last_error=error))
            del self.rows[agreement.device_id]
        else:
            self._change(agreement_id, failures=failures, next_execution_at=retry_at, last_error=error,
                         charging_order_id=None)

    def unsigned_orders(self, paid_since: datetime, limit: int) -> list[Order]:
        assert self.orders is not None
        return [o for o in self.orders.rows.values() if o.auto_renew and o.status is PayStatus.PAID
                and o.id not in self.signed_orders][:limit]


class FakeBillRepository:
    def __init__(self) -> None:
        self.rows: dict[int, Bill] = {}

    def of_account(self, account_id: int) -> list[Bill]:
        return [b for b in self.rows.values() if b.account_id == account_id]

    def get(self, account_id: int, bill_id: int) -> Bill | None:
        bill = self.rows.get(bill_id)
        return bill if bill is not None and bill.account_id == account_id else None

    def add(self, bill: Bill) -> Bill:
        bill = replace(bill, id=max(self.rows, default=0) + 1)
        self.rows[bill.id] = bill
        return bill

    def update(self, bill: Bill) -> None:
        self.rows[bill.id] = bill

    def delete(self, account_id: int, bill_id: int) -> bool:
        return self.get(account_id, bill_id) is not None and self.rows.pop(bill_id) is not None

    def clear_default(self, account_id: int) -> None:
        for bill in self.of_account(account_id):
            self.rows[bill.id] = replace(bill, is_default=False)


class FakePaymentNotificationRepository:
    def __init__(self) -> None:
        self.rows: list[NotificationRecord] = []

    def add(self, record: NotificationRecord) -> None:
        self.rows.append(record)

    def recent(self, limit: int) -> list[NotificationRecord]:
        return self.rows[::-1][:limit]


class FakeOrderingUnitOfWork(FakeTransaction):
    """The repositories core.ordering.ports.OrderingUnitOfWork lists, in memory."""

    def __init__(self, catalogue: FakeCatalogueRepository | None = None) -> None:
        self.orders = FakeOrderRepository()
        self.bills = FakeBillRepository()
        self.agreements = FakeAgreementRepository(self.orders)
        self.device_registry = FakeDeviceRepository()
        self.device_service = FakeDeviceServiceRepository(self.device_registry)
        self.payment_notifications = FakePaymentNotificationRepository()
        self.catalogue = catalogue or FakeCatalogueRepository()
        self.inbox = FakeInbox()
        self.outbox = FakeOutboxRepository()
        self.coupons = FakeCouponLedger()
        self.refunds = FakeRefundRepository()
        self.invoices = FakeInvoiceRepository(self.orders)
        self.commits = 0


class FakeCouponLedger:
    """No coupons (core.vouchers.ledger): orders carry none, so none is reserved or released."""

    def by_code(self, code):
        return None

    def reserve(self, coupon_id, order_id, account_id, at):
        return False

    def spend(self, order_id, code, account_id, at):
        return False

    def release(self, order_id):
        return False


class FakePaymentGateway:
    """A provider that starts, closes and refunds as told, and records what it was asked."""

    def __init__(self, refunds_succeed: bool = True) -> None:
        self.refunds_succeed = refunds_succeed
        self.refunds_pending = False  # refunds are accepted, their outcome told later
        self.refund_outcome = RefundResult(False, pending=True)
        self.refund_queries: list[str] = []
        self.started: list[str] = []
        self.closed: list[str] = []
        self.refunds: list[RefundRequest] = []
        self.charges: list[bool] = []  # each recurring charge's answer in turn (True: paid); then paid
        self.charged: list[str] = []
        self.mandates_asked: list[str] = []
        self.cancelled: list[str] = []

    def start(self, request: PaymentRequest) -> PaymentStart:
        self.started.append(request.order_code)
        return PaymentStart(pay_qr_code=f"weixin://pay/{request.order_code}", reference=f"ref-{request.order_code}")

    def close(self, request: PaymentRequest) -> None:
        self.closed.append(request.order_code)

    def refund(self, refund: RefundRequest) -> RefundResult:
        self.refunds.append(refund)
        if self.refunds_pending:
            return RefundResult(False, reference=f"re-{refund.refund_code}", pending=True)
        return RefundResult(self.refunds_succeed, error=None if self.refunds_succeed else "refused")

    def refund_status(self, refund: RefundRequest, refund_reference: str | None) -> RefundResult:
        """What `refund_outcome` says of an accepted refund (still pending by default)."""
        self.refund_queries.append(refund.refund_code)
        return self.refund_outcome

    def confirm(self, request: PaymentRequest, payment_method_id: str) -> PaymentResult:
        raise NotImplementedError

    def query(self, request: PaymentRequest) -> PaymentResult:
        return PaymentResult(paid=False)

    def start_with_mandate(self, request: PaymentRequest, code: str) -> PaymentStart:
        self.mandates_asked.append(code)
        return self.start(request)

    def mandate(self, request: PaymentRequest, code: str) -> str | None:
        return f"mandate-{code}"

    def charge(self, mandate: str, request: PaymentRequest) -> PaymentResult:
        self.charged.append(request.order_code)
        paid = self.charges.pop(0) if self.charges else True
        if not paid:
            return PaymentResult(paid=False, error="declined")
        return PaymentResult(paid=True, amount_cents=request.amount_cents, reference=f"ch-{request.order_code}",
                             currency=request.currency)

    def cancel(self, mandate: str, code: str) -> None:
        self.cancelled.append(mandate)


class FakePaymentGateways:
    """Every pay type goes to the one fake gateway, recurring payments included."""

    def __init__(self, gateway: FakePaymentGateway | None = None) -> None:
        self.gateway = gateway or FakePaymentGateway()

    def __getitem__(self, pay_type: PayType) -> FakePaymentGateway:
        return self.gateway

    def offers(self, pay_type: PayType) -> bool:
        return True

    def recurring(self, pay_type: PayType) -> FakePaymentGateway:
        return self.gateway

    def at(self, camp: int) -> FakePaymentGateways:
        return self


class FakeExpiryReminderRepository:
    """Devices as ReminderCandidates without their `sent` stages, which the fake keeps itself."""

    def __init__(self) -> None:
        self.devices: dict[int, ReminderCandidate] = {}
        self.sent: set[tuple[int, datetime, int]] = set()

    def put(self, device: ReminderCandidate) -> None:
        self.devices[device.device_id] = device

    def candidates(self, since: datetime, until: datetime) -> list[ReminderCandidate]:
        return [replace(d, sent=frozenset(s for i, e, s in self.sent if i == d.device_id and e == d.expires_at))
                for d in self.devices.values() if since <= d.expires_at <= until]

    def record(self, device_id: int, expires_at: datetime, stage: int, at: datetime) -> bool:
        if (device_id, expires_at, stage) in self.sent:
            return False
        self.sent.add((device_id, expires_at, stage))
        return True


class FakeJobRunRepository:
    def __init__(self) -> None:
        self.rows: dict[int, JobRun] = {}

    def add(self, run: JobRun) -> None:
        run.id = len(self.rows) + 1
        self.rows[run.id] = replace(run)

    def save(self, run: JobRun) -> None:
        self.rows[run.id] = replace(run)

    def recent(self, limit: int) -> list[JobRun]:
        return sorted(self.rows.values(), key=lambda r: (r.started_at, r.id), reverse=True)[:limit]

    def last_started(self) -> dict[str, datetime]:
        last: dict[str, datetime] = {}
        for run in self.rows.values():
            last[run.name] = max(last.get(run.name, run.started_at), run.started_at)
        return last

    def delete_started_before(self, instant: datetime) -> int:
        gone = [i for i, r in self.rows.items() if r.started_at < instant]
        for i in gone:
            del self.rows[i]
        return len(gone)


class FakeInbox:
    """core.inbox.ports.Inbox in memory; `recipients` stands for the accounts."""

    def __init__(self) -> None:
        self.rows: list[SystemMessage] = []
        self.recipients: dict[int, Recipient] = {}

    def add(self, message: SystemMessage) -> SystemMessage:
        message.id = len(self.rows) + 1
        self.rows.append(message)
        return message

    def recipient(self, account_id: int) -> Recipient | None:
        return self.recipients.get(account_id)

    def _mine(self, account_id: int, query: InboxQuery) -> list[SystemMessage]:
        return [m for m in reversed(self.rows) if m.account_id == account_id
                and (query.kind is None or m.kind is query.kind) and not (query.unread_only and m.read)]

    def page(self, account_id: int, query: InboxQuery, paging: PageRequest) -> Page[SystemMessage]:
        mine = self._mine(account_id, query)
        return Page(paging.start, paging.page_size, len(mine),
                    mine[paging.offset:paging.offset + paging.page_size])

    def get(self, account_id: int, message_id: int) -> SystemMessage | None:
        return next((replace(m) for m in self.rows if m.id == message_id and m.account_id == account_id), None)

    def unread_count(self, account_id: int) -> int:
        return len(self._mine(account_id, InboxQuery(unread_only=True)))

    def mark_read(self, account_id: int, message_ids: list[int] | None, now: datetime) -> int:
        marked = [m for m in self._mine(account_id, InboxQuery(unread_only=True))
                  if message_ids is None or m.id in message_ids]
        for m in marked:
            m.read_at = now
        return len(marked)

    def decide(self, account_id: int, message_id: int, decision: Decision, now: datetime) -> bool:
        for m in self.rows:
            if m.id == message_id and m.account_id == account_id and m.needs_decision and m.decision is None:
                m.decision, m.decided_at = decision, now
                return True
        return False

    def set_channels(self, account_id: int, channels: dict[MessageKind, frozenset[Channel]]) -> None:
        old = self.recipients[account_id]
        self.recipients[account_id] = replace(old, channels={**old.channels, **channels})


class FakeExportRepository:
    """core.exports.ports.ExportRepository in memory (what the endings of an export use)."""

    def __init__(self) -> None:
        self.rows: dict[str, Export] = {}

    def add(self, export: Export) -> None:
        self.rows[export.id] = replace(export)

    def get(self, export_id: str) -> Export | None:
        row = self.rows.get(export_id)
        return replace(row) if row is not None else None

    def save(self, export: Export, only_from=()) -> bool:
        row = self.rows.get(export.id)
        if row is None or (only_from and row.status not in only_from):
            return False
        self.rows[export.id] = replace(export)
        return True

    def set_progress(self, export_id: str, percent: int) -> None:
        self.rows[export_id].progress = percent

    def count_open(self, account_id: int, since: datetime) -> int:
        return sum(1 for e in self.rows.values()
                   if e.account_id == account_id and e.status.open and e.created_at >= since)

    def open_created_before(self, instant: datetime, limit: int) -> list[Export]:
        return sorted((replace(e) for e in self.rows.values() if e.status.open and e.created_at < instant),
                      key=lambda e: e.created_at)[:limit]

    def delete(self, export_id: str) -> None:
        self.rows.pop(export_id, None)


class FakeOrganizations:
    """core.organizations.ports.OrganizationRepository in memory; `accounts` stands for the
    accounts table (id -> user name), `devices` for the organizations' device counts."""

    def __init__(self) -> None:
        self.rows: dict[int, Organization] = {}
        self.roles: dict[tuple[int, int], str] = {}
        self.accounts: dict[int, str] = {}
        self.devices: dict[int, int] = {}

    def add(self, organization: Organization) -> Organization:
        organization.id = len(self.rows) + 1
        self.rows[organization.id] = organization
        return organization

    def get(self, organization_id: int) -> Organization | None:
        return self.rows.get(organization_id)

    def rename(self, organization_id: int, name: str) -> None:
        self.rows[organization_id].name = name

    def delete(self, organization_id: int) -> None:
        del self.rows[organization_id]
        self.roles = {k: v for k, v in self.roles.items() if k[0] != organization_id}

    def device_count(self, organization_id: int) -> int:
        return self.devices.get(organization_id, 0)

    def mine(self, account_id: int) -> list[MyOrganization]:
        return [MyOrganization(o, self.rows[o].name, role, self.rows[o].creator_account_id == account_id,
                               sum(1 for k in self.roles if k[0] == o), self.device_count(o))
                for (o, a), role in sorted(self.roles.items()) if a == account_id]

    def role_of(self, organization_id: int, account_id: int) -> str | None:
        return self.roles.get((organization_id, account_id))

    def members(self, organization_id: int) -> list[Member]:
        return [Member(a, self.accounts[a], None, role, self.rows[o].creator_account_id == a)
                for (o, a), role in sorted(self.roles.items()) if o == organization_id]

    def add_member(self, organization_id: int, account_id: int, role_code: str) -> None:
        assert (organization_id, account_id) not in self.roles, "the primary key would refuse it"
        self.roles[(organization_id, account_id)] = role_code

    def remove_member(self, organization_id: int, account_id: int) -> None:
        self.roles.pop((organization_id, account_id), None)

    def set_role(self, organization_id: int, account_id: int, role_code: str) -> None:
        self.roles[(organization_id, account_id)] = role_code

    def set_creator(self, organization_id: int, account_id: int) -> None:
        self.rows[organization_id].creator_account_id = account_id

    def find_account(self, term: str) -> Invitee | None:
        return next((Invitee(a, name) for a, name in self.accounts.items() if name == term), None)


class FakeInvitations:
    def __init__(self, names: dict[int, str]) -> None:
        self.rows: dict[int, Invitation] = {}
        self.names = names  # the accounts' user names

    def add(self, invitation: Invitation) -> Invitation:
        invitation.id = len(self.rows) + 1
        self.rows[invitation.id] = invitation
        return invitation

    def get(self, invitation_id: int) -> Invitation | None:
        found = self.rows.get(invitation_id)
        return replace(found) if found else None

    def pending(self, organization_id: int, now: datetime) -> list[Invitation]:
        return [replace(i, invitee_name=self.names.get(i.account_id)) for i in self.rows.values()
                if i.organization_id == organization_id and i.open_at(now)]

    def close(self, invitation_id: int, status: InvitationStatus, now: datetime) -> bool:
        row = self.rows[invitation_id]
        if row.status is not InvitationStatus.PENDING:
            return False
        row.status = status
        return True

    def withdraw_open(self, organization_id: int, account_id: int, now: datetime) -> None:
        for i in self.rows.values():
            if (i.organization_id, i.account_id, i.status) == (organization_id, account_id, InvitationStatus.PENDING):
                i.status = InvitationStatus.WITHDRAWN


class FakeOrganizationRoles:
    """core.organizations.ports.OrganizationRoleRepository in memory; `holders` counts through the
    organizations' member rows. Built-in roles have the ids 1-9 here, custom ones 100 on."""

    BUILT_IN_IDS = range(1, 10)

    def __init__(self, organizations: FakeOrganizations) -> None:
        self.organizations = organizations
        self.rows: dict[int, CustomRole] = {}
        self.withdrawn: list[str] = []

    def _counted(self, role: CustomRole) -> CustomRole:
        held = sum(1 for code in self.organizations.roles.values() if code == role.code)
        return replace(role, holders=held)

    def of_organization(self, organization_id: int) -> list[CustomRole]:
        return sorted((self._counted(r) for r in self.rows.values() if r.organization_id == organization_id),
                      key=lambda r: r.name.casefold())

    def get(self, role_id: int) -> CustomRole | None:
        role = self.rows.get(role_id)
        return self._counted(replace(role)) if role else None

    def by_code(self, code: str) -> CustomRole | None:
        return next((self._counted(r) for r in self.rows.values() if r.code == code), None)

    def is_built_in(self, role_id: int) -> bool:
        return role_id in self.BUILT_IN_IDS

    def built_in_ids(self) -> dict[str, int]:
        return {r.code: id_ for id_, r in zip(self.BUILT_IN_IDS, BUILT_IN, strict=False)}

    def name_taken(self, organization_id: int, key: str, except_id: int | None = None) -> bool:
        return any(r.organization_id == organization_id and r.name.casefold() == key and r.id != except_id
                   for r in self.rows.values())

    def add(self, role: CustomRole) -> CustomRole:
        role.id = 100 + len(self.rows)
        role.code = f"custom_{role.id}"
        self.rows[role.id] = replace(role)
        return role

    def update(self, role: CustomRole) -> None:
        assert role.id is not None
        self.rows[role.id] = replace(role, holders=0)

    def delete(self, role_id: int, now: datetime) -> None:
        self.withdrawn.append(self.rows.pop(role_id).code)


class FakeOrganizationsUnitOfWork(FakeUnitOfWork):
    def __init__(self) -> None:
        super().__init__()
        self.organizations = FakeOrganizations()
        self.invitations = FakeInvitations(self.organizations.accounts)
        self.organization_roles = FakeOrganizationRoles(self.organizations)
