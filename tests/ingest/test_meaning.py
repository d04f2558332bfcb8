"""ingest/text/meaning.py: closeness in meaning from the model inside the wheel, kept per item."""

from __future__ import annotations

import pytest

from ingest.text import meaning


@pytest.fixture(autouse=True)
def _no_kept_vectors():
    meaning._vectors.clear()
    yield
    meaning._vectors.clear()


def test_a_text_about_the_topic_in_other_words_is_closer_than_one_about_something_else():
    close = meaning.closeness(
        "open-source database releases",
        [
            (1, meaning.item_text("PostgreSQL 18 is out", "Faster SQL queries and indexes.")),
            (2, meaning.item_text("Autumn hiking boots", "Waterproof leather, new colours.")),
        ],
    )
    assert close[0] > close[1] + 0.1
    assert all(-1.0 <= value <= 1.0 for value in close)


def test_the_model_loads_from_the_wheel_without_the_network(monkeypatch):
    import requests

    def no_network(*args, **kwargs):
        raise AssertionError("the model asked the network for a file")

    monkeypatch.setattr(requests, "get", no_network)
    meaning._model.cache_clear()
    try:
        assert meaning.closeness("rust", [(1, "The Rust programming language")])[0] > 0.2
    finally:
        meaning._model.cache_clear()


def test_an_item_seen_before_is_not_embedded_again_but_a_changed_text_is(monkeypatch):
    embedded: list[list[str]] = []
    real = meaning._embedded

    def counting(texts):
        embedded.append(list(texts))
        return real(texts)

    monkeypatch.setattr(meaning, "_embedded", counting)
    meaning.closeness("gardening", [(1, "Roses in winter"), (2, "Tomato seeds")])
    meaning.closeness("cooking", [(1, "Roses in winter"), (2, "Tomato seeds, edited")])
    items_embedded = [texts for texts in embedded if texts not in (["gardening"], ["cooking"])]
    assert items_embedded == [["Roses in winter", "Tomato seeds"], ["Tomato seeds, edited"]]


def test_the_kept_vectors_stay_under_their_bound(monkeypatch):
    monkeypatch.setattr(meaning, "VECTOR_CACHE", 3)
    first = meaning.closeness("music", [(n, f"Album review number {n}") for n in range(3)])
    again = meaning.closeness("music", [(n, f"Album review number {n}") for n in range(2, 5)])
    assert len(meaning._vectors) <= 3
    assert again[0] == pytest.approx(first[2], abs=1e-3)  # the same text, the same closeness


def test_no_topic_or_no_items_is_no_closeness():
    assert meaning.closeness("  ", [(1, "Anything")]) == [0.0]
    assert meaning.closeness("rust", []) == []


def test_the_text_read_is_the_title_and_the_start_of_the_summary():
    text = meaning.item_text("Title", "word " * 1000)
    assert text.startswith("Title\nword") and len(text) == meaning.MEANING_TEXT_CHARS
    assert meaning.item_text(None, None) == "\n"


def test_a_text_with_no_tokens_is_no_closeness_and_spoils_no_other():
    close = meaning.closeness("rust", [(1, ""), (2, "The Rust programming language")])
    assert close[0] == 0.0
    assert close[1] > 0.2


def test_odd_input_gives_numbers_in_bounded_time():
    odd = ["\x00\x01\x1f", "🙂" * 50, "a" * 20_000, "‮rtl‬", "<script>x</script>"]
    for topic in odd:
        close = meaning.closeness(topic, [(n, text) for n, text in enumerate(odd)])
        assert all(-1.0 <= value <= 1.0 for value in close)


def test_threads_at_once_get_the_same_answers():
    from concurrent.futures import ThreadPoolExecutor

    items = [(n, f"Story number {n} about databases") for n in range(200)]
    alone = meaning.closeness("databases", items)
    meaning._vectors.clear()
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: meaning.closeness("databases", items), range(8)))
    for answer in answers:
        assert answer == pytest.approx(alone, abs=1e-3)
