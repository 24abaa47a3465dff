"""Server-sent text in the reader's language (issue 16): a verification code goes out in the
language of the request that asked for it. On SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from adapters.i18n import Translator
from adapters.notifications.development import render
from adapters.persistence.models import OutboxMessageRow
from core.notifications.model import Channel, OutboundMessage


def last_message(container, recipient: str) -> OutboxMessageRow:
    with container.session_factory()() as session:
        return session.scalars(select(OutboxMessageRow).where(OutboxMessageRow.recipient == recipient)
                               .order_by(OutboxMessageRow.id.desc())).first()


def text_of(row: OutboxMessageRow) -> str:
    return render(OutboundMessage(Channel(row.channel), row.recipient, row.template, row.params, row.language,
                                  row.created_at), Translator())


@pytest.mark.parametrize("language,channel,target,letters", [
    ("ru-RU", "phone", "13912345601", ("\u0400", "\u04ff")),
    ("zh-TW", "phone", "13912345602", ("\u4e00", "\u9fff")),
    ("de-DE", "email", "kunde@example.de", None),
])
def test_a_verification_code_is_written_in_the_language_of_the_request(api, container, language, channel, target,
                                                                       letters):
    api.language = language
    query = {"phone": target, "type": 1} if channel == "phone" else {"email": target, "type": 1}
    assert api.call("GET", f"/base/BaseAccount/code/{channel}", query=query).code == 0
    row = last_message(container, target)
    assert row.language == language
    text = text_of(row)
    assert row.params["code"] in text
    english = render(OutboundMessage(Channel(row.channel), row.recipient, row.template, row.params, "en-US",
                                     row.created_at), Translator())
    assert text != english
    if letters:
        assert any(letters[0] <= ch <= letters[1] for ch in text)
