"""The project's own failures, and the redaction every message passes before it is shown.

Every failure a user can act on is an ``AssistantError``: its message names the problem and
what to do, and its ``exit_code`` is what the CLI exits with. Anything else is a bug and keeps
its traceback (shown with ``ASSISTANT_DEBUG=1``).
"""

from __future__ import annotations

import logging
import re
import string
from urllib.parse import unquote, urlsplit, urlunsplit

EXIT_BAD_INPUT = 2
EXIT_ENDPOINT = 3


class AssistantError(Exception):
    """A failure the user can fix; the message says how."""

    exit_code = EXIT_BAD_INPUT


class BadInputError(AssistantError):
    """The input (a question, a file, a setting) cannot be used as given."""


class EndpointError(AssistantError):
    """A model or embedding endpoint failed; ``partial`` holds any text it sent before."""

    exit_code = EXIT_ENDPOINT

    def __init__(self, message: str, partial: str = "") -> None:
        super().__init__(message)
        self.partial = partial


# ---------------------------------------------------------------- secrets

_SECRETS: set[str] = set()
_TOKEN_SHAPES = re.compile(
    # an Authorization header's value: long, with a digit or "=" ("a basic baseline" is prose)
    r"(?i)(?<![\w-])(?:bearer|basic)\s+(?=[\w.~+/=-]*[\d=])[\w.~+/=-]{16,}"
    r"|(?<![\w-])sk-[\w-]{8,}"  # OpenAI-style keys
)
_KEY_FIELDS = re.compile(r"(?i)(api[_-]?key[\"']?\s*[:=]\s*[\"']?)[\w.~+/=-]{8,}")  # api_key=…
REDACTED = "[redacted]"


def add_secret(value: str | None) -> None:
    """Register a configured secret (an API key, a password) so that ``redact`` hides it."""
    if value and len(value) >= 4:
        _SECRETS.add(value)


def redact(text: str) -> str:
    """``text`` without any registered secret or anything shaped like a key or bearer token."""
    text = _TOKEN_SHAPES.sub(REDACTED, _replace_secrets(text))
    return _KEY_FIELDS.sub(lambda m: m.group(1) + REDACTED, text)


def shown_endpoint(url: str) -> str:
    """``url`` as messages may show it: any user and password in it (a proxy's basic auth,
    ``http://user:secret@host/v1``) left out, and the password registered as a secret."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    add_secret(parts.password)
    add_secret(unquote(parts.password or ""))  # "p%40ss" is sent, and echoed, as "p@ss"
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


class StreamingRedactor:
    """``redact`` over a stream of text pieces. A registered secret is replaced wherever it
    is whole; what could still grow into one waits for the next piece: the end of the text
    that begins a secret, or the last ASCII word (with a "Bearer " or "api_key=" before it),
    which could be a key's shape still arriving. Everything else goes out at once."""

    def __init__(self) -> None:
        self.pending = ""

    def feed(self, piece: str) -> str:
        text = self.pending + piece
        cut = len(text) - _unfinished(text)
        cut = _outside_secrets(text, cut)
        self.pending = text[cut:]
        return redact(text[:cut])

    def flush(self) -> str:
        """The rest, with a secret's beginning left at the end (a cut-off stream) hidden."""
        text, self.pending = _replace_secrets(self.pending), ""
        started = _secret_start(text)
        if started >= 4:  # "sk-p…" cut off mid-key still shows no part of it
            text = text[:-started] + REDACTED
        return redact(text)


_KEY_CHARS = frozenset(string.ascii_letters + string.digits + "_.~+/=-")  # a key's characters
_BEFORE_KEY = re.compile(r"(?i)(?:(?:bearer|basic)\s+|api[_-]?key[\"']?\s*[:=]?\s*[\"']?)$")
LONGEST_KEY = 512  # a run of key characters longer than this is no credential: not held


def _replace_secrets(text: str) -> str:
    for secret in sorted(_SECRETS, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    return text


def _secret_start(text: str) -> int:
    """How many characters at the end of ``text`` begin some registered secret (the longest
    such beginning of each, the first found counting down)."""
    return max((next((k for k in range(min(len(secret), len(text)), 0, -1)
                      if text.endswith(secret[:k])), 0) for secret in _SECRETS), default=0)


def _unfinished(text: str) -> int:
    """How many characters at the end of ``text`` may still become a secret or a key: a
    secret's beginning, or the last run of key characters (after a space at most), with a
    "Bearer " or "api_key=" before it."""
    end = len(text) - 1 if text[-1:].isspace() else len(text)
    start = end
    while start > 0 and end - start <= LONGEST_KEY and text[start - 1] in _KEY_CHARS:
        start -= 1
    run = 0 if end - start > LONGEST_KEY else len(text) - start
    if run or start == end:  # "Bearer " or "api_key:" may wait for its value too
        before = _BEFORE_KEY.search(text[max(0, start - 40):start])
        run += len(before.group(0)) if before else 0
    return max(_secret_start(text), run)


def _outside_secrets(text: str, cut: int) -> int:
    """``cut`` moved back to the start of any registered secret written whole across it."""
    moved = True
    while moved:
        moved = False
        for secret in _SECRETS:
            at = text.find(secret, max(0, cut - len(secret) + 1))
            if 0 <= at < cut < at + len(secret):
                cut, moved = at, True
    return cut


class RedactingFilter(logging.Filter):
    """Redacts every log record's message, so a library logging a request leaks no key."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


def redact_logs() -> None:
    """Install ``RedactingFilter`` on the root logger's handlers (and on new records)."""
    root = logging.getLogger()
    if not any(isinstance(f, RedactingFilter) for f in root.filters):
        root.addFilter(RedactingFilter())
    for handler in root.handlers:
        if not any(isinstance(f, RedactingFilter) for f in handler.filters):
            handler.addFilter(RedactingFilter())
