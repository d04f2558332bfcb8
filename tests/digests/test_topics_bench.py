"""The `topics` benchmark's smoke size runs in the suite (same code path, seconds): the labelled
plain-language topics keep finding relevant items with and without the model."""

from __future__ import annotations

import pytest

from tests.bench import topics


@pytest.mark.django_db(transaction=True)
def test_plain_language_topics_find_relevant_items_with_and_without_a_model():
    result = topics.run(size="smoke")
    assert all(result["checks"].values()), result["checks"]
    # The demo and multilingual pools are whole at every size: 34 topics.
    demo, multilingual = result["by_pool"]["demo"], result["by_pool"]["multilingual"]
    assert demo["topics"] + multilingual["topics"] == 34
    # The extracted words find most topics (more than the topic kept as one phrase, a check
    # of the benchmark's), the (canned) model answers all of them.
    assert demo["words"]["found"] + multilingual["words"]["found"] >= 25
    assert demo["model"]["found"] + multilingual["model"]["found"] == 34
    assert result["overall"]["words"]["precision"] >= 0.6
    assert [line for line in topics.describe(result) if "ratio" in line]
