"""SMS and voice alerts through the SMS provider's HTTP API.

`POST {SMS_BASE_URL}/sms/send` and `POST {SMS_BASE_URL}/voice/call` with
`{"to", "countryCode", "text"}` and `Authorization: Bearer <SMS_API_KEY>`. The number goes out as
the recipient entered it and the country code separately: the provider dials international
numbers, so the console never has to rewrite one. Anything but a 2xx answer raises, which leaves
the message in the outbox for another attempt.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from adapters.i18n import Translator
from adapters.notifications.development import render
from core.notifications.model import Channel, OutboundMessage

PATHS = {Channel.PHONE: "/sms/send", Channel.VOICE: "/voice/call"}


class DeliveryFailed(RuntimeError):
    pass


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    # urllib would repeat a redirected POST as a GET without its body; a redirect is a failure here.
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


class HttpSmsVoiceSender:
    def __init__(self, base_url: str, api_key: str, translator: Translator, default_country_code: str,
                 timeout_s: float = 10.0) -> None:
        self._base_url = base_url.rstrip("/")
        self._api_key, self._translator = api_key, translator
        self._default_country_code, self._timeout_s = default_country_code, timeout_s
        self._opener = urllib.request.build_opener(_NoRedirects())

    def send(self, message: OutboundMessage) -> None:
        path = PATHS.get(message.channel)
        if path is None:
            raise DeliveryFailed(f"the SMS provider cannot deliver {message.channel.value} messages")
        body = {
            "to": message.recipient,
            "countryCode": str(message.params.get("countryCode") or self._default_country_code),
            "text": render(message, self._translator),
        }
        request = urllib.request.Request(
            self._base_url + path, data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json", "Accept": "application/json",
                     "Authorization": f"Bearer {self._api_key}"})
        try:
            with self._opener.open(request, timeout=self._timeout_s) as response:
                status = response.status
        except urllib.error.HTTPError as error:
            status = error.code
        except (urllib.error.URLError, OSError) as error:
            raise DeliveryFailed(f"SMS provider unreachable at {self._base_url}: {error}") from None
        if not 200 <= status < 300:
            raise DeliveryFailed(f"SMS provider answered HTTP {status} to {path}")
