"""One-time login codes: the owner's way in while the password alone is refused (a distributed
attack) or their address is slowed. A code is asked for with the image code and sent to the
account's e-mail, else its phone. It is stored under the name as typed, so the answers (and the
once-a-minute limit) are the same whether or not the name exists; nothing is sent for a name
nobody has."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from core.accounts.commands import RequestLoginCode
from core.accounts.model import Account, CodePurpose
from core.accounts.ports import AccountsUnitOfWork
from core.accounts.throttling import name_key
from core.accounts.verification import MAX_SENDS_PER_HOUR, RESEND_AFTER, VerificationCode
from core.notifications.model import VERIFICATION_CODE, Channel, OutboundMessage
from core.shared.clock import Clock
from core.shared.errors import CodeSentTooOften, TooManyAttempts, WrongCaptcha


def check_captcha(uow: AccountsUnitOfWork, captcha_id: str | None, answer: str, now: datetime, key: bytes) -> None:
    captcha = uow.captchas.take(captcha_id) if captcha_id else None
    if captcha is None or not captcha.accepts(answer, now, key):
        uow.commit()  # the captcha is spent either way
        raise WrongCaptcha()


def code_address(account: Account | None, name: str) -> tuple[Channel, str]:
    """Where the login code of `name` is kept: the channel it goes out on, and the name's key."""
    by_phone = account is not None and not account.email and account.phone
    return (Channel.PHONE if by_phone else Channel.EMAIL), name_key(name)


class SendLoginCode:
    def __init__(self, uow: AccountsUnitOfWork, clock: Clock, secret_key: bytes) -> None:
        self._uow, self._clock, self._key = uow, clock, secret_key

    def __call__(self, cmd: RequestLoginCode) -> None:
        now = self._clock.now()
        with self._uow as uow:
            check_captcha(uow, cmd.captcha_id, cmd.captcha_answer, now, self._key)
            account = uow.accounts.by_login_name(cmd.user_name)
            channel, target = code_address(account, cmd.user_name)
            last = uow.codes.latest(channel, target, CodePurpose.LOGIN)
            if last is not None and now - last.created_at < RESEND_AFTER:
                uow.commit()  # the captcha stays spent
                raise CodeSentTooOften(seconds=math.ceil((RESEND_AFTER - (now - last.created_at)).total_seconds()))
            if uow.codes.sent_since(channel, target, now - timedelta(hours=1)) >= MAX_SENDS_PER_HOUR:
                uow.commit()
                raise TooManyAttempts(3600)
            code, record = VerificationCode.issue(channel, target, CodePurpose.LOGIN, now, self._key)
            uow.codes.add(record)
            recipient = None if account is None else account.email if channel is Channel.EMAIL else account.phone
            if account is not None and recipient:
                uow.outbox.add(OutboundMessage(channel, recipient, VERIFICATION_CODE,
                                               {"code": code, "purpose": int(CodePurpose.LOGIN)},
                                               account.language or cmd.language, now))
            uow.commit()
