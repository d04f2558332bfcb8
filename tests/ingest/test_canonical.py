"""Test vectors for the one canonicalization function (SPEC §4.3).

These vectors are the contract: canonical URLs and their hashes are stored forever, so a vector
may only change together with a migration that rehashes the pool.
"""

from __future__ import annotations

import hashlib

import pytest

from ingest.canonical import InvalidURL, canonicalize_url, url_hash

VECTORS: list[tuple[str, str]] = [
    # --- scheme and host case ------------------------------------------------------------
    ("HTTP://Example.COM/Path", "http://example.com/Path"),
    ("HtTpS://WWW.Example.Org/CaseSensitivePath?Q=Kept", "https://www.example.org/CaseSensitivePath?Q=Kept"),
    # --- ports ------------------------------------------------------------------------------
    ("http://example.com:80/a", "http://example.com/a"),
    ("https://example.com:443/a", "https://example.com/a"),
    ("https://example.com:8443/a", "https://example.com:8443/a"),
    ("http://example.com:8080/", "http://example.com:8080/"),
    ("http://example.com:443/", "http://example.com:443/"),  # 443 is only default for https
    ("https://example.com:80/", "https://example.com:80/"),  # 80 is only default for http
    ("http://example.com:0080/a", "http://example.com/a"),
    # --- fragment ---------------------------------------------------------------------------
    ("https://example.com/post#comments", "https://example.com/post"),
    ("https://example.com/post?id=1#", "https://example.com/post?id=1"),
    ("https://example.com/#!/hashbang/route", "https://example.com/"),
    # --- duplicate slashes ------------------------------------------------------------------
    ("https://example.com//a///b//", "https://example.com/a/b/"),
    ("https://example.com///", "https://example.com/"),
    # --- tracking parameters ----------------------------------------------------------------
    (
        "https://example.com/a?utm_source=rss&utm_medium=feed&utm_campaign=x&utm_term=t"
        "&utm_content=c&utm_id=9&id=3",
        "https://example.com/a?id=3",
    ),
    ("https://example.com/a?UTM_Source=X&Utm_Medium=Y&page=2", "https://example.com/a?page=2"),
    ("https://example.com/a?utm_whatever_new=1", "https://example.com/a"),
    ("https://example.com/a?fbclid=IwAR0abc&gclid=EAIa&dclid=1&msclkid=2", "https://example.com/a"),
    ("https://example.com/a?spm=a2c4g.11186623&ref=homepage&REF=x", "https://example.com/a"),
    ("https://example.com/a?mc_cid=abc&mc_eid=def&q=rust", "https://example.com/a?q=rust"),
    ("https://example.com/a?_hsenc=p2&_hsmi=1&mkt_tok=x&igshid=y&yclid=z", "https://example.com/a"),
    ("https://example.com/a?pk_campaign=x&mtm_source=y&_ga=1&_gl=2", "https://example.com/a"),
    ("https://www.youtube.com/watch?v=dQw4w9WgXcQ&feature=share", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
    ("https://example.com/a?utm=1&reference=2&refresh=3", "https://example.com/a?reference=2&refresh=3&utm=1"),
    # --- query order, blanks, encoding ------------------------------------------------------
    ("https://example.com/s?q=rust&page=2&id=7", "https://example.com/s?id=7&page=2&q=rust"),
    ("https://example.com/s?b=2&a=1&a=0", "https://example.com/s?a=0&a=1&b=2"),
    ("https://example.com/s?a=1&a=1", "https://example.com/s?a=1&a=1"),
    ("https://example.com/s?z=1&Z=2&a=%41", "https://example.com/s?Z=2&a=A&z=1"),  # names keep case
    ("https://example.com/s?q=", "https://example.com/s?q="),
    ("https://example.com/s?flag&x=1", "https://example.com/s?flag=&x=1"),
    ("https://example.com/s?", "https://example.com/s"),
    ("https://example.com/s?&&id=1&", "https://example.com/s?id=1"),
    ("https://example.com/s?utm_source=x", "https://example.com/s"),
    ("https://example.com/s?q=a+b", "https://example.com/s?q=a%20b"),
    ("https://example.com/s?q=a%20b", "https://example.com/s?q=a%20b"),
    ("https://example.com/s?q=a%2Bb", "https://example.com/s?q=a%2Bb"),
    ("https://example.com/s?q=%7e%41", "https://example.com/s?q=~A"),
    ("https://example.com/s?q=%26%3D%23", "https://example.com/s?q=%26%3D%23"),
    ("https://example.com/s?url=https://a.example/b?c", "https://example.com/s?url=https://a.example/b%3Fc"),
    ("https://example.com/s?q=%e4%bd%a0", "https://example.com/s?q=%E4%BD%A0"),
    ("https://example.com/s?q=你好", "https://example.com/s?q=%E4%BD%A0%E5%A5%BD"),
    # Not UTF-8 (EUC-KR "한", "글"): the bytes survive, so different searches stay different.
    ("https://example.com/s?query=%C7%D1", "https://example.com/s?query=%C7%D1"),
    ("https://example.com/s?query=%B1%DB", "https://example.com/s?query=%B1%DB"),
    ("https://example.com/s?q=%zz", "https://example.com/s?q=%25zz"),
    # --- empty path -------------------------------------------------------------------------
    ("https://example.com", "https://example.com/"),
    ("https://example.com?id=1", "https://example.com/?id=1"),
    # --- dot segments (RFC 3986 §5.2.4) ---------------------------------------------------
    ("https://example.com/a/./b/../c", "https://example.com/a/c"),
    ("https://example.com/a/b/..", "https://example.com/a/"),
    ("https://example.com/a/b/.", "https://example.com/a/b/"),
    ("https://example.com/../../a", "https://example.com/a"),
    ("https://example.com/a/%2e%2E/b", "https://example.com/b"),
    ("https://example.com/a..b/...", "https://example.com/a..b/..."),
    # --- host: IDN, trailing dot, IP literals ---------------------------------------------
    ("https://bücher.de/katalog", "https://xn--bcher-kva.de/katalog"),
    ("https://BÜCHER.DE/", "https://xn--bcher-kva.de/"),
    ("https://xn--bcher-kva.de/", "https://xn--bcher-kva.de/"),
    ("https://例え.テスト/パス", "https://xn--r8jz45g.xn--zckzah/%E3%83%91%E3%82%B9"),
    ("https://ＥＸＡＭＰＬＥ.com/a", "https://example.com/a"),  # full-width host letters
    ("https://例え。テスト/", "https://xn--r8jz45g.xn--zckzah/"),  # ideographic full stop
    ("https://example.com./a", "https://example.com/a"),
    ("https://Example.COM.:8443/a", "https://example.com:8443/a"),
    ("http://[::1]/a", "http://[::1]/a"),
    ("http://[2001:DB8::1]:8080/a", "http://[2001:db8::1]:8080/a"),
    ("http://[2001:db8::1]:80/", "http://[2001:db8::1]/"),
    ("http://127.0.0.1:80/status", "http://127.0.0.1/status"),
    ("http://user:secret@example.com/a", "http://example.com/a"),
    # --- path percent-encoding (RFC 3986 §6.2.2) ------------------------------------------
    ("https://example.com/%7euser/%41%62%2D%5F", "https://example.com/~user/Ab-_"),
    ("https://example.com/a%2fb", "https://example.com/a%2Fb"),  # %2F is data, not a "/"
    ("https://example.com/a%2F%2Fb", "https://example.com/a%2F%2Fb"),
    ("https://example.com/100%25", "https://example.com/100%25"),
    ("https://example.com/a%2541", "https://example.com/a%2541"),
    ("https://example.com/a%3fb%23c", "https://example.com/a%3Fb%23c"),
    ("https://example.com/50%off", "https://example.com/50%25off"),
    ("https://example.com/a b", "https://example.com/a%20b"),
    ("https://example.com/a;b=c,d:e@f!$&'()*+", "https://example.com/a;b=c,d:e@f!$&'()*+"),
    ("https://example.com/%21", "https://example.com/%21"),
    # --- unicode path ---------------------------------------------------------------------
    ("https://example.com/你好", "https://example.com/%E4%BD%A0%E5%A5%BD"),
    ("https://example.com/%e4%bd%a0%E5%A5%BD", "https://example.com/%E4%BD%A0%E5%A5%BD"),
    ("https://ko.example.com/뉴스/기사", "https://ko.example.com/%EB%89%B4%EC%8A%A4/%EA%B8%B0%EC%82%AC"),
    ("https://example.com/café", "https://example.com/caf%C3%A9"),
    # --- surrounding whitespace ---------------------------------------------------------
    ("  https://example.com/a \n", "https://example.com/a"),
    # --- everything at once -------------------------------------------------------------
    (
        "HTTPS://News.Example.COM:443//2024/./01/../02/story%7e1?utm_source=tw&b=2&a=&fbclid=x#top",
        "https://news.example.com/2024/02/story~1?a=&b=2",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("raw", "expected"), VECTORS, ids=[raw for raw, _ in VECTORS])
def test_vector(raw: str, expected: str) -> None:
    assert canonicalize_url(raw) == expected


@pytest.mark.parametrize("raw", [raw for raw, _ in VECTORS])
def test_idempotent(raw: str) -> None:
    once = canonicalize_url(raw)
    assert canonicalize_url(once) == once


def test_vectors_are_many_and_unique() -> None:
    assert len(VECTORS) >= 45
    assert len({raw for raw, _ in VECTORS}) == len(VECTORS)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("https://example.com/a?x=1&y=2", "https://EXAMPLE.com:443/a?y=2&x=1&utm_source=z#f"),
        ("https://example.com/%7Euser", "https://example.com/~user"),
        ("https://bücher.de/", "https://xn--bcher-kva.de"),
        ("https://example.com/a/b/../c", "https://example.com//a/c"),
    ],
)
def test_equivalent_urls_share_one_canonical_form(first: str, second: str) -> None:
    assert canonicalize_url(first) == canonicalize_url(second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("https://example.com/a%2Fb", "https://example.com/a/b"),
        ("https://example.com/a/", "https://example.com/a"),
        ("https://example.com/s?query=%C7%D1", "https://example.com/s?query=%B1%DB"),
        ("https://example.com/s?q=a%2Bb", "https://example.com/s?q=a+b"),
        ("https://example.com/Path", "https://example.com/path"),
        ("http://example.com/", "https://example.com/"),
        ("https://example.com/?v=1", "https://example.com/?v=2"),
    ],
)
def test_different_urls_stay_different(first: str, second: str) -> None:
    assert canonicalize_url(first) != canonicalize_url(second)


@pytest.mark.parametrize(
    "raw",
    [
        "ftp://example.com/file",
        "javascript:alert(1)",
        "mailto:someone@example.com",
        "data:text/html,<script>alert(1)</script>",
        "file:///etc/passwd",
        "feed://example.com/rss",
        "//example.com/protocol-relative",
        "/relative/path",
        "example.com/no-scheme",
        "",
        "   ",
        "http://",
        "https:///path-only",
        "http://:80/",
        "http://[::1/unbalanced",
        "http://example.com:99999/",
        "http://example.com:port/",
        "http://example.com/\ud800",
    ],
)
def test_refuses_non_http_and_hostless_urls(raw: str) -> None:
    with pytest.raises(InvalidURL):
        canonicalize_url(raw)


def test_refuses_none() -> None:
    with pytest.raises(InvalidURL):
        canonicalize_url(None)  # type: ignore[arg-type]


def test_invalid_url_is_a_value_error() -> None:
    assert issubclass(InvalidURL, ValueError)


@pytest.mark.parametrize("raw", [VECTORS[0][1], VECTORS[-1][1], "https://example.com/你好"])
def test_url_hash_is_sha256_hex_of_the_canonical_url(raw: str) -> None:
    canonical = canonicalize_url(raw)
    digest = url_hash(canonical)
    assert digest == hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    assert len(digest) == 64
    assert digest == digest.lower()


def test_url_hash_known_value() -> None:
    # Pinned: a change here means every stored canonical_url_hash changes.
    assert url_hash("https://example.com/") == (
        "0f115db062b7c0dd030b16878c99dea5c354b49dc37b38eb8846179c7783e9d7"
    )


def test_url_hash_of_equivalent_inputs_matches() -> None:
    assert url_hash(canonicalize_url("HTTPS://Example.com:443/?utm_source=x")) == url_hash(
        canonicalize_url("https://example.com")
    )
