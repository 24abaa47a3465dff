"""Telling an account's owner of repeated failed logins, through the transactional outbox."""

from __future__ import annotations

from datetime import datetime

from core.accounts.model import Account
from core.accounts.throttling import Failure
from core.notifications.model import Channel, OutboundMessage

LOGIN_FAILURES = "login_failures"
ADDRESSES_LISTED = 5


def failure_notice(account: Account, failures: list[Failure], now: datetime,
                   default_language: str) -> OutboundMessage | None:
    """An e-mail if the account has an address, else an SMS; in the language of the owner's last
    login (never the attacker's), else the edition's."""
    if account.email:
        channel, recipient = Channel.EMAIL, account.email
    elif account.phone:
        channel, recipient = Channel.PHONE, account.phone
    else:
        return None
    addresses = list(dict.fromkeys(f.address for f in sorted(failures, key=lambda f: f.at, reverse=True)))
    listed = ", ".join(addresses[:ADDRESSES_LISTED]) + (", …" if len(addresses) > ADDRESSES_LISTED else "")
    params = {"account": account.user_name, "count": len(failures), "addresses": listed}
    return OutboundMessage(channel, recipient, LOGIN_FAILURES, params, account.language or default_language, now)
