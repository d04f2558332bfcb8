"""The SMTP listener behind `manage.py mailin` (aiosmtpd): it takes mail only for known, active
addresses — RCPT is refused otherwise, or when an address is over its daily limit — caps the
message size (SIZE is announced, DATA beyond it refused), writes each message down and hands it
to the worker. No parsing happens here: a slow or hostile message costs the worker, not the
listener.

aiosmtpd runs its event loop on a thread of its own; the database is only touched from the
loop's default executor, where Django's synchronous ORM may run.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from aiosmtpd.controller import Controller
from django.conf import settings
from django.db import connections
from django.utils import timezone

from ingest.newsletters.receiving import Refused, accept_message, recipient_address

logger = logging.getLogger(__name__)


def enqueue_read(message_id: int) -> None:
    from django_q.tasks import async_task

    async_task("ingest.tasks.read_inbound_message", message_id, group="newsletters")


def _in_thread(function, *args):
    """Run ORM work on an executor thread and close its connection afterwards: the executor's
    threads outlive any one message, and a connection left open in one of them would hold the
    database (and keep PostgreSQL from dropping a test or benchmark database) for nothing."""

    def run():
        try:
            return function(*args)
        finally:
            connections.close_all()

    return asyncio.get_running_loop().run_in_executor(None, run)


def _temporary_failure(doing: str) -> str:
    """Our fault (the database is away, a bug): a 4xx, so the sender keeps the message and
    retries. A 5xx would bounce it, and a bounce unsubscribes the reader from the newsletter."""
    logger.exception("mailin: failed while %s", doing)
    return "451 4.3.0 Temporary failure, try again later"


class MailinHandler:
    def __init__(self, *, enqueue: Callable[[int], None] = enqueue_read, clock=timezone.now):
        self.enqueue = enqueue
        self.clock = clock

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        def check():
            recipient_address(address, now=self.clock())

        try:
            await _in_thread(check)
        except Refused as refused:
            return refused.smtp
        except Exception:
            return _temporary_failure("checking a recipient")
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or b""

        def accept():
            accept_message(envelope.rcpt_tos, raw, now=self.clock(), enqueue=self.enqueue)

        try:
            await _in_thread(accept)
        except Refused as refused:
            return refused.smtp
        except Exception:
            return _temporary_failure("taking a message")
        return "250 Message accepted for delivery"


def controller(
    *,
    host: str,
    port: int,
    enqueue: Callable[[int], None] = enqueue_read,
    clock=timezone.now,
) -> Controller:
    """A listener, started with `.start()` and stopped with `.stop()`."""
    # aiosmtpd logs every SMTP command at INFO; what was refused is in our replies.
    logging.getLogger("mail.log").setLevel(logging.WARNING)
    return Controller(
        MailinHandler(enqueue=enqueue, clock=clock),
        hostname=host,
        port=port,
        data_size_limit=settings.MAILIN_MAX_BYTES,
        # aiosmtpd decodes DATA as UTF-8 unless told otherwise; the parser wants the bytes.
        decode_data=False,
        server_hostname=settings.INBOUND_DOMAIN,
        ident="Tidings mailin",
    )
