from django.apps import AppConfig


class WatchesConfig(AppConfig):
    """Text-change watches and the Apprise channel: an app of its own (its models, migrations,
    templates) nested in digests, under the label `watches` it was made with."""

    name = "digests.textwatch"
    label = "watches"
    default_auto_field = "django.db.models.BigAutoField"
