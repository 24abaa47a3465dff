"""A thin client for the contract: paths relative to /api, the envelope unpacked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask.testing import FlaskClient

from entrypoints.demo_seed import DEMO_PASSWORD


@dataclass
class Reply:
    status: int
    body: dict[str, Any]
    headers: dict[str, str]

    @property
    def code(self) -> int:
        return self.body.get("code")

    @property
    def data(self) -> Any:
        return self.body.get("data")


def ok(reply: Reply) -> Any:
    """The data of a successful answer (HTTP 200, code 0); fails the test with the body otherwise."""
    assert (reply.status, reply.code) == (200, 0), reply.body
    return reply.data


class ApiClient:
    def __init__(self, client: FlaskClient, language: str = "en-US") -> None:
        self.client, self.language = client, language

    def call(self, method: str, path: str, *, token: str | None = None, json: Any = None,
             query: dict | None = None, address: str = "127.0.0.1", headers: dict | None = None) -> Reply:
        all_headers = {"Accept-Language": self.language, **(headers or {})}
        if token:
            all_headers["Authorization"] = f"Bearer {token}"
        response = self.client.open(f"/api{path}", method=method, json=json, query_string=query,
                                    headers=all_headers, environ_base={"REMOTE_ADDR": address})
        body = response.get_json(silent=True) or {}
        return Reply(response.status_code, body, dict(response.headers))

    def login(self, user: str, password: str = DEMO_PASSWORD, address: str = "127.0.0.1") -> Reply:
        return self.call("POST", "/base/BaseAccount/login",
                         json={"userName": user, "accountPassword": password, "loginType": 1}, address=address)

    def token(self, user: str, password: str = DEMO_PASSWORD) -> str:
        reply = self.login(user, password)
        assert reply.status == 200, reply.body
        return reply.data["token"]

    def account_info(self, token: str) -> Reply:
        return self.call("GET", "/base/BaseAccount/accountInfo", token=token, query={"timestamp": 1})

    def outbox_code(self, container, recipient: str) -> str:
        """The last code the development sender delivered to `recipient`, read from the outbox."""
        from sqlalchemy import select

        from adapters.persistence.models import OutboxMessageRow

        with container.session_factory()() as session:
            row = session.scalars(select(OutboxMessageRow).where(OutboxMessageRow.recipient == recipient)
                                  .order_by(OutboxMessageRow.id.desc())).first()
            assert row is not None, f"no message was sent to {recipient}"
            return row.params["code"]
