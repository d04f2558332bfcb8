"""The Content-Security-Policy header on every answer, and no template that needs an exception
to it (inline script, event-handler attributes, style attributes). The browser tests
(tests/browser/test_csp.py) load the pages and check that nothing is reported."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from config.csp import policy_header

TEMPLATE_DIRS = [Path(settings.BASE_DIR) / "templates"] + [
    path for path in Path(settings.BASE_DIR).glob("*/templates") if ".venv" not in str(path)
]
# Emails are not pages: mail clients need inline styles and run no script.
NOT_PAGES = {"email"}
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/(?:ld\+)?json)[^>]*>", re.I)
HANDLER = re.compile(r"\son[a-z]+\s*=", re.I)
STYLE_ATTRIBUTE = re.compile(r"\sstyle\s*=", re.I)


def page_templates():
    for directory in TEMPLATE_DIRS:
        for path in directory.rglob("*.html"):
            if not NOT_PAGES & set(path.parts):
                yield path


def test_the_policy_refuses_inline_script_and_framing():
    header = policy_header()
    assert "script-src 'self';" in header and "unsafe" not in header
    assert "frame-ancestors 'none'" in header and "object-src 'none'" in header
    assert "base-uri 'none'" in header


@pytest.mark.parametrize(
    "path", ["/", "/topics", "/accounts/login/", "/admin/login/", "/api/docs/", "/api/v1/me"]
)
def test_every_answer_carries_the_policy(client, db, path):
    response = client.get(path)
    assert response["Content-Security-Policy"] == policy_header()


def test_cached_public_pages_carry_it_too(client, db):
    client.get("/topics")
    again = client.get("/topics")
    assert again["Content-Security-Policy"] == policy_header()


def test_no_page_template_needs_an_inline_script_handler_or_style_attribute():
    found = []
    for path in page_templates():
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"{% comment %}.*?{% endcomment %}", "", text, flags=re.S)
        for pattern in (INLINE_SCRIPT, HANDLER, STYLE_ATTRIBUTE):
            found += [
                f"{path.relative_to(settings.BASE_DIR)}: {m.group()}"
                for m in pattern.finditer(text)
            ]
    assert found == []
