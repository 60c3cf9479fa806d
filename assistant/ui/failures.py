"""The one error contract of the typed endpoints (and so of the MCP tools): input the
assistant cannot use, or a model endpoint that fails, is answered as a result, an object
``{<the endpoint's main argument>: as given, "error": one line}`` (``partial`` too when a
model had sent part of an answer), never a raised ``gr.Error``, an ``"error: …"`` string or
a traceback. A client then tells a failure from a result the same way at every endpoint
(an object with an ``error`` key), and reads the line the CLI prints for the same problem,
redacted. Anything that is no ``AssistantError`` is a bug and stays one."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar, cast

from assistant.console import printable
from assistant.errors import AssistantError, redact

F = TypeVar("F", bound=Callable[..., Any])


def failure(exc: AssistantError, given: dict[str, Any]) -> dict[str, Any]:
    """The result an endpoint answers ``exc`` with: ``given`` (the argument it was asked
    about, by name), the one-line ``error`` and any ``partial`` answer, all redacted."""
    failed = {**given, "error": printable(redact(str(exc)))}
    partial = str(getattr(exc, "partial", "") or "")
    if partial:
        failed["partial"] = redact(partial)
    return failed


def answers_errors(argument: str, key: str | None = None) -> Callable[[F], F]:
    """An endpoint whose ``AssistantError`` becomes its ``failure`` result, giving the value
    of ``argument`` it was called with under ``key`` (the argument's name unless given: the
    key its results name it by). The signature, type hints and docstring Gradio reads to
    type the endpoint and its MCP tool stay the endpoint's own."""

    def decorate(endpoint: F) -> F:
        signature = inspect.signature(endpoint)

        @functools.wraps(endpoint)
        def answered(*args: Any, **kwargs: Any) -> Any:
            try:
                return endpoint(*args, **kwargs)
            except AssistantError as exc:
                bound = signature.bind_partial(*args, **kwargs)
                return failure(exc, {key or argument: bound.arguments.get(argument)})

        return cast(F, answered)

    return decorate
