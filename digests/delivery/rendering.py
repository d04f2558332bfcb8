"""The one email helper: a subject / text / HTML triplet from three templates, in a language.

`render_email("digests/email/brief", context, locale="zh-hans")` renders
`digests/email/brief_subject.txt`, `brief.txt` and `brief.html`. The subject is flattened to
one line (a header cannot carry a line break). The subject and the text part are plain text,
rendered with autoescaping off whatever their template says: "Climate & energy" must arrive
as such, not as "Climate &amp;amp; energy". Only the HTML part escapes.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.template import Context
from django.template.loader import get_template, render_to_string
from django.utils import translation


@dataclass(frozen=True)
class RenderedEmail:
    subject: str
    text: str
    html: str


def render_email(template: str, context: dict, *, locale: str) -> RenderedEmail:
    with translation.override(locale):
        subject = _plain_text(f"{template}_subject.txt", context)
        text = _plain_text(f"{template}.txt", context)
        html = render_to_string(f"{template}.html", context)
    return RenderedEmail(subject=" ".join(subject.split()), text=text.strip() + "\n", html=html)


def _plain_text(name: str, context: dict) -> str:
    return get_template(name).template.render(Context(context, autoescape=False))
