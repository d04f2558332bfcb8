"""The email subject template: `{name}`-style placeholders, checked when it is saved.

Only bare names from PLACEHOLDERS are allowed: no attribute or index access (`{name.__class__}`
would reach into Python objects), no format specs, no conversions. `{{` and `}}` are literal
braces, as in str.format.
"""

from __future__ import annotations

import string

from django.utils.translation import gettext as _

from config import moments

PLACEHOLDERS = ("name", "date", "count", "topic")
MAX_LENGTH = 200


class SubjectTemplateError(ValueError):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _known() -> str:
    return ", ".join("{%s}" % name for name in PLACEHOLDERS)  # noqa: UP031 — braces are the point


def check_subject_template(template: str) -> str:
    """The template, whitespace-normalized; raises SubjectTemplateError saying what is wrong."""
    if any(ch in template for ch in "\r\n"):
        raise SubjectTemplateError(_("A subject is one line; remove the line breaks."))
    template = " ".join(template.split())
    if len(template) > MAX_LENGTH:
        raise SubjectTemplateError(_("At most %(count)s characters.") % {"count": MAX_LENGTH})
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError:
        raise SubjectTemplateError(
            _("Unbalanced braces: use %(known)s, and write {{ or }} for a brace itself.")
            % {"known": _known()}
        ) from None
    for _literal, name, spec, conversion in fields:
        if name is None:
            continue
        if name not in PLACEHOLDERS or spec or conversion:
            shown = (
                "{"
                + name
                + (f"!{conversion}" if conversion else "")
                + (f":{spec}" if spec else "")
                + "}"
            )
            raise SubjectTemplateError(
                _("Unknown placeholder %(placeholder)s; you can use %(known)s.")
                % {"placeholder": shown, "known": _known()}
            )
    return template


def format_subject(template: str, *, name: str, day, count: int, topic: str) -> str:
    """The subject of one brief. Values are flattened to one line (a header cannot carry a line
    break); the active language formats the date."""
    values = {
        "name": name,
        "date": moments.day(day),  # the short form, as everywhere (config/moments.py)
        "count": str(count),
        "topic": topic,
    }
    values = {key: " ".join(str(value).split()) for key, value in values.items()}
    try:
        subject = template.format_map(values)
    except (KeyError, ValueError, IndexError, AttributeError):
        # Checked when saved; a template from before a placeholder was renamed falls back.
        subject = default_subject_template().format_map(values)
    return " ".join(subject.split())[: MAX_LENGTH * 2]


def default_subject_template() -> str:
    # Translators: keep the placeholders {name} and {date} as they are.
    return _("{name} — your brief for {date}")
