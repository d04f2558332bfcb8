"""The subject and the text part of an email are plain text: never HTML-escaped (once or
twice); only the HTML part escapes. Through a real SMTP server on loopback."""

from __future__ import annotations

from tests.digests.delivery_helpers import add_items, run_and_send, subscribe

NAME = 'Climate & energy <weekly> "news" it\'s'


def test_subject_and_text_part_keep_ampersands_brackets_and_quotes(alice, now, smtp_server):
    add_items(now, 'PostgreSQL & "friends" <tips>')
    run_and_send(subscribe(alice, now, name=NAME), now)
    message = smtp_server.messages[0]
    assert str(message["Subject"]).strip().startswith(NAME)
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    assert NAME in text
    assert 'PostgreSQL & "friends" <tips>' in text
    assert "&amp;" not in text and "&lt;" not in text and "&#x27;" not in text
    # The HTML part escapes exactly once.
    assert "Climate &amp; energy &lt;weekly&gt;" in html
    assert "&amp;amp;" not in html


def test_the_date_in_both_parts_is_the_products_one_format_in_the_readers_language(
    alice, now, smtp_server
):
    from django.utils import translation

    from config.moments import day
    from inbox.models import UserPreference

    UserPreference.objects.filter(user=alice).update(ui_locale="zh-hans", locale_mode="manual")
    add_items(now, "PostgreSQL 18 ships")
    run_and_send(subscribe(alice, now, name="Databases"), now)
    message = smtp_server.messages[0]
    with translation.override("zh-hans"):
        expected = day(now.date(), style="long")
    assert expected.startswith("2026年11月20日")
    assert expected in message.get_body(("plain",)).get_content()
    assert expected in message.get_body(("html",)).get_content()
