"""`/sitemap.xml` (django.contrib.sitemaps): public topics and their editions only, with
lastmod; URLs are absolute on SITE_URL, whatever Host the request came with."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.db.models import Exists, OuterRef
from django.urls import reverse

from topics.models import Edition, EditionItem, Topic


class _OnSiteURL(Sitemap):
    @property
    def protocol(self) -> str:
        return urlsplit(settings.SITE_URL).scheme or "https"

    def get_domain(self, site=None) -> str:
        return urlsplit(settings.SITE_URL).netloc


class StaticPagesSitemap(_OnSiteURL):
    changefreq = "daily"

    def items(self):
        return ["home", "topics:list"]

    def location(self, name: str) -> str:
        return reverse(name)


class TopicSitemap(_OnSiteURL):
    changefreq = "daily"

    def items(self):
        return Topic.objects.listed().order_by("id")

    def lastmod(self, topic: Topic):
        return topic.last_edition_at or topic.updated_at


class EditionSitemap(_OnSiteURL):
    changefreq = "never"

    def items(self):
        return (
            Edition.objects.filter(
                topic__in=Topic.objects.listed(),
                status=Edition.Status.SUCCEEDED,
                published_at__isnull=False,
            )
            # An edition left with nothing public (every item restricted since) is not listed.
            .filter(Exists(EditionItem.objects.filter(edition=OuterRef("pk"))))
            .select_related("topic")
            .order_by("id")
        )

    def lastmod(self, edition: Edition):
        return edition.finished_at or edition.published_at


SITEMAPS = {"pages": StaticPagesSitemap, "topics": TopicSitemap, "editions": EditionSitemap}
