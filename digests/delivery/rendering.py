"""The one email helper: a subject / text / HTML triplet from three templates, in a language.

`render_email("digests/email/brief", context, locale="zh-hans")` renders
`digests/email/brief_subject.txt`, `brief.txt` and `brief.html`. The subject is flattened to
one line (a header cannot carry a line break); the text part is written with autoescape off
inside its template.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils import translation


@dataclass(frozen=True)
class RenderedEmail:
    subject: str
    text: str
    html: str


def render_email(template: str, context: dict, *, locale: str) -> RenderedEmail:
    with translation.override(locale):
        subject = render_to_string(f"{template}_subject.txt", context)
        text = render_to_string(f"{template}.txt", context)
        html = render_to_string(f"{template}.html", context)
    return RenderedEmail(subject=" ".join(subject.split()), text=text.strip() + "\n", html=html)
