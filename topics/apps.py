from django.apps import AppConfig


class TopicsConfig(AppConfig):
    name = "topics"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from ingest.pool.licenses import license_tiers_changed

        # Items that turned restricted leave every cached public page at once.
        license_tiers_changed.connect(_retire_public_pages, dispatch_uid="topics-license-tiers")


def _retire_public_pages(sender, **kwargs):
    """Some items became restricted (an admin changed a source's license tier): editions drop
    them by themselves (EditionItem's manager); a narrative written before may tell of one,
    so the narratives of editions holding a restricted item are withdrawn; and every cached
    public page is retired."""
    from ingest.models import LicenseTier
    from topics import page_cache
    from topics.models import Edition

    Edition.objects.filter(items__item__license_tier=LicenseTier.RESTRICTED).exclude(
        narrative_md=""
    ).update(narrative_md="", narrative_generator="")
    page_cache.invalidate()
