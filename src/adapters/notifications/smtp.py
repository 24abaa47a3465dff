"""E-mail over SMTP: `SMTP_URL` is smtp://user:password@host:25 (STARTTLS when the server offers
it) or smtps://user:password@host:465 (TLS from the start)."""

from __future__ import annotations

import smtplib
import ssl
from collections.abc import Sequence
from email.message import EmailMessage
from email.utils import make_msgid
from urllib.parse import unquote, urlsplit

from adapters.i18n import Translator
from adapters.notifications.development import render
from adapters.notifications.templates import SUBJECTS, render_template
from core.notifications.model import Channel, OutboundMessage
from core.reports.ports import Attachment

DEFAULT_SUBJECT = "Coldchain"


class SmtpEmailSender:
    def __init__(self, smtp_url: str, mail_from: str, translator: Translator, timeout_s: float = 15.0) -> None:
        parts = urlsplit(smtp_url)
        self._tls = parts.scheme == "smtps"
        self._host = parts.hostname or "127.0.0.1"
        self._port = parts.port or (465 if self._tls else 25)
        self._user = unquote(parts.username) if parts.username else None
        self._password = unquote(parts.password) if parts.password else ""
        self._mail_from, self._translator, self._timeout_s = mail_from, translator, timeout_s

    def send(self, message: OutboundMessage) -> None:
        if message.channel is not Channel.EMAIL:
            raise ValueError(f"SMTP cannot deliver {message.channel.value} messages")
        email = EmailMessage()
        email["From"] = self._mail_from
        email["To"] = message.recipient
        subject = SUBJECTS.get(message.template)
        email["Subject"] = (render_template(self._translator.translate, subject, message.language, message.params)
                            if subject else DEFAULT_SUBJECT)
        email["Message-ID"] = make_msgid(domain=self._mail_from.rpartition("@")[2].strip(">") or None)
        email.set_content(render(message, self._translator))
        self._deliver(email)

    def send_files(self, recipient: str, subject: str, body: str, attachments: Sequence[Attachment]) -> None:
        """A scheduled report (core.reports.ports.ReportMailer): the files ride along as attachments."""
        email = EmailMessage()
        email["From"] = self._mail_from
        email["To"] = recipient
        email["Subject"] = subject
        email["Message-ID"] = make_msgid(domain=self._mail_from.rpartition("@")[2].strip(">") or None)
        email.set_content(body)
        for attachment in attachments:
            maintype, _, subtype = attachment.content_type.partition("/")
            with open(attachment.path, "rb") as file:
                email.add_attachment(file.read(), maintype=maintype, subtype=subtype, filename=attachment.file_name)
        self._deliver(email)

    def _deliver(self, email: EmailMessage) -> None:
        client: smtplib.SMTP
        if self._tls:
            client = smtplib.SMTP_SSL(self._host, self._port, timeout=self._timeout_s,
                                      context=ssl.create_default_context())
        else:
            client = smtplib.SMTP(self._host, self._port, timeout=self._timeout_s)
        with client as smtp:
            if not self._tls:
                smtp.ehlo()
                if smtp.has_extn("starttls"):
                    smtp.starttls(context=ssl.create_default_context())
                    smtp.ehlo()
            if self._user:
                smtp.login(self._user, self._password)
            smtp.send_message(email)


class SmtpReportMailer:
    """The ReportMailer port over the SMTP sender."""

    def __init__(self, sender: SmtpEmailSender) -> None:
        self._sender = sender

    def send(self, recipient: str, subject: str, body: str, attachments: Sequence[Attachment]) -> None:
        self._sender.send_files(recipient, subject, body, attachments)
