"""The email channel: a brief as one multipart message (text + HTML) through Django's email
backend, with RFC 8058 one-click unsubscribe headers.

SMTP replies decide what happens next: a 5xx refusal of the recipient, sender or message is
permanent (no retry; the reason is shown on the subscription, as a bounce would be); 4xx
replies, timeouts and dropped connections are transient and retried with backoff.
"""

from __future__ import annotations

import smtplib
import socket
from datetime import datetime
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.utils import translation

from digests.delivery import unsubscribe
from digests.delivery.base import Channel, TransportError
from digests.delivery.brief import Brief
from digests.delivery.rendering import RenderedEmail, render_email
from digests.delivery.subject import default_subject_template, format_subject
from digests.models import Delivery, Subscription
from digests.narrative.markdown import render as narrative_html

DEFAULT_TIMEOUT_SECONDS = 20


def site_domain() -> str:
    return urlsplit(settings.SITE_URL).hostname or "tidings.local"


def render_brief_email(brief: Brief, *, recipient: str, subject_template: str) -> RenderedEmail:
    """The message of one brief, in the run's language: also what the console's preview shows."""
    with translation.override(brief.locale):
        subject = format_subject(
            subject_template or default_subject_template(),
            name=brief.subscription_name,
            day=brief.local_date,
            count=len(brief.items),
            topic=brief.topic,
        )
    context = {
        "brief": brief,
        "subject": subject,
        "items": brief.items,
        "narrative_html": narrative_html(brief.narrative_md) if brief.narrative_md else "",
        "unsubscribe_url": unsubscribe.url_for(brief.subscription_id, recipient),
        "recipient": recipient,
    }
    return render_email("digests/email/brief", context, locale=brief.locale)


def build_message(
    brief: Brief, *, recipient: str, subject_template: str, message_id: str
) -> EmailMultiAlternatives:
    rendered = render_brief_email(brief, recipient=recipient, subject_template=subject_template)
    unsubscribe_url = unsubscribe.url_for(brief.subscription_id, recipient)
    domain = site_domain()
    message = EmailMultiAlternatives(
        subject=rendered.subject,
        body=rendered.text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[recipient],
        headers={
            # The same Message-ID on every attempt: a repeat after a worker died mid-send is
            # recognisably the same message to the receiving side.
            "Message-ID": f"<{message_id}@{domain}>",
            # RFC 8058: a mail client's one-click unsubscribe POSTs to this URL.
            "List-Unsubscribe": f"<{unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "List-Id": f"<subscription-{brief.subscription_id}.{domain}>",
            # RFC 3834: no vacation auto-replies to a brief.
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(rendered.html, "text/html")
    return message


def smtp_failure(exc: Exception) -> TransportError:
    """What an exception from the SMTP conversation means for retrying."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        code, reply = next(iter(exc.recipients.values()), (0, b""))
        return _reply_failure("The mail server refused the recipient", code, reply)
    if isinstance(exc, smtplib.SMTPAuthenticationError | smtplib.SMTPNotSupportedError):
        # The server's set-up, not this message: worth trying again once it is fixed.
        code = getattr(exc, "smtp_code", None)
        return TransportError(f"The mail server refused the login: {exc}", code=code)
    if isinstance(exc, smtplib.SMTPResponseException):
        return _reply_failure("The mail server refused the message", exc.smtp_code, exc.smtp_error)
    # smtplib reports a timed-out reply as a disconnection caused by the timeout.
    if isinstance(exc, TimeoutError | socket.timeout) or isinstance(
        exc.__context__, TimeoutError | socket.timeout
    ):
        return TransportError("The mail server did not answer in time.")
    if isinstance(exc, smtplib.SMTPServerDisconnected):
        return TransportError(f"The mail server closed the connection: {exc}")
    return TransportError(f"Could not reach the mail server: {type(exc).__name__}: {exc}")


def _reply_failure(what: str, code: int, reply) -> TransportError:
    text = reply.decode("utf-8", "replace") if isinstance(reply, bytes) else str(reply)
    return TransportError(
        f"{what}: {code} {' '.join(text.split())}"[:900],
        permanent=500 <= code <= 599,
        code=code or None,
    )


class EmailChannel(Channel):
    name = Delivery.Channel.EMAIL

    def refusal(self, delivery: Delivery) -> str:
        subscription = delivery.subscription
        if subscription.deleted_at is not None:
            return "The subscription was deleted before this brief was sent."
        if not subscription.email_enabled:
            return "Email was turned off for this subscription before this brief was sent."
        return ""

    def send(self, delivery: Delivery, brief: Brief | None) -> int | None:
        if brief is None:
            raise TransportError("Email sends briefs only.", permanent=True)
        message = build_message(
            brief,
            recipient=delivery.recipient,
            subject_template=delivery.subscription.email_subject,
            message_id=delivery.message_id,
        )
        timeout = getattr(settings, "EMAIL_TIMEOUT", None) or DEFAULT_TIMEOUT_SECONDS
        try:
            with get_connection(fail_silently=False, timeout=timeout) as connection:
                connection.send_messages([message])
        except (smtplib.SMTPException, OSError) as exc:
            raise smtp_failure(exc) from None
        return 250

    def succeeded(self, delivery: Delivery, *, now: datetime) -> None:
        if delivery.subscription.email_error:  # read with the delivery: most sends write nothing
            Subscription.objects.filter(pk=delivery.subscription_id).update(
                email_error="", email_error_at=None
            )

    def failed(
        self, delivery: Delivery, error: TransportError, *, gave_up: bool, now: datetime
    ) -> None:
        if error.permanent:
            Subscription.objects.filter(pk=delivery.subscription_id).update(
                email_error=error.message[:500], email_error_at=now
            )
