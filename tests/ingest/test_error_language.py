"""Refusals from the fetch policy, source validation, OPML import and packs are written in the
language of the person who asked: the console's UI language (English and Simplified Chinese),
English for background refreshes."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from inbox.models import UserPreference
from ingest.fetching import fetch
from ingest.library.opml import OPMLError, RefusedURL, check_feed_url, parse_opml
from ingest.library.packs import PackError, get_pack
from ingest.library.sources import SourceError, ensure_feed_source
from ingest.models import Source, UserSource


def refusal(call) -> str:
    with pytest.raises((fetch.FetchError, SourceError, OPMLError, PackError, RefusedURL)) as caught:
        call()
    return getattr(caught.value, "message", None) or str(caught.value)


@pytest.mark.parametrize(
    ("call", "english", "chinese"),
    [
        (
            lambda: fetch.parse_target("ftp://files.example/feed"),
            "Only http and https addresses can be fetched, not 'ftp'.",
            "只能抓取 http 和 https 地址，不能抓取 'ftp'。",
        ),
        (
            lambda: fetch.parse_target("https://news.example:22/feed"),
            "Port 22 is not allowed; Tidings fetches from ports 80, 443 and 8000-8999.",
            "不允许端口 22；Tidings 只从端口 80、443 和 8000-8999 抓取。",
        ),
        (
            lambda: fetch.resolve_checked(fetch.parse_target("http://[::ffff:127.0.0.1]/")),
            "The host '::ffff:127.0.0.1' resolves to a loopback (embedded in IPv6) address "
            "(::ffff:7f00:1), which Tidings never fetches from.",
            "主机 '::ffff:127.0.0.1' 解析到回环（嵌入在 IPv6 中）地址（::ffff:7f00:1），"
            "Tidings 从不从这类地址抓取。",
        ),
        (
            lambda: fetch.resolve_checked(fetch.parse_target("http://169.254.169.254/latest")),
            "The host '169.254.169.254' resolves to a link-local address (169.254.169.254), "
            "which Tidings never fetches from.",
            "主机 '169.254.169.254' 解析到链路本地地址（169.254.169.254），"
            "Tidings 从不从这类地址抓取。",
        ),
        (
            lambda: parse_opml(b"<rss><channel/></rss>"),
            "The file is XML but not OPML: its root element is <rss>, not <opml>. It looks "
            "like a feed: add its address as a source instead.",
            "文件是 XML 但不是 OPML：其根元素是 <rss>，而不是 <opml>。"
            " 它看起来是一个订阅源：请改为将其地址添加为来源。",
        ),
        (
            lambda: check_feed_url("http://10.1.2.3/feed"),
            "The host '10.1.2.3' is a private address, which Tidings never fetches from.",
            "主机 '10.1.2.3' 是私有网络地址，Tidings 从不从这类地址抓取。",
        ),
        (
            lambda: get_pack("sports"),
            "Unknown source pack 'sports'.",
            "未知的来源包 'sports'。",
        ),
    ],
)
def test_refusals_are_written_in_the_active_language(call, english, chinese):
    assert refusal(call).startswith(english)
    with translation.override("zh-hans"):
        assert refusal(call).startswith(chinese)
    # The language is chosen per call, not remembered.
    assert refusal(call).startswith(english)


def test_an_empty_source_address_is_refused_in_chinese(db, now):
    with translation.override("zh-hans"):
        message = refusal(lambda: ensure_feed_source("  ", now=now))
    assert message == "请输入订阅源的地址，或提供订阅源的网站的地址。"


def test_a_chinese_ui_user_adding_a_refused_address_reads_why_in_chinese(client, alice, now):
    UserPreference.objects.filter(user=alice).update(locale_mode="manual", ui_locale="zh-hans")
    client.force_login(alice)

    response = client.post(reverse("ingest:list"), {"url": "http://127.0.0.1:8080/feed.xml"})

    body = response.content.decode()
    assert response.status_code == 200
    assert "主机 &#x27;127.0.0.1&#x27; 解析到回环地址（127.0.0.1）" in body
    assert "which Tidings never fetches from" not in body
    assert not Source.objects.exists()
    assert not UserSource.objects.exists()
