"""The folders migration (ingest 0013) keeps every library entry as it was, in no folder."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ingest.models import UserSource

BEFORE = [("ingest", "0012_newsletters")]


@pytest.mark.django_db(transaction=True)
def test_library_entries_survive_the_folders_migration(alice):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        source = old.get_model("ingest", "Source").objects.create(
            type="feed",
            config={"url": "https://a.example/"},
            config_hash="h",
            url="https://a.example/",
        )
        old.get_model("ingest", "UserSource").objects.create(
            user_id=alice.pk, source_id=source.pk, display_name="Kept as named"
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    entry = UserSource.objects.get(user=alice)
    assert (entry.display_name, entry.source.url, entry.folder) == (
        "Kept as named",
        "https://a.example/",
        None,
    )
