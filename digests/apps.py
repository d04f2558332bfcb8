from django.apps import AppConfig


class DigestsConfig(AppConfig):
    name = "digests"
    default_auto_field = "django.db.models.BigAutoField"
