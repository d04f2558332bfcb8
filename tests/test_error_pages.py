"""The 403, 404 and 500 pages are the product's own, in the reader's language, with DEBUG off
and under the Content-Security-Policy: no inline script or style, no bare "Not Found"."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory
from django.utils import translation

from config.api import errors
from inbox.models import UserPreference

pytestmark = pytest.mark.django_db

TITLES = {
    "en": {404: "Page not found", 403: "Not allowed", 500: "Something went wrong"},
    "zh-hans": {404: "页面不存在", 403: "无权访问", 500: "出错了"},
}


def no_inline_code(html: str) -> None:
    assert "<script>" not in html and not re.search(r"<script(?![^>]*\bsrc=)", html)
    assert "<style" not in html and " style=" not in html and " on" + "click=" not in html


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_an_unknown_address_answers_the_branded_404(client, alice, settings, language):
    settings.DEBUG = False
    UserPreference.objects.filter(user=alice).update(
        ui_locale=language, locale_mode=UserPreference.LocaleMode.MANUAL
    )
    client.force_login(alice)
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    assert TITLES[language][404] in html
    assert 'href="/inbox/"' in html  # the console's own header: the reader can go on from here
    assert "Content-Security-Policy" in response.headers
    no_inline_code(html)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_403_and_500_pages_are_branded_in_the_readers_language(db, language):
    request = RequestFactory().get("/somewhere/")
    request.user = type("Anonymous", (), {"is_authenticated": False})()
    with translation.override(language):
        forbidden = errors.permission_denied(request, PermissionDenied())
        broken = errors.server_error(request)
    assert forbidden.status_code == 403 and broken.status_code == 500
    for code, response in ((403, forbidden), (500, broken)):
        html = response.content.decode()
        assert TITLES[language][code] in html, code
        assert f'<html lang="{language}">' in html
        assert "css/tidings.css" in html
        no_inline_code(html)


def test_the_500_page_needs_no_database(db, django_assert_num_queries):
    request = RequestFactory().get("/somewhere/")
    with django_assert_num_queries(0):
        assert errors.server_error(request).status_code == 500
