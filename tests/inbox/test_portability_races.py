"""Races that matter for portability, on PostgreSQL with real threads: one transfer code
redeemed by two requests at once gives one export; one document imported twice at once is
written once."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from digests.models import Run, Subscription
from inbox.models import ImportRecord
from inbox.portability import transfer
from inbox.portability.export import stream_export
from inbox.portability.importing import import_export
from tests.inbox.portability_data import populate
from tests.threads import at_once


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_code_redeemed_four_times_at_once_gives_one_export(alice):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (SQLite serializes them whole)")
    now = timezone.now()
    populate(alice, now=now)
    _row, code = transfer.issue_code(alice, "everything", now=now)

    def redeem(_job):
        _used, blocks = transfer.redeem(code, now=now)
        return b"".join(blocks)

    outcomes = at_once(redeem, range(4))
    exports = [o for o in outcomes if isinstance(o, bytes)]
    refused = [o for o in outcomes if isinstance(o, transfer.SpentCode)]
    assert len(exports) == 1 and len(refused) == 3, outcomes


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_document_imported_three_times_at_once_is_written_once(alice, bob):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (SQLite serializes them whole)")
    now = timezone.now()
    populate(alice, now=now)
    document = "".join(stream_export(alice, now=now)).encode()

    outcomes = at_once(lambda _job: import_export(bob, document, now=now), range(3))
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert sorted(o.already_imported for o in outcomes) == [False, True, True]
    assert Subscription.objects.filter(owner=bob).count() == 2
    assert Run.objects.filter(user=bob).count() == 4
    assert ImportRecord.objects.filter(user=bob).count() == 1
