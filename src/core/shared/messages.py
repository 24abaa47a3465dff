"""Marks user-facing English message ids for Babel extraction.

Core never translates; it raises errors carrying a message id and parameters, and the
entrypoint renders them in the caller's language.
"""


def N_(msgid: str) -> str:
    return msgid
