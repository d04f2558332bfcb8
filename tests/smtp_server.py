"""A real SMTP server on 127.0.0.1 (aiosmtpd) for the email tests and the delivery benchmark.

It keeps every accepted message parsed, and can be told how to answer the next messages
(`refuse_next("451 4.3.0 Try again later")`, a `550` for a recipient, a delay), so retries
and permanent refusals are tested against a real SMTP conversation, not a fake backend.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import logging
import re
import socket
import threading
from collections import deque
from email.message import EmailMessage

from aiosmtpd.smtp import SMTP

# aiosmtpd logs every SMTP command at INFO; the tests read the messages, not the chatter.
logging.getLogger("mail.log").setLevel(logging.WARNING)


class LoopbackSMTPServer:
    """`parse=False` keeps only each message's Message-ID (the benchmark counts thousands)."""

    def __init__(self, *, parse: bool = True):
        self.parse = parse
        self.ids_only: list[str] = []
        self.messages: list[EmailMessage] = []
        self.recipients: list[list[str]] = []
        self._lock = threading.Lock()
        self._data_replies: deque[str] = deque()
        self._rcpt_replies: deque[str] = deque()
        self.delay_seconds = 0.0
        # Before answering a recipient: a send caught here has not handed over its message.
        self.rcpt_delay_seconds = 0.0
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(64)
        self.port = self._sock.getsockname()[1]
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    # --- Scripting the next answers --------------------------------------------------------

    def refuse_next(self, reply: str, *, times: int = 1) -> None:
        """Answer the next `times` messages' DATA with `reply` (e.g. "451 …" or "554 …")."""
        with self._lock:
            self._data_replies.extend([reply] * times)

    def refuse_next_recipient(self, reply: str, *, times: int = 1) -> None:
        with self._lock:
            self._rcpt_replies.extend([reply] * times)

    # --- What arrived ----------------------------------------------------------------------

    @property
    def count(self) -> int:
        with self._lock:
            return len(self.messages) + len(self.ids_only)

    def message_ids(self) -> list[str]:
        with self._lock:
            return [str(m["Message-ID"]) for m in self.messages] + list(self.ids_only)

    def clear(self) -> None:
        with self._lock:
            self.messages.clear()
            self.recipients.clear()
            self.ids_only.clear()

    # --- Server ----------------------------------------------------------------------------

    def settings(self) -> dict:
        """Django settings that send through this server."""
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": self.port,
            "EMAIL_HOST_USER": "",
            "EMAIL_HOST_PASSWORD": "",
            "EMAIL_USE_TLS": False,
            "EMAIL_USE_SSL": False,
            "EMAIL_TIMEOUT": 5,
        }

    def start(self) -> LoopbackSMTPServer:
        self._thread.start()
        self._ready.wait(5)
        return self

    def stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        handler = _Handler(self)
        server = self._loop.run_until_complete(
            self._loop.create_server(
                lambda: _SMTP(handler, hostname="tidings-test", loop=self._loop), sock=self._sock
            )
        )
        self._ready.set()
        try:
            self._loop.run_forever()
        finally:
            server.close()
            self._loop.run_until_complete(server.wait_closed())
            self._loop.close()

    def _next(self, replies: deque[str]) -> str | None:
        with self._lock:
            return replies.popleft() if replies else None


_MESSAGE_ID = re.compile(rb"^Message-ID:\s*(<[^>]*>)", re.MULTILINE | re.IGNORECASE)


class _SMTP(SMTP):
    def connection_made(self, transport):
        # EHLO's reply is written a line at a time: without TCP_NODELAY each line after the
        # first waits for the client's delayed ACK (~40 ms a message on loopback).
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)


class _Handler:
    def __init__(self, server: LoopbackSMTPServer):
        self.server = server

    async def handle_RCPT(self, smtp, session, envelope, address, rcpt_options):
        if self.server.rcpt_delay_seconds:
            await asyncio.sleep(self.server.rcpt_delay_seconds)
        reply = self.server._next(self.server._rcpt_replies)
        if reply:
            return reply
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, smtp, session, envelope):
        if self.server.delay_seconds:
            await asyncio.sleep(self.server.delay_seconds)
        reply = self.server._next(self.server._data_replies)
        if reply:
            return reply
        if not self.server.parse:
            found = _MESSAGE_ID.search(envelope.content.split(b"\r\n\r\n", 1)[0])
            with self.server._lock:
                self.server.ids_only.append(found.group(1).decode() if found else "")
            return "250 Message accepted for delivery"
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.server._lock:
            self.server.messages.append(message)
            self.server.recipients.append(list(envelope.rcpt_tos))
        return "250 Message accepted for delivery"
