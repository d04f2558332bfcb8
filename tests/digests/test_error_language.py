"""Subscription, schedule, run and token refusals are written in the language of the person who
asked (English and Simplified Chinese): the console in the user's UI language, the API by its
Accept-Language."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from digests.models import Subscription
from digests.schedules.next_run import ScheduleError, normalize_cron, validate_timezone
from digests.subscriptions.service import SubscriptionInputError, create_subscription
from inbox.models import ApiToken, UserPreference
from inbox.tokens import TokenError, issue_token

GOOD = {"name": "Databases", "interests": ["PostgreSQL"], "cron": "30 7 * * 1-5"}


def refused_fields(user, now, **changes) -> dict[str, str]:
    with pytest.raises(SubscriptionInputError) as caught:
        create_subscription(user, GOOD | changes, now=now)
    return caught.value.errors


@pytest.mark.parametrize(
    ("changes", "field", "english", "chinese"),
    [
        (
            {"cron": "0 8 * *"},
            "cron",
            "A cron expression has 5 fields (minute hour day month weekday) or 6 with seconds "
            "first; '0 8 * *' has 4.",
            "cron 表达式有 5 个字段（分 时 日 月 星期），或以秒开头的 6 个字段；"
            "'0 8 * *' 有 4 个。",
        ),
        (
            {"cron": "0 0 30 2 *"},
            "cron",
            "'0 0 30 2 *' never fires: no calendar date matches it (e.g. 30 February).",
            "'0 0 30 2 *' 永远不会触发：没有任何日期与之匹配（例如 2 月 30 日）。",
        ),
        (
            {"timezone": "Mars/Olympus"},
            "timezone",
            "'Mars/Olympus' is not an IANA time zone name (for example Europe/Berlin).",
            "'Mars/Olympus' 不是 IANA 时区名称（例如 Asia/Shanghai）。",
        ),
        (
            {"min_score": 140},
            "min_score",
            "Must be from 0 to 100; got 140.",
            "必须在 0 到 100 之间；收到的是 140。",
        ),
        (
            {"redelivery": "sometimes"},
            "redelivery",
            "Choose one of never, cooldown, on_content_update.",
            "请从以下选择一个：never, cooldown, on_content_update。",
        ),
        ({"name": " "}, "name", "A name is required.", "必须填写名称。"),
    ],
)
def test_subscription_refusals_follow_the_active_language(
    alice, now, changes, field, english, chinese
):
    assert refused_fields(alice, now, **changes)[field] == english
    with translation.override("zh-hans"):
        assert refused_fields(alice, now, **changes)[field] == chinese
    assert refused_fields(alice, now, **changes)[field] == english
    assert not Subscription.objects.exists()


def test_schedule_helpers_refuse_in_the_active_language():
    with translation.override("zh-hans"), pytest.raises(ScheduleError) as caught:
        normalize_cron("@fortnightly")
    assert caught.value.message.startswith("未知的宏 '@fortnightly'；请使用以下之一：@annually")
    with translation.override("zh-hans"), pytest.raises(ScheduleError) as caught:
        validate_timezone("UTC ")
    assert caught.value.message == "'UTC ' 前后有空格；时区应为 'UTC'。"


def test_token_refusals_follow_the_active_language(alice):
    with translation.override("zh-hans"), pytest.raises(TokenError) as caught:
        issue_token(alice, "   ")
    assert str(caught.value) == "请为令牌命名，例如将使用它的脚本名称。"
    assert not ApiToken.objects.exists()


def test_a_chinese_ui_user_reads_why_a_cron_expression_was_refused(client, alice, now):
    UserPreference.objects.filter(user=alice).update(locale_mode="manual", ui_locale="zh-hans")
    client.force_login(alice)

    response = client.post(
        reverse("digests:new"),
        {
            "name": "Databases",
            "interests": "PostgreSQL",
            "schedule_preset": "advanced",
            "cron": "0 0 30 2 *",
            "timezone": "UTC",
            "length": "standard",
        },
    )

    assert response.status_code == 200
    body = response.content.decode()
    assert "永远不会触发：没有任何日期与之匹配（例如 2 月 30 日）。" in body
    assert "never fires" not in body
    assert not Subscription.objects.exists()


def test_the_api_answers_in_the_language_the_client_asks_for(api):
    response = api.post(
        "/api/v1/subscriptions",
        GOOD | {"cron": "61 * * * *"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert response.status_code == 400
    message = response.json()["error"]["fields"]["cron"]
    # In our own words, in Chinese, naming the field and what it takes.
    assert "分钟字段不能是 61。它接受 0 到 59" in str(message)
    assert not Subscription.objects.exists()
