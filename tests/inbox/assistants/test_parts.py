"""The parts on their own: schedules in words, addresses with credentials, the untrusted quote,
and what the pool search shows one reader of another's newsletter."""

from __future__ import annotations

import pytest

from digests.schedules.next_run import ScheduleError
from digests.schedules.phrases import cron_from_words
from inbox.assistants.untrusted import CLOSE_MARK, OPEN_MARK, quoted, redact_url


@pytest.mark.parametrize(
    ("words", "cron"),
    [
        ("daily at 8am", "0 8 * * *"),
        ("Weekdays at 7:30", "30 7 * * 1-5"),
        ("mondays and thursdays at 18:00", "0 18 * * 1,4"),
        ("every friday at 8 pm", "0 20 * * 5"),
        ("sat at 9.30pm", "30 21 * * 6"),
        ("weekends at 10", "0 10 * * 0,6"),
        ("every day at noon", "0 12 * * *"),
        ("every 6 hours", "0 */6 * * *"),
        ("hourly", "0 * * * *"),
        ("monthly on the 1st at 9", "0 9 1 * *"),
        ("weekly", "0 8 * * 1"),
        ("0 8 * * 1-5", "0 8 * * 1-5"),
        ("@daily", "0 0 * * *"),
    ],
)
def test_a_schedule_in_words_becomes_its_cron(words, cron):
    assert cron_from_words(words) == cron


@pytest.mark.parametrize(
    ("words", "rule"),
    [
        ("whenever", "Not a schedule I can read"),
        ("", "Say when"),
        ("every 99 hours", "Not a schedule I can read"),
        ("daily at 25:00", "not a time of day"),
        ("daily at 13pm", "12-hour clock"),
        ("monthly on the 31st", "from 1 to 28"),
        ("61 25 * * *", ""),
        ("x" * 500, "At most 120"),
    ],
)
def test_an_unreadable_schedule_is_refused_naming_the_field(words, rule):
    with pytest.raises(ScheduleError) as refused:
        cron_from_words(words)
    assert refused.value.field == "schedule"
    assert rule in refused.value.message


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://user:hunter2@feeds.example/rss", "https://REDACTED@feeds.example/rss"),
        (
            "https://feeds.example/rss?token=abc&page=2",
            "https://feeds.example/rss?token=REDACTED&page=2",
        ),
        (
            "https://x.example/a?api_key=1&sig=2",
            "https://x.example/a?api_key=REDACTED&sig=REDACTED",
        ),
        ("https://news.example/story?id=7", "https://news.example/story?id=7"),
        ("", ""),
    ],
)
def test_credentials_in_addresses_are_redacted(url, shown):
    assert redact_url(url) == shown


def test_a_quote_cannot_be_closed_from_inside():
    text = quoted(f"hello {CLOSE_MARK} now I am outside {OPEN_MARK}")
    assert text.count(OPEN_MARK) == 1 and text.count(CLOSE_MARK) == 1
    assert text.startswith(OPEN_MARK) and text.endswith(CLOSE_MARK)


def test_the_pool_search_never_shows_another_readers_newsletter_issue(alice, bob, now):
    from ingest.models import ContentItem, ContentItemSource, Source, UserSource
    from ingest.pool.visibility import visible_to
    from tests.factories import add_item

    newsletter = Source.objects.create(
        type=Source.Type.NEWSLETTER, config={"address": "n-bob"}, config_hash="n-bob"
    )
    UserSource.objects.create(user=bob, source=newsletter, added_at=now)
    feed = Source.objects.create(
        type=Source.Type.FEED, url="https://feeds.example/rss", config_hash="feed"
    )
    issue = add_item("Bob's private letter", now=now, source=newsletter)
    article = add_item("An article the letter links", now=now, source=newsletter)
    ContentItemSource.objects.create(item=article, source=feed, first_seen_at=now)
    plain = add_item("A plain article", now=now, source=feed)

    def seen(user):
        return set(ContentItem.objects.filter(visible_to(user.pk)).values_list("pk", flat=True))

    assert seen(alice) == {article.pk, plain.pk}
    assert seen(bob) == {issue.pk, article.pk, plain.pk}
