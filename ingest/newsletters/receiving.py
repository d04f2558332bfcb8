"""What becomes of a received message: `accept_message` writes it down (one row per address and
message, so a second delivery of the same message is a no-op) and `read_message` — the worker's
half — turns it into an item in the pool, holds it for an unknown sender, or shows it as a
subscription confirmation whose link the reader clicks (Tidings never does).

Both entry points (the SMTP listener, the provider webhook) call `accept_message`; the worker
task calls `read_message`. No remote content is fetched at any point.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from email import policy
from email.parser import BytesParser

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ingest.canonical import url_hash
from ingest.models import ContentItem, InboundMessage, NewsletterAddress
from ingest.newsletters.addresses import active_address, allow_sender_on_list, sender_allowed
from ingest.newsletters.parsing import ParsedMessage, message_key, parse_message, roundup_links
from ingest.pool.entries import DESCRIPTION_MAX_CHARS, ParsedEntry, ParsedFeed
from ingest.refresh.outcome import Fetched
from ingest.refresh.pipeline import store_refresh

logger = logging.getLogger(__name__)

ABUSE_WINDOW = timedelta(days=1)
# Mail held for an unknown sender keeps its text to become an item once allowed, up to this
# size: a stranger who found an address cannot park gigabytes in the database.
HELD_KEEP_BYTES = 2 * 1024 * 1024
SUMMARY_CHARS = 500


class Refused(Exception):
    """The message is not taken; `smtp` is the reply an SMTP client reads."""

    def __init__(self, smtp: str, message: str):
        super().__init__(message)
        self.smtp = smtp
        self.message = message


def over_daily_limit(address: NewsletterAddress, *, now: datetime) -> bool:
    return (
        InboundMessage.objects.filter(address=address, received_at__gt=now - ABUSE_WINDOW).count()
        >= settings.NEWSLETTER_DAILY_LIMIT
    )


def recipient_address(recipient: str, *, now: datetime) -> NewsletterAddress:
    """The address mail to `recipient` goes to, or `Refused` (the SMTP RCPT answer)."""
    address = active_address(recipient, domain=settings.INBOUND_DOMAIN)
    if address is None:
        raise Refused("550 5.1.1 No such mailbox here", _("No such newsletter address."))
    if over_daily_limit(address, now=now):
        raise Refused(
            "452 4.2.2 Too many messages for this address today",
            _("This address has received its %(n)d messages for today.")
            % {"n": settings.NEWSLETTER_DAILY_LIMIT},
        )
    return address


def _key_of(raw: bytes) -> str:
    headers = BytesParser(policy=policy.default).parsebytes(raw, headersonly=True)
    try:
        list_id = str(headers.get("list-id", "") or "").strip()
        message_id = str(headers.get("message-id", "") or "").strip().strip("<> ")
    except Exception:  # an undecodable header: identify by content
        list_id = message_id = ""
    return message_key(list_id, message_id[:500], raw)


def accept_message(
    recipients: list[str], raw: bytes, *, now: datetime, enqueue: Callable[[int], None]
) -> list[InboundMessage]:
    """Write the message down once per known recipient address and hand each new row to
    `enqueue` (the worker) after commit. A message seen before for an address is not queued
    again. Raises `Refused` when no recipient is a known, active address, or it is too big."""
    if len(raw) > settings.MAILIN_MAX_BYTES:
        raise Refused(
            "552 5.3.4 Message too big",
            _("The message is larger than %(n)d bytes.") % {"n": settings.MAILIN_MAX_BYTES},
        )
    addresses: dict[int, NewsletterAddress] = {}
    for recipient in recipients:
        try:
            address = recipient_address(recipient, now=now)
        except Refused:
            continue
        addresses[address.pk] = address
    if not addresses:
        raise Refused("550 5.1.1 No such mailbox here", _("No such newsletter address."))
    key = _key_of(raw)
    created = []
    for address in addresses.values():
        try:
            with transaction.atomic():
                row = InboundMessage.objects.create(
                    address=address, message_key=key, received_at=now, raw=raw, size=len(raw)
                )
        except IntegrityError:  # the same message again (a retry, a second delivery)
            continue
        created.append(row)
        transaction.on_commit(lambda pk=row.pk: enqueue(pk))
    return created


def dkim_note(raw: bytes, *, dnsfunc=None) -> str:
    """ "DKIM: pass (example.com)" when a signature verifies, "DKIM: fail (…)" when one does
    not, "" without a signature. `dnsfunc` answers the key lookup (tests: no DNS)."""
    import dkim

    if b"dkim-signature:" not in raw[:65536].lower():
        return ""
    try:
        parsed = dkim.DKIM(raw)
        kwargs = {"dnsfunc": dnsfunc} if dnsfunc is not None else {}
        ok = parsed.verify(**kwargs)
        domain = (parsed.domain or b"").decode("ascii", "replace")
    except Exception as exc:  # a broken signature is a failed one
        return f"DKIM: fail ({type(exc).__name__})"[:300]
    return (f"DKIM: pass ({domain})" if ok else f"DKIM: fail ({domain})")[:300]


def read_newsletter(source, prefetched=None) -> Fetched:
    """The reader of `newsletter` sources in the refresh pipeline: there is nothing to fetch
    (mail arrives by itself), so a refresh someone asks for finds no new entries."""
    return Fetched(parsed=ParsedFeed(title="", site_url="", language=""))


def issue_url(address: NewsletterAddress, key: str) -> str:
    """The issue's canonical address: a Tidings page its owner can open. It names the source,
    so two readers' copies of one newsletter are two items, never one shared row."""
    return f"{settings.SITE_URL}/sources/newsletters/{address.source_id}/issues/{key[:32]}/"


def _entries(address: NewsletterAddress, parsed: ParsedMessage, now: datetime) -> list:
    published = parsed.published_at
    if published is not None and published > now:  # a future Date would pin it on top
        published = now
    author = parsed.sender_name or parsed.sender_email
    entries = [
        ParsedEntry(
            url=issue_url(address, parsed.key),
            entry_id=parsed.key,
            title=(parsed.subject or _("(no subject)"))[:500],
            description=parsed.text[:SUMMARY_CHARS][:DESCRIPTION_MAX_CHARS],
            content_html=parsed.html,
            author=author[:300],
            published_at=published,
            site_name=(parsed.sender_name or address.source.title)[:300],
        )
    ]
    if address.split_roundups:
        for url, label in roundup_links(parsed):
            entries.append(
                ParsedEntry(
                    url=url,
                    entry_id=url[:2048],
                    title=label[:500],
                    description="",
                    content_html="",
                    author="",
                    published_at=published,
                    site_name="",
                )
            )
    return entries


def _ingest(row: InboundMessage, parsed: ParsedMessage, *, now: datetime) -> None:
    address = row.address
    entries = _entries(address, parsed, now)
    feed = ParsedFeed(title=address.source.title, site_url="", language="", entries=entries)
    outcome = store_refresh(address.source, Fetched(parsed=feed), now=now)
    if not outcome.ok:
        row.status = InboundMessage.Status.REFUSED
        row.error = outcome.error[:500]
        return
    row.item = ContentItem.objects.filter(canonical_url_hash=url_hash(entries[0].url)).first()
    row.status = InboundMessage.Status.ACCEPTED
    row.raw = b""


def read_message(message_id: int, *, now: datetime, dnsfunc=None) -> InboundMessage | None:
    """The worker's half. Safe to run twice: only a pending row is read."""
    row = (
        InboundMessage.objects.select_related("address__source")
        .filter(pk=message_id, status=InboundMessage.Status.PENDING)
        .first()
    )
    if row is None:
        return None
    raw = bytes(row.raw)
    parsed = parse_message(raw)
    row.sender_email = parsed.sender_email
    row.sender_name = parsed.sender_name
    row.subject = parsed.subject
    row.dkim = dkim_note(raw, dnsfunc=dnsfunc)
    if parsed.is_confirmation:
        # Shown to the reader with its link; clicking it is theirs to do.
        row.status = InboundMessage.Status.CONFIRMATION
        row.confirm_url = parsed.confirm_url[:2048]
        row.raw = b""
    elif not sender_allowed(row.address, parsed.sender_email):
        row.status = InboundMessage.Status.HELD  # kept, with its raw text, until allowed
        if len(raw) > HELD_KEEP_BYTES:
            row.raw = b""
            row.error = _("Too large to keep while held; allow the sender and ask for it again.")
    else:
        _ingest(row, parsed, now=now)
    row.save()
    return row


def allow_sender(address: NewsletterAddress, sender: str, *, now: datetime) -> int:
    """Allow a sender on an address and read the mail of theirs it held; returns how many
    held messages became items."""
    allow_sender_on_list(address, sender)
    held = list(
        InboundMessage.objects.filter(address=address, status=InboundMessage.Status.HELD)
        .select_related("address__source")
        .order_by("received_at", "pk")
    )
    taken = 0
    for row in held:
        if not sender_allowed(address, row.sender_email) or not row.raw:
            continue
        row.address = address
        _ingest(row, parse_message(bytes(row.raw)), now=now)
        row.save()
        taken += row.status == InboundMessage.Status.ACCEPTED
    return taken
