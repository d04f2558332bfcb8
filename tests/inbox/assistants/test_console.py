"""Preferences → Connect an assistant: the endpoint, a token read-only by default and shown once,
the client snippets carrying it; a refused scope says why and creates nothing."""

from __future__ import annotations

from django.urls import reverse

from inbox.models import ApiToken


def test_the_page_shows_the_endpoint_and_snippets_without_a_token(client, alice, settings):
    settings.SITE_URL = "https://tidings.example"
    client.force_login(alice)
    page = client.get(reverse("inbox:assistant")).content.decode()
    assert "https://tidings.example/mcp" in page
    assert "claude mcp add --transport http tidings https://tidings.example/mcp" in page
    assert "&lt;your token&gt;" in page
    assert 'value="read" checked' in page


def test_a_new_token_is_read_only_by_default_and_appears_in_every_snippet(client, alice):
    client.force_login(alice)
    page = client.post(reverse("inbox:assistant"), {"name": "Claude"}).content.decode()
    token = ApiToken.objects.get(user=alice)
    assert (token.name, token.scope) == ("Claude", ApiToken.Scope.READ)
    clear = page.split("data-select-on-click")[0].rsplit('value="', 1)[1].split('"')[0]
    assert clear.startswith(f"tid_{token.prefix}_")
    assert page.count(clear) >= 4  # the box and the three snippets
    again = client.get(reverse("inbox:assistant")).content.decode()
    assert clear not in again


def test_a_read_and_write_token_when_asked_and_a_strange_scope_refused(client, alice):
    client.force_login(alice)
    client.post(reverse("inbox:assistant"), {"name": "Cursor", "scope": "write"})
    assert ApiToken.objects.get(user=alice).scope == ApiToken.Scope.WRITE
    refused = client.post(reverse("inbox:assistant"), {"name": "Evil", "scope": "reader"})
    assert "scope" in refused.content.decode().lower()
    assert ApiToken.objects.filter(user=alice).count() == 1


def test_preferences_link_to_it_and_strangers_are_sent_to_log_in(client, alice):
    assert client.get(reverse("inbox:assistant")).status_code == 302
    client.force_login(alice)
    assert reverse("inbox:assistant") in client.get(reverse("inbox:preferences")).content.decode()
