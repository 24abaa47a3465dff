"""Marks user-facing English message ids for Babel extraction.

Core never translates; it raises errors carrying a message id and parameters, and the
entrypoint renders them in the caller's language.
"""


def N_(msgid: str) -> str:
    return msgid


def NC_(context: str, msgid: str) -> str:
    """N_ with a message context (msgctxt): a short word ("Device") that another message translates
    otherwise. Babel extracts it with `-k NC_:1c,2`; Translator.pgettext renders it."""
    return msgid
