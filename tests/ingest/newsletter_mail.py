"""Real-world-shaped newsletter messages, as bytes a mail server would receive."""

from __future__ import annotations

from email import policy
from email.message import EmailMessage
from email.utils import format_datetime

from django.conf import settings


def _wire(msg: EmailMessage) -> bytes:
    """CRLF line ends, as a message travels over SMTP (smtplib sends bytes unchanged)."""
    return msg.as_bytes(policy=policy.SMTP)


def _headers(msg, *, subject, sender, to, date, message_id, list_id=None):
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(date)
    if message_id:
        msg["Message-ID"] = f"<{message_id}>"
    if list_id:
        msg["List-Id"] = list_id
    msg["List-Unsubscribe"] = "<https://news.example/unsubscribe?u=1>"


def alternative(to, date, *, message_id="alt-1@news.example"):
    """A Substack-like issue: text and HTML, a tracking pixel, click-tracking redirects."""
    msg = EmailMessage()
    _headers(
        msg,
        subject="The Weekly Query: PostgreSQL 18 in production",
        sender='"Query Weekly" <editor@queryweekly.example>',
        to=to,
        date=date,
        message_id=message_id,
        list_id="Query Weekly <weekly.queryweekly.example>",
    )
    msg.set_content("PostgreSQL 18 in production.\nRead it: https://blog.example/pg18\n")
    msg.add_alternative(
        "<html><body><h1>PostgreSQL 18 in production</h1>"
        "<p>Async I/O changes everything. <a href='https://click.queryweekly.example/c?"
        "url=https%3A%2F%2Fblog.example%2Fpg18%3Futm_source%3Dnewsletter'>Read the story</a></p>"
        "<img src='https://open.queryweekly.example/o.gif?id=9' width='1' height='1' alt=''>"
        "<p><a href='https://queryweekly.example/unsubscribe?u=1'>Unsubscribe</a></p>"
        "</body></html>",
        subtype="html",
    )
    return _wire(msg)


def html_only(to, date):
    msg = EmailMessage()
    _headers(
        msg,
        subject="Rust Digest #12",
        sender="Rust Digest <digest@rust.example>",
        to=to,
        date=date,
        message_id="rd-12@rust.example",
    )
    msg.set_content("<p>Borrow checker news and <b>async</b> traits.</p>", subtype="html")
    return _wire(msg)


def text_only(to, date):
    msg = EmailMessage()
    _headers(
        msg,
        subject="Plain text letter",
        sender="Plain Writer <me@plain.example>",
        to=to,
        date=date,
        message_id="plain-1@plain.example",
    )
    msg.set_content("Hello reader,\n\nThis week: https://plain.example/essay\n\n-- me\n")
    return _wire(msg)


def latin1_quoted_printable(to, date):
    return (
        f"From: =?iso-8859-1?q?Caf=E9_Journal?= <cafe@journal.example>\r\n"
        f"To: {to}\r\n"
        "Subject: =?iso-8859-1?q?Cr=E8me_br=FBl=E9e_et_caf=E9?=\r\n"
        f"Date: {format_datetime(date)}\r\n"
        "Message-ID: <cafe-7@journal.example>\r\n"
        "MIME-Version: 1.0\r\n"
        "Content-Type: text/html; charset=iso-8859-1\r\n"
        "Content-Transfer-Encoding: quoted-printable\r\n\r\n"
        "<p>Le caf=E9 du jour, cr=E8me br=FBl=E9e.</p>\r\n"
    ).encode("ascii")


def shift_jis_base64(to, date):
    msg = EmailMessage()
    _headers(
        msg,
        subject="週刊ニュース 第3号",
        sender="週刊ニュース <weekly@jp.example>",
        to=to,
        date=date,
        message_id="jp-3@jp.example",
    )
    msg.set_content(
        "<p>今週の記事：東京の天気</p>", subtype="html", charset="shift_jis", cte="base64"
    )
    return _wire(msg)


def confirmation(to, date):
    msg = EmailMessage()
    _headers(
        msg,
        subject="Please confirm your subscription to Query Weekly",
        sender='"Query Weekly" <editor@queryweekly.example>',
        to=to,
        date=date,
        message_id="confirm-1@queryweekly.example",
    )
    msg.set_content(
        "<p>One more step. <a href='https://queryweekly.example/subscribe/confirm?t=abc123'>"
        "Yes, subscribe me</a></p>",
        subtype="html",
    )
    return _wire(msg)


ROUNDUP_LINKS = [
    ("https://lwn.example/articles/1", "Memory folios land in the kernel"),
    ("https://blog.example/zig-release", "Zig 0.14 is out with new build"),
    ("https://go.example/post/loops", "Range over function iterators explained"),
    ("https://py.example/free-threading", "Free threading in Python three thirteen"),
    ("https://db.example/vacuum", "Understanding vacuum in modern databases"),
]


def roundup(to, date):
    links = "".join(
        f"<li><a href='https://tracker.roundup.example/r?url={url}'>{label}</a></li>"
        for url, label in ROUNDUP_LINKS
    )
    msg = EmailMessage()
    _headers(
        msg,
        subject="Five links for the weekend",
        sender="Link Roundup <links@roundup.example>",
        to=to,
        date=date,
        message_id="roundup-40@roundup.example",
        list_id="<links.roundup.example>",
    )
    msg.set_content(
        f"<h2>This week</h2><ul>{links}</ul>"
        "<p><a href='https://roundup.example/archive'>Read past issues online</a> · "
        "<a href='https://roundup.example/unsubscribe'>Unsubscribe</a></p>",
        subtype="html",
    )
    return _wire(msg)


def huge(to, date):
    msg = EmailMessage()
    _headers(
        msg,
        subject="Far too big",
        sender="Big <big@big.example>",
        to=to,
        date=date,
        message_id="big-1@big.example",
    )
    msg.set_content("<p>" + "x" * (settings.MAILIN_MAX_BYTES + 10) + "</p>", subtype="html")
    return _wire(msg)


def malformed(to, date):
    """A multipart whose closing boundary never comes, an unknown charset, a broken Date."""
    return (
        f"From: Broken Sender <broken@broken.example>\r\n"
        f"To: {to}\r\n"
        "Subject: Broken but readable\r\n"
        "Date: not a date at all\r\n"
        "Message-ID: <broken-1@broken.example>\r\n"
        "MIME-Version: 1.0\r\n"
        'Content-Type: multipart/alternative; boundary="XYZ"\r\n\r\n'
        "--XYZ\r\n"
        "Content-Type: text/html; charset=x-no-such-charset\r\n\r\n"
        "<p>Still here \xff after all</p>\r\n"
    ).encode("latin-1")


def with_attachment_and_inline_image(to, date):
    msg = EmailMessage()
    _headers(
        msg,
        subject="Report attached",
        sender="Reports <reports@reports.example>",
        to=to,
        date=date,
        message_id="rep-1@reports.example",
    )
    msg.set_content("See the chart.")
    msg.add_alternative(
        "<p>See the chart <img src='cid:chart1' alt='chart'> below.</p>", subtype="html"
    )
    msg.get_payload()[1].add_related(b"\x89PNG fake", "image", "png", cid="<chart1>")
    msg.add_attachment(b"%PDF-1.4 fake", maintype="application", subtype="pdf", filename="r.pdf")
    return _wire(msg)


def without_message_id(to, date):
    msg = EmailMessage()
    _headers(
        msg,
        subject="An issue with no Message-ID",
        sender="Oddball <odd@odd.example>",
        to=to,
        date=date,
        message_id=None,
    )
    msg.set_content("Body of the odd one.")
    return _wire(msg)
