"""The caller's own profile: picture, language and time zone (issue 16, /consumer/info)."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib

import pytest
from PIL import Image
from sqlalchemy import select

from adapters.persistence.models import AccountRow
from tests.support.api import ApiClient

pytestmark = pytest.mark.usefixtures("demo")
UPLOAD, PHOTO, PREFERENCES = ("/base/BaseAccount/uploadHeadPhoto", "/base/BaseAccount/headPhoto",
                              "/base/BaseAccount/modifyPreferences")


def picture(kind: str = "PNG", size: tuple[int, int] = (64, 48), colour=(200, 30, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, kind)
    return out.getvalue()


def upload(api: ApiClient, token: str | None, data: bytes, name: str = "me.png", language: str = "en-US"):
    headers = {"Accept-Language": language, **({"Authorization": f"Bearer {token}"} if token else {})}
    response = api.client.post(f"/api{UPLOAD}", data={"file": (io.BytesIO(data), name)}, headers=headers,
                               content_type="multipart/form-data")
    return response.status_code, response.get_json(silent=True) or {}


def photo_of(container, user: str) -> str | None:
    with container.session_factory()() as session:
        return session.scalar(select(AccountRow.photo_url).where(AccountRow.user_name == user))


def huge_png_header(width: int, height: int) -> bytes:
    """A tiny valid PNG that declares width x height pixels (a decompression bomb's header)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 1024))
            + chunk(b"IEND", b""))


def test_the_owner_uploads_a_picture_and_gets_it_back_re_encoded_as_png(api, container):
    token = api.token("alice")
    status, body = upload(api, token, picture("JPEG", (1200, 900)), "me.jpg")
    assert (status, body["code"]) == (200, 0), body
    url = body["data"]["accountPhoto"]
    assert url.startswith("/api/base/BaseAccount/headPhoto?v=")
    assert api.account_info(token).data["baseAccount"]["accountPhoto"] == url
    served = api.client.get(url, headers={"Authorization": f"Bearer {token}"})
    assert served.status_code == 200 and served.mimetype == "image/png"
    image = Image.open(io.BytesIO(served.data))
    assert image.format == "PNG" and max(image.size) == 512  # kept small, whatever was sent


def test_a_new_picture_replaces_the_old_whose_file_is_removed(api, container, app):
    token = api.token("alice")
    upload(api, token, picture())
    first = photo_of(container, "alice")
    upload(api, token, picture(colour=(0, 0, 255)))
    second = photo_of(container, "alice")
    directory = container.settings().photo_dir
    assert first != second and not (directory / first).exists() and (directory / second).exists()


def test_each_account_is_served_only_its_own_picture(api):
    alice, bob = api.token("alice"), api.token("bob")
    upload(api, alice, picture())
    assert api.call("GET", PHOTO, token=bob).status == 404  # bob has none; alice's is never his
    assert api.call("GET", PHOTO).status == 401
    status, _ = upload(api, None, picture())
    assert status == 401


@pytest.mark.parametrize("data,name", [
    (b"GIF89a" + b"\0" * 100, "me.png"),
    (b"<svg xmlns='http://www.w3.org/2000/svg'/>", "me.png"),
    (b"\x89PNG\r\n\x1a\n" + b"garbage" * 20, "me.png"),  # the signature, then nothing of a PNG
    (b"", "me.png"),
], ids=["gif", "svg", "truncated-png", "empty"])
def test_what_is_not_a_jpg_or_png_is_refused_whatever_its_name(api, container, data, name):
    status, body = upload(api, api.token("alice"), data, name)
    assert (status, body["code"]) == (422, 422) and "file" in body["errors"], body
    assert photo_of(container, "alice") is None


def test_a_zip_named_png_is_refused(api, container):
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("payload.txt", "x" * 1000)
    status, body = upload(api, api.token("alice"), archive.getvalue(), "me.png", language="ru-RU")
    assert status == 422 and body["errors"]["file"] == ["Загрузите изображение в формате JPG или PNG"]
    assert photo_of(container, "alice") is None


def test_a_png_declaring_a_huge_picture_is_refused_before_it_is_decoded(api, container):
    status, body = upload(api, api.token("alice"), huge_png_header(100_000, 100_000))
    assert status == 422 and "4096" in body["errors"]["file"][0], body
    assert photo_of(container, "alice") is None


def test_a_10_mb_upload_is_refused_with_a_413_envelope(api, container):
    status, body = upload(api, api.token("alice"), picture() + b"\0" * (10 * 1024 * 1024), language="de-DE")
    assert (status, body["code"]) == (413, 413) and body["msg"] == "Die Anfrage ist zu groß"
    assert photo_of(container, "alice") is None


def test_language_and_time_zone_are_saved_and_shown_in_account_info(api):
    token = api.token("alice")
    reply = api.call("POST", PREFERENCES, token=token, json={"language": "ru-RU", "timeZone": "Europe/Moscow"})
    assert reply.code == 0, reply.body
    account = api.account_info(token).data["baseAccount"]
    assert (account["language"], account["timeZone"]) == ("ru-RU", "Europe/Moscow")
    assert api.call("POST", PREFERENCES, token=token, json={"timeZone": "America/Sao_Paulo"}).code == 0
    account = api.account_info(token).data["baseAccount"]
    assert (account["language"], account["timeZone"]) == ("ru-RU", "America/Sao_Paulo")
    assert api.account_info(api.token("bob")).data["baseAccount"]["timeZone"] is None  # bob's untouched


def test_the_saved_language_outlives_a_login_from_a_browser_in_another_language(api):
    assert api.call("POST", PREFERENCES, token=api.token("alice"), json={"language": "ru-RU"}).code == 0
    api.language = "zh-CN"  # another browser, not yet switched
    assert api.account_info(api.token("alice")).data["baseAccount"]["language"] == "ru-RU"


@pytest.mark.parametrize("body,field", [
    ({"timeZone": "Mars/Olympus_Mons"}, "timeZone"), ({"timeZone": "../../etc/passwd"}, "timeZone"),
    ({"timeZone": "Europe/Berlin\ud800"}, "timeZone"), ({"timeZone": "x" * 65}, "timeZone"),
    ({"language": "fr-FR"}, "language"), ({"language": 7}, "language"), ({}, "_schema"),
    ({"timeZone": "UTC", "userName": "mallory"}, "userName"),
])
def test_preferences_are_checked_and_nothing_changes(api, body, field):
    token = api.token("alice")
    reply = api.call("POST", PREFERENCES, token=token, json=body)
    assert (reply.status, reply.code) == (422, 422) and field in reply.body["errors"], reply.body
    assert api.account_info(token).data["baseAccount"]["timeZone"] is None


def test_an_unknown_time_zone_is_refused_in_the_callers_language(api):
    api.language = "de-DE"
    reply = api.call("POST", PREFERENCES, token=api.token("alice"), json={"timeZone": "Europe/Atlantis"})
    assert reply.body["errors"]["timeZone"] == ["Wählen Sie eine Zeitzone aus der Liste"]
