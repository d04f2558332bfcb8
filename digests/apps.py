from django.apps import AppConfig


class DigestsConfig(AppConfig):
    name = "digests"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from digests.subscriptions import source_sets

        # A deleted source changes the source-set hash of everyone who had it (seed 002).
        source_sets.connect()
