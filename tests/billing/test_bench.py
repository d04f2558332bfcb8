"""The `billing` benchmark's smoke size runs the same code path in seconds and finds nothing
charged twice, no negative balance and every balance equal to its ledger."""

from __future__ import annotations

import pytest
from django.conf import settings

from tests.bench import billing


@pytest.mark.django_db(transaction=True)
def test_the_smoke_benchmark_charges_every_run_once_and_keeps_balances_whole():
    result = billing.run(size="smoke")
    assert result["runs"] == 100
    assert result["completions_started"] + result["refused_by_budget"] == 100
    assert result["ledger_rows_written"] > 0
    assert (
        result["double_charges"],
        result["double_refunds"],
        result["negative_balances"],
        result["unbalanced_accounts"],
    ) == (0, 0, 0, 0)
    assert settings.FULLTEXT_TOP_K == 0  # the benchmark's setting did not leak
    assert billing.describe(result)[-1].startswith("  ratio")
