"""Development delivery: writes each message to the server log. The outbox table keeps them too,
so a developer (or a test) can read the verification code that would have been sent."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from adapters.i18n import Translator
from adapters.notifications.templates import TEMPLATES, render_template
from core.notifications.model import OutboundMessage
from core.reports.ports import Attachment

log = logging.getLogger("coldchain.outbox")


class LoggingMessageSender:
    def __init__(self, translator: Translator) -> None:
        self._translator = translator

    def send(self, message: OutboundMessage) -> None:
        log.info("[%s to %s] %s", message.channel.value, message.recipient, render(message, self._translator))


def render(message: OutboundMessage, translator: Translator) -> str:
    return render_template(translator.translate, TEMPLATES[message.template], message.language, message.params)


class LoggingReportMailer:
    """Scheduled reports in development: the mail goes to the server log, its files named."""

    def send(self, recipient: str, subject: str, body: str, attachments: Sequence[Attachment]) -> None:
        log.info("[report to %s] %s\n%s\n%s", recipient, subject, body, ", ".join(a.file_name for a in attachments))
