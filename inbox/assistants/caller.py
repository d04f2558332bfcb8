"""Who is calling: the personal API token an assistant presented, for the length of one request
(Streamable HTTP) or one process (stdio).

A context variable rather than an argument: the SDK calls a tool with the assistant's arguments
only, and a context variable follows the call into the worker thread that runs the service
(asgiref copies the context), while no other request can see it.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass

from django.utils.translation import gettext as _

from inbox.models import ApiToken


@dataclass(frozen=True)
class Caller:
    user: object
    token: ApiToken

    @property
    def may_write(self) -> bool:
        return self.token.scope == ApiToken.Scope.WRITE


_current: contextvars.ContextVar[Caller | None] = contextvars.ContextVar(
    "tidings_mcp_caller", default=None
)


# The request thread's executor while an HTTP request waits for its answer (http.py): tool
# bodies run there, on the request's database connection. None over stdio.
REQUEST_EXECUTOR: contextvars.ContextVar = contextvars.ContextVar(
    "tidings_mcp_request_executor", default=None
)


class NoCaller(Exception):
    """A tool ran without a token: a programming error, never an assistant's."""


@contextlib.contextmanager
def calling_as(token: ApiToken) -> Iterator[Caller]:
    caller = Caller(user=token.user, token=token)
    reset = _current.set(caller)
    try:
        yield caller
    finally:
        _current.reset(reset)


def current() -> Caller:
    caller = _current.get()
    if caller is None:
        raise NoCaller("an MCP tool ran outside calling_as()")
    return caller


def current_or_none() -> Caller | None:
    return _current.get()


_stdio = False


def serve_stdio_process() -> None:
    """This process serves one stdio client: connections are closed after each call (a stdio
    session can sit idle for hours, longer than the database keeps a connection)."""
    global _stdio
    _stdio = True


def stdio_process() -> bool:
    return _stdio


def read_only_refusal() -> str:
    return _(
        "This token is read-only: it may only read. Create a read-and-write token in "
        "Preferences → Connect an assistant to let the assistant change things."
    )
