from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _repair_fulltext_index(sender, using, **kwargs):
    # Altering the pool table on SQLite rebuilds it, dropping the full-text triggers.
    from ingest.pool.search_index import ensure_index

    ensure_index(using)


class IngestConfig(AppConfig):
    name = "ingest"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        post_migrate.connect(_repair_fulltext_index, sender=self)
        # Search sources are fetched at the start of each run that uses them (SPEC §6 step 2).
        from ingest.search.service import register_on_run_collector

        register_on_run_collector()
