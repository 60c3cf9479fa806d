"""The project's own failures, and the redaction every message passes before it is shown.

Every failure a user can act on is an ``AssistantError``: its message names the problem and
what to do, and its ``exit_code`` is what the CLI exits with. Anything else is a bug and keeps
its traceback (shown with ``ASSISTANT_DEBUG=1``).
"""

from __future__ import annotations

import logging
import re

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
    r"(?i)(?<![\w-])(?:bearer|basic)\s+[\w.~+/=-]{8,}"  # an Authorization header's value
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
    for secret in sorted(_SECRETS, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    text = _TOKEN_SHAPES.sub(REDACTED, text)
    return _KEY_FIELDS.sub(lambda m: m.group(1) + REDACTED, text)


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
