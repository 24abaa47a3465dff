import hashlib
import hmac


def keyed_digest(key: bytes, value: str) -> str:
    """Short secrets (6-digit codes, captcha text) are guessable from a plain hash, so they are
    stored as an HMAC under the server's secret key."""
    return hmac.new(key, value.encode(), hashlib.sha256).hexdigest()
