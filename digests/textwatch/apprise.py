"""Notifications through Apprise (ntfy, Gotify, Slack, Discord, Telegram, Matrix, Teams, JSON
webhooks…): targets, which subscriptions and watches they follow, and sending.

The safe-fetch rule holds for Apprise too. Apprise's HTTP plugins send with `requests`; while
Apprise sends for Tidings (`_through_safe_client`, a thread-local switch), requests' transport
adapter hands every request to the one safe client (ingest/fetching/fetch.py `post`): the
address is checked on each send (no private or loopback addresses unless the operator allows
them, the same DNS answer used for the connection), timeouts, a total deadline, no redirects,
the host's politeness. Outside the switch requests behaves as always. Only plugins known to
send through `requests` over HTTP are accepted (`SERVICES`); e-mail, XMPP, MQTT and other
socket-level plugins would reach the network around the client, so their URLs are refused.

Secrets: an Apprise URL carries tokens and passwords. It is encrypted at rest (Fernet, key
derived from SECRET_KEY: rotating SECRET_KEY means adding targets again), shown back only as
a hint (service and host), and never logged (Apprise's own logger is kept at ERROR, and our
messages name the target by its label).
"""

from __future__ import annotations

import base64
import contextvars
import hashlib
import logging
from contextlib import contextmanager
from datetime import datetime, timedelta

import apprise
import requests
from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from config.api.errors import ServiceRefusal
from digests.models import Run, Subscription
from digests.textwatch.models import AppriseRoute, AppriseSend, AppriseTarget
from ingest.fetching import fetch

logging.getLogger("apprise").setLevel(logging.ERROR)

URL_MAX_CHARS = 2048
LABEL_MAX_CHARS = 100
TARGETS_MAX = 20
MAX_ATTEMPTS = 5
BODY_MAX_CHARS = 3500
LEASE = timedelta(minutes=5)
# Plugins that send over HTTP through `requests` (so through the safe client), by schema.
# Self-hosted ones name a host of the reader's choosing: checked now, and on every send.
SELF_HOSTED = {
    "json", "jsons", "form", "forms", "xml", "xmls", "ntfy", "ntfys", "gotify", "gotifys",
    "apprise", "apprises", "matrix", "matrixs", "mmost", "mmosts", "rocket", "rockets",
    "signal", "signals",
}  # fmt: skip
HOSTED = {"slack", "discord", "tgram", "msteams", "pover", "zulip", "gchat"}
SERVICES = SELF_HOSTED | HOSTED


class AppriseError(ServiceRefusal):
    """A refused notification target (HTTP 400)."""


# --- the safe client under requests -----------------------------------------------------------

# A context variable, not a thread-local: Apprise hands work to its thread pools with the
# caller's context copied (and runs sequentially here anyway, `async_mode=False`), so a send
# on any of its threads still finds the switch on. The dict is shared, so an error recorded
# on such a thread is read back by the caller.
_switch: contextvars.ContextVar[dict | None] = contextvars.ContextVar("apprise_safe", default=None)
_original_send = requests.adapters.HTTPAdapter.send


def _safe_send(self, request, *args, **kwargs):
    state = _switch.get()
    if state is None:
        return _original_send(self, request, *args, **kwargs)
    body = request.body or b""
    if isinstance(body, str):
        body = body.encode()
    headers = {k: v for k, v in request.headers.items() if k.lower() not in ("content-length",)}
    content_type = headers.pop("Content-Type", "application/octet-stream")
    response = requests.Response()
    response.request, response.url = request, request.url
    try:
        if request.method != "POST":
            raise fetch.FetchRefused(_("Only POST notifications are sent."), url=request.url)
        result = fetch.post(request.url, body=body, content_type=content_type, headers=headers)
        response.status_code = result.status
        if result.status >= 400:
            state["error"] = _("The service answered HTTP %(status)d.") % {"status": result.status}
        response._content = result.content
        response.headers.update(result.headers)
    except fetch.HTTPStatusError as exc:
        state["error"] = exc.message
        response.status_code, response._content = exc.status, b""
    except fetch.FetchError as exc:
        state["error"] = exc.message
        raise requests.ConnectionError(exc.message) from None
    return response


requests.adapters.HTTPAdapter.send = _safe_send


@contextmanager
def _through_safe_client():
    state = {"error": ""}
    token = _switch.set(state)
    try:
        yield state
    finally:
        _switch.reset(token)


# --- targets ----------------------------------------------------------------------------------


def _fernet() -> Fernet:
    key = hashlib.sha256(b"tidings-apprise-targets:" + settings.SECRET_KEY.encode()).digest()
    return Fernet(base64.urlsafe_b64encode(key))


def _decrypt(target: AppriseTarget) -> str:
    try:
        return _fernet().decrypt(target.url_encrypted.encode()).decode()
    except InvalidToken:
        return ""


def check_url(url) -> tuple[str, str]:
    """(service, hint) of a valid Apprise URL we can send through, or AppriseError."""
    if not isinstance(url, str) or not url.strip():
        raise AppriseError({"url": _("Enter an Apprise URL, such as ntfy://ntfy.sh/topic.")})
    url = url.strip()
    if len(url) > URL_MAX_CHARS:
        raise AppriseError(
            {"url": _("The URL is longer than %(limit)d characters.") % {"limit": URL_MAX_CHARS}}
        )
    schema = url.split("://", 1)[0].lower() if "://" in url else ""
    if schema not in SERVICES:
        raise AppriseError(
            {
                "url": _("%(schema)r is not a service Tidings sends to; use one of %(choices)s.")
                % {"schema": schema or url[:20], "choices": ", ".join(sorted(SERVICES))}
            }
        )
    plugin = apprise.Apprise.instantiate(url, suppress_exceptions=True)
    if plugin is None:
        raise AppriseError(
            {"url": _("Apprise cannot read this %(schema)s URL.") % {"schema": schema}},
            code="unreadable_url",
        )
    host = getattr(plugin, "host", "") or ""
    if schema in SELF_HOSTED:
        port = getattr(plugin, "port", None)
        address = f"http://{host}:{port}/" if port else f"http://{host}/"
        try:
            fetch.resolve_checked(fetch.parse_target(address))
        except fetch.FetchError as exc:
            raise AppriseError({"url": exc.message}, code=exc.code) from None
        return schema, f"{schema}://{host}{f':{port}' if port else ''}/…"
    return schema, f"{schema}://…"


def add_target(user, *, url, label="", now: datetime) -> AppriseTarget:
    service, hint = check_url(url)
    label = " ".join(str(label or "").split())[:LABEL_MAX_CHARS] or service
    with transaction.atomic():
        if AppriseTarget.objects.filter(owner=user).count() >= TARGETS_MAX:
            raise AppriseError({"url": _("At most %(limit)d targets.") % {"limit": TARGETS_MAX}})
        return AppriseTarget.objects.create(
            owner=user,
            label=label,
            url_encrypted=_fernet().encrypt(url.strip().encode()).decode(),
            service=service,
            hint=hint,
            created_at=now,
        )


def set_routes(user, subscription: Subscription, target_ids) -> list[int]:
    """Where this subscription's briefs (a watch's changes) go, besides its other channels."""
    if not isinstance(target_ids, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in target_ids
    ):
        raise AppriseError({"apprise_targets": _("Must be a list of target ids.")})
    owned = set(
        AppriseTarget.objects.filter(owner=user, pk__in=target_ids).values_list("pk", flat=True)
    )
    missing = [i for i in target_ids if i not in owned]
    if missing:
        raise AppriseError(
            {"apprise_targets": _("No target %(id)s of yours.") % {"id": missing[0]}},
            code="not_found",
        )
    with transaction.atomic():
        AppriseRoute.objects.filter(subscription=subscription).exclude(target_id__in=owned).delete()
        for pk in sorted(owned):
            AppriseRoute.objects.get_or_create(subscription=subscription, target_id=pk)
    return sorted(owned)


# --- sending ----------------------------------------------------------------------------------


def plan_sends(run: Run, *, now: datetime) -> int:
    """The run's Apprise rows, in the run's own transaction (a unique (run, target) key: a
    retried plan keeps the rows it has). An empty brief is sent nowhere."""
    if run.delivered_count == 0:
        return 0
    targets = AppriseRoute.objects.filter(subscription_id=run.subscription_id).values_list(
        "target_id", flat=True
    )
    rows = [
        AppriseSend(run=run, target_id=pk, created_at=now, next_attempt_at=now) for pk in targets
    ]
    AppriseSend.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def message_of(run: Run) -> tuple[str, str]:
    items = list(run.items.order_by("rank")[:10])
    if len(items) == 1:
        return items[0].title, f"{items[0].summary}\n\n{items[0].url}"[:BODY_MAX_CHARS]
    lines = [f"• {item.title} — {item.url}" for item in items]
    return run.subscription.name, "\n".join(lines)[:BODY_MAX_CHARS]


def notify(url: str, *, title: str, body: str) -> str:
    """Send one message through Apprise and the safe client: "" or why it failed."""
    service = apprise.Apprise(asset=apprise.AppriseAsset(async_mode=False))
    if not service.add(url):
        return _("Apprise cannot read this URL any more.")
    with _through_safe_client() as state:
        ok = service.notify(title=title, body=body)
        error = state["error"]
    return "" if ok else (error or _("The service refused the notification."))


def send_test(target: AppriseTarget) -> str:
    return notify(
        _decrypt(target),
        title=_("Tidings test"),
        body=_("This target receives your Tidings notifications."),
    )


def send_due(*, now: datetime, limit: int = 50) -> list[AppriseSend]:
    """The tick's sweep: send the rows that are due — retries after their back-off, and first
    attempts whose task was lost — each claimed under a lease; failures retry with back-off,
    up to MAX_ATTEMPTS."""
    ids = list(
        AppriseSend.objects.filter(status=AppriseSend.Status.PENDING, next_attempt_at__lte=now)
        .order_by("next_attempt_at", "id")
        .values_list("pk", flat=True)[:limit]
    )
    return [row for pk in ids if (row := _send_one(pk, now=now)) is not None]


def hand_out_sends(run_id: int, send) -> bool:
    """After the run commits: give it to `send` (enqueue) if it has rows never tried, so its
    notifications go out at once rather than on the next tick."""
    fresh = AppriseSend.objects.filter(
        run_id=run_id, status=AppriseSend.Status.PENDING, attempts=0
    ).exists()
    if fresh:
        send(run_id)
    return fresh


def send_run(run_id: int, *, now: datetime) -> list[AppriseSend]:
    """The first attempt of a run's rows (the task `hand_out_sends` enqueued). Retries are the
    tick's (`send_due`): a row tried once is left to its back-off. The claim is the same
    conditional update, so this task and a tick never send one row twice."""
    ids = list(
        AppriseSend.objects.filter(
            run_id=run_id, status=AppriseSend.Status.PENDING, attempts=0
        ).values_list("pk", flat=True)
    )
    return [row for pk in ids if (row := _send_one(pk, now=now)) is not None]


def _send_one(pk: int, *, now: datetime) -> AppriseSend | None:
    row = AppriseSend.objects.select_related("run__subscription", "target").get(pk=pk)
    taken = AppriseSend.objects.filter(
        pk=pk, status=AppriseSend.Status.PENDING, next_attempt_at=row.next_attempt_at
    ).update(next_attempt_at=now + LEASE, attempts=row.attempts + 1)
    if not taken:
        return None
    title, body = message_of(row.run)
    error = notify(_decrypt(row.target), title=title, body=body)
    row.attempts += 1
    if not error:
        row.status, row.sent_at, row.last_error, row.next_attempt_at = "sent", now, "", None
    elif row.attempts >= MAX_ATTEMPTS:
        row.status, row.last_error, row.next_attempt_at = "failed", error[:500], None
    else:
        row.last_error = error[:500]
        row.next_attempt_at = now + timedelta(minutes=2**row.attempts)
    row.save(update_fields=["status", "sent_at", "last_error", "next_attempt_at", "attempts"])
    return row
