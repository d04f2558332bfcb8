"""Preferences (UI language, time zone) and the Simplified Chinese interface: the chosen
language renders every console page in Chinese and becomes the default language of briefs."""

from __future__ import annotations

import gettext
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from digests.runs import runner
from digests.subscriptions.service import create_subscription, request_manual_run
from inbox.models import UserPreference
from tests.factories import add_item

CATALOG = Path(settings.BASE_DIR) / "locale" / "zh_Hans" / "LC_MESSAGES"


@pytest.fixture
def console(client, alice):
    client.force_login(alice)
    return client


def choose(client, language="zh-hans", timezone="Europe/Berlin", **headers):
    return client.post(
        reverse("inbox:preferences"), {"language": language, "timezone": timezone}, **headers
    )


def test_the_page_shows_the_current_choices(console):
    body = console.get(reverse("inbox:preferences")).content.decode()
    assert '<option value="auto" selected>' in body
    assert '<option value="Europe/Berlin" selected>' in body
    assert "简体中文" in body  # each language named in itself


def test_choosing_chinese_switches_the_interface_and_says_so_in_chinese(console, alice):
    response = choose(console, timezone="Asia/Shanghai")
    assert response["Location"] == reverse("inbox:preferences")
    preference = UserPreference.objects.get(user=alice)
    assert (preference.locale_mode, preference.ui_locale) == ("manual", "zh-hans")
    assert preference.timezone == "Asia/Shanghai"
    body = console.get(response["Location"]).content.decode()
    assert '<html lang="zh-hans">' in body
    assert "偏好设置已保存。" in body
    assert "收件箱" in body


@pytest.mark.parametrize(
    ("language", "timezone", "field_error"),
    [
        ("zh-hans", "Mars/Olympus_Mons", "Mars/Olympus_Mons is not one of the available choices"),
        ("fr", "Europe/Paris", "fr is not one of the available choices"),
        ("", "Europe/Paris", "This field is required."),
    ],
)
def test_a_refused_choice_is_named_and_changes_nothing(
    console, alice, language, timezone, field_error
):
    response = choose(console, language=language, timezone=timezone)
    assert response.status_code == 200
    assert field_error in response.content.decode()
    preference = UserPreference.objects.get(user=alice)
    assert (preference.locale_mode, preference.timezone) == ("auto", "Europe/Berlin")


def test_automatic_follows_the_browser_and_records_its_language_for_briefs(console, alice):
    choose(console, language="zh-hans")
    choose(console, language="auto", HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9")
    preference = UserPreference.objects.get(user=alice)
    assert (preference.locale_mode, preference.ui_locale) == ("auto", "zh-hans")
    english = console.get(reverse("inbox:index"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="en">' in english


def test_the_ui_language_is_the_default_language_of_briefs(console, alice, now):
    choose(console, language="zh-hans")
    add_item("PostgreSQL 新闻", now=now)
    subscription = create_subscription(
        alice, {"name": "PG", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    assert runner.output_locale_for(subscription) == "zh-hans"
    run = runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)
    assert run.output_locale == "zh-hans"


def test_an_anonymous_visitor_gets_the_browsers_language(client, db):
    body = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert '<html lang="zh-hans">' in body
    assert "登录" in body


CHINESE_PAGES = {
    "inbox:index": (["收件箱", "未读", "已收藏", "不感兴趣", "标为已读", "为什么入选"], []),
    "inbox:run": (["本期", "来源", "标为已读"], []),
    "digests:list": (["订阅", "下次运行", "上次运行"], []),
    "digests:new": (["新建订阅", "从模板开始", "使用此模板", "每天…"], []),
    "digests:detail": (["立即运行", "预览", "编辑", "暂停", "删除", "运行记录"], []),
    "digests:edit": (["保存更改", "时区"], []),
    "inbox:preferences": (["偏好设置", "语言", "时区"], []),
    "inbox:tokens": (["API 令牌", "创建令牌"], []),
    "ingest:list": (["来源"], []),
}
ENGLISH_LEFTOVERS = ["Mark read", "Subscriptions", "Preferences", "Log out", "Run now", "Inbox"]


@pytest.mark.parametrize("page", list(CHINESE_PAGES))
def test_every_console_page_renders_in_chinese(console, alice, now, page):
    UserPreference.objects.filter(user=alice).update(locale_mode="manual", ui_locale="zh-hans")
    add_item("PostgreSQL 18", now=now)
    subscription = create_subscription(
        alice, {"name": "PG", "interests": ["PostgreSQL"], "cron": "0 8 * * *"}, now=now
    )
    run = runner.execute_run(request_manual_run(subscription, now=now).pk, now=now)
    args = {"inbox:run": [run.pk], "digests:detail": [subscription.pk]}.get(page)
    args = args or ({"digests:edit": [subscription.pk]}.get(page))
    body = console.get(reverse(page, args=args)).content.decode()
    assert '<html lang="zh-hans">' in body
    expected, _ = CHINESE_PAGES[page]
    for text in expected:
        assert text in body, text
    visible = strip_tags(body)
    for english in ENGLISH_LEFTOVERS:
        assert english not in visible, english


def strip_tags(body: str) -> str:
    """The text a reader sees: no tags, no attribute values, no scripts."""
    import re

    body = re.sub(r"<script.*?</script>", "", body, flags=re.S)
    return re.sub(r"<[^>]+>", " ", body)


def read_po(path: Path) -> list[tuple[str, str, bool]]:
    """(msgid, first msgstr, fuzzy) of every entry of a .po file; enough of the format for a
    check (multi-line strings are joined, plural forms read from msgstr[0])."""
    entries, current, fuzzy, field = [], {}, False, None
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if "msgid" in current:
                entries.append((current["msgid"], current.get("msgstr", ""), fuzzy))
            current, fuzzy, field = {}, False, None
        elif line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        elif line.startswith("#"):
            continue
        elif line.startswith(("msgid ", "msgstr ", "msgstr[0] ")):
            key, _, value = line.partition(" ")
            field = {"msgstr[0]": "msgstr"}.get(key, key)
            current[field] = value.strip()[1:-1]
        elif line.startswith(("msgid_plural", "msgstr[", "msgctxt")):
            field = None
        elif line.startswith('"') and field:
            current[field] += line.strip()[1:-1]
    return entries


def test_every_message_of_the_catalog_is_translated():
    entries = [e for e in read_po(CATALOG / "django.po") if e[0]]
    assert len(entries) > 300
    untranslated = [msgid for msgid, msgstr, _ in entries if not msgstr]
    fuzzy = [msgid for msgid, _, is_fuzzy in entries if is_fuzzy]
    assert untranslated == []
    assert fuzzy == []


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt is not installed")
def test_the_compiled_catalog_matches_the_po_file(tmp_path):
    compiled = tmp_path / "django.mo"
    subprocess.run(
        ["msgfmt", "--check", "-o", str(compiled), str(CATALOG / "django.po")], check=True
    )
    with open(compiled, "rb") as fresh, open(CATALOG / "django.mo", "rb") as committed:
        expected = gettext.GNUTranslations(fresh)._catalog
        assert gettext.GNUTranslations(committed)._catalog == expected
