"""The `topics` benchmark's smoke size runs in the suite (same code path, seconds): the labelled
plain-language topics keep finding relevant items with and without the model."""

from __future__ import annotations

import pytest

from tests.bench import topics


@pytest.mark.django_db(transaction=True)
def test_plain_language_topics_find_relevant_items_with_and_without_a_model():
    result = topics.run(size="smoke")
    overall = result["overall"]
    assert overall["topics"] == 34  # the demo and multilingual pools' topics
    assert result["model_requests"] == 34  # one model call per topic, through the cache
    # As one long phrase (before), almost nothing was found; the words find most topics,
    # the (canned) model answers all of them.
    assert overall["sentence"]["found"] <= 3
    assert overall["words"]["found"] >= 25
    assert overall["model"]["found"] == 34
    assert overall["words"]["precision"] >= 0.6
    assert result["ratio"] >= 5
    assert [line for line in topics.describe(result) if "ratio" in line]
