"""How a tool is declared: `@tool(...)` on a plain function `(caller, **arguments) -> Answer`.

The decorator gives the SDK an async function with the same signature (the SDK builds the JSON
schema of the arguments from it and validates them with pydantic: a wrong type is a tool error
before any of our code runs), and runs the body in Django's request thread
(`in_request_thread`): the ORM, the request's connection and transaction and its language
(the client's Accept-Language, as for the API) all hold there. Around the body it
refuses a write to a read-only token, and turns every refusal a service raises into a tool
error whose text is the API's error for the same refusal (the field and the rule), never a
crash: an assistant reads it and corrects itself.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from types import SimpleNamespace

from asgiref.sync import sync_to_async
from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import close_old_connections
from django.http import Http404
from django.utils import timezone
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from rest_framework import serializers

from config.api.errors import exception_handler
from config.api.throttling import LiveUserRateThrottle, TokenRateThrottle, wait_before_another
from inbox.assistants import caller as callers
from inbox.assistants import confirmations

logger = logging.getLogger(__name__)


@dataclass
class Answer:
    """A tool's result: concise text for the conversation, and the same facts as data."""

    text: str
    data: dict = field(default_factory=dict)

    def result(self) -> CallToolResult:
        return CallToolResult(
            content=[TextContent(type="text", text=self.text)], structured_content=self.data
        )


@dataclass(frozen=True)
class ToolSpec:
    name: str
    title: str
    run: Callable
    write: bool
    destructive: bool
    confirm: bool

    @property
    def annotations(self) -> ToolAnnotations:
        return ToolAnnotations(
            title=self.title,
            read_only_hint=not self.write,
            destructive_hint=self.destructive,
            idempotent_hint=not self.write,
            open_world_hint=False,
        )


TOOLS: list[ToolSpec] = []


def tool(*, title: str, write: bool = False, destructive: bool = False, confirm: bool = False):
    """Register `fn` as the tool named after it. `write`: a read-only token may not call it (and
    does not see it). `confirm`: the tool takes `confirmation` and acts only with a good one
    (see `confirmed`)."""

    def decorate(fn: Callable[..., Answer]):
        async def run(**arguments) -> CallToolResult:
            return await in_request_thread(_call, spec, fn, arguments)

        # The SDK reads the parameters (names, types, defaults) from the signature, resolved
        # here in the tool's module; `caller` is ours to pass, not the assistant's.
        signature = _without_caller(fn)
        run.__signature__ = signature
        run.__annotations__ = {name: p.annotation for name, p in signature.parameters.items()} | {
            "return": CallToolResult
        }
        run.__name__ = fn.__name__
        run.__qualname__ = fn.__qualname__
        run.__doc__ = fn.__doc__
        spec = ToolSpec(fn.__name__, title, run, write, destructive, confirm)
        TOOLS.append(spec)
        return fn

    return decorate


async def in_request_thread(fn, *args):
    """Run the sync `fn` where Django code runs for this call: in the HTTP request's own thread
    (http.py hands it over), or over stdio in Django's one thread for sync code."""
    executor = callers.REQUEST_EXECUTOR.get()
    if executor is None:
        return await sync_to_async(fn, thread_sensitive=True)(*args)
    context = contextvars.copy_context()
    return await asyncio.get_running_loop().run_in_executor(executor, context.run, fn, *args)


def _without_caller(fn) -> inspect.Signature:
    signature = inspect.signature(fn, eval_str=True)
    parameters = [p for name, p in signature.parameters.items() if name != "caller"]
    return signature.replace(parameters=parameters, return_annotation=CallToolResult)


def _call(spec: ToolSpec, fn, arguments: dict) -> CallToolResult:
    caller = callers.current()
    if spec.write and not caller.may_write:
        raise ToolError(callers.read_only_refusal())
    if callers.stdio_process():
        # A stdio session may sit idle for hours: longer than the database keeps a connection.
        # (Over HTTP the request's own connection serves the call.)
        close_old_connections()
        _count_stdio_call(caller)
    try:
        return fn(caller, **arguments).result()
    except ToolError:
        raise
    except Exception as exc:
        message = refusal_text(exc)
        if message is None:
            raise
        raise ToolError(message) from None
    finally:
        if callers.stdio_process():
            close_old_connections()


def refusal_text(exc: Exception) -> str | None:
    """The API's words for a refusal (`fields`: each refused field and its rule), or None when
    `exc` is no refusal but a fault."""
    if isinstance(exc, ObjectDoesNotExist):
        exc = Http404()
    elif isinstance(exc, DjangoValidationError):
        exc = serializers.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        )
    elif isinstance(exc, confirmations.ConfirmationError):
        return f"confirmation: {exc}"
    response = exception_handler(exc, {})
    if response is None:
        return None
    error = response.data["error"]
    if isinstance(exc, Http404) or error["code"] == "not_found":
        return "Not found: no such object among yours (ids are those this server gave you)."
    fields = error.get("fields") or {}
    if not fields:
        return error["message"]
    return "Refused. " + " ".join(f"{name}: {rule}" for name, rule in fields.items())


def confirmed(
    caller: callers.Caller,
    tool_name: str,
    target: dict,
    confirmation: str,
    *,
    now: datetime,
    consequence: str,
    data: dict | None = None,
) -> Answer | None:
    """None when `confirmation` is good for this call (act now); else the answer that asks for
    one: what would happen (`consequence`, in our words only) and the token to send back."""
    if confirmation:
        confirmations.redeem(caller, tool_name, target, confirmation, now=now)
        return None
    token = confirmations.issue(caller, tool_name, target, now=now)
    minutes = int(confirmations.CONFIRMATION_TTL.total_seconds() // 60)
    return Answer(
        f"Not done yet. {consequence} To go ahead, ask the reader, then call {tool_name} again "
        f'with the same arguments and confirmation="{token}" (good for {minutes} minutes, once).',
        {
            "status": "confirmation_required",
            "consequence": consequence,
            "confirmation": token,
            "expires_in_seconds": minutes * 60,
            **(data or {}),
        },
    )


def now() -> datetime:
    return timezone.now()


def _as_request(caller: callers.Caller) -> SimpleNamespace:
    """What DRF's throttles read of a request: the user and the token."""
    return SimpleNamespace(user=caller.user, auth=caller.token, META={})


def throttled(caller: callers.Caller, scope: str) -> None:
    """Count this call against the API allowance `scope` (the same counters as the API view of
    that scope, so console, API and assistant share one); refuse it past the allowance."""
    wait = wait_before_another(_as_request(caller), scope)
    if wait is not None:
        raise ToolError(
            f"Too many of these for now (the same allowance as the API's {scope}); try again in "
            f"{math.ceil(wait)} seconds."
        )


def _count_stdio_call(caller: callers.Caller) -> None:
    """A stdio client has no HTTP request for the API's throttles to count: each tool call
    counts against the token's and the user's allowance instead."""
    request = _as_request(caller)
    for throttle in (TokenRateThrottle(), LiveUserRateThrottle()):
        if not throttle.allow_request(request, None):
            raise ToolError(
                f"Too many calls with this token; try again in {math.ceil(throttle.wait() or 1)} "
                "seconds."
            )
