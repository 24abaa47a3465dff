"""Local stand-ins for the notification providers, built on the standard library: an SMTP server
that speaks enough of RFC 5321 for smtplib (EHLO, AUTH PLAIN, MAIL, RCPT, DATA, QUIT), and an HTTP
server that records the SMS provider's calls."""

from __future__ import annotations

import base64
import json
import socketserver
import threading
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class ReceivedMail:
    mail_from: str
    recipients: list[str]
    data: bytes
    login: tuple[str, str] | None

    @property
    def message(self) -> EmailMessage:
        return message_from_bytes(self.data, policy=policy.default)


@dataclass
class SmtpBehaviour:
    refuse_recipients: set[str] = field(default_factory=set)


class _SmtpHandler(socketserver.StreamRequestHandler):
    server: LocalSmtpServer

    def reply(self, line: str) -> None:
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self) -> None:
        self.reply("220 localhost test ESMTP")
        login, mail_from, recipients = None, None, []
        while line := self.rfile.readline():
            command, _, argument = line.decode().rstrip("\r\n").partition(" ")
            verb = command.upper()
            if verb == "EHLO":
                self.reply("250-localhost")
                self.reply("250-AUTH PLAIN")
                self.reply("250-8BITMIME")
                self.reply("250 SMTPUTF8")
            elif verb == "HELO":
                self.reply("250 localhost")
            elif verb == "AUTH":
                mechanism, _, payload = argument.partition(" ")
                _, user, password = base64.b64decode(payload).decode().split("\0")
                login = (user, password)
                self.reply("235 2.7.0 Authentication successful")
            elif verb == "MAIL":
                mail_from = argument.split(":", 1)[1].split()[0].strip("<>")
                recipients = []
                self.reply("250 OK")
            elif verb == "RCPT":
                recipient = argument.split(":", 1)[1].split()[0].strip("<>")
                if recipient in self.server.behaviour.refuse_recipients:
                    self.reply("550 5.1.1 No such mailbox")
                else:
                    recipients.append(recipient)
                    self.reply("250 OK")
            elif verb == "DATA":
                self.reply("354 End data with <CR><LF>.<CR><LF>")
                chunks = []
                while (chunk := self.rfile.readline()) not in (b".\r\n", b""):
                    chunks.append(chunk[1:] if chunk.startswith(b"..") else chunk)
                self.server.received.append(ReceivedMail(mail_from, recipients, b"".join(chunks), login))
                self.reply("250 OK queued")
            elif verb in ("RSET", "NOOP"):
                self.reply("250 OK")
            elif verb == "QUIT":
                self.reply("221 Bye")
                return
            else:
                self.reply("502 Command not implemented")


class LocalSmtpServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _SmtpHandler)
        self.received: list[ReceivedMail] = []
        self.behaviour = SmtpBehaviour()
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self.server_address[1]

    def __enter__(self) -> LocalSmtpServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.shutdown()
        self.server_close()


@dataclass
class ProviderCall:
    path: str
    headers: dict[str, str]
    body: dict


class LocalSmsProvider(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        calls: list[ProviderCall] = []
        self.calls = calls
        self.status = 200
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                calls.append(ProviderCall(self.path, dict(self.headers), json.loads(self.rfile.read(length))))
                payload = json.dumps({"ok": provider.status < 300}).encode()
                self.send_response(provider.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args) -> None:
                pass

        super().__init__(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def __enter__(self) -> LocalSmsProvider:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.shutdown()
        self.server_close()
