"""`/topics/<slug>/feed`: a topic's editions as Atom (django.contrib.syndication)."""

from __future__ import annotations

from django.contrib.syndication.views import Feed
from django.http import Http404
from django.utils.feedgenerator import Atom1Feed

from topics import seo
from topics.models import MAX_EDITIONS_LISTED, Topic
from topics.views import published_editions


class TopicEditionsFeed(Feed):
    feed_type = Atom1Feed

    def get_object(self, request, slug: str):
        # Feeds are for strangers: only listed topics, even for the owner.
        topic = Topic.objects.listed().filter(slug=slug).first()
        if topic is None:
            raise Http404
        return topic

    def title(self, topic: Topic) -> str:
        return topic.title

    def subtitle(self, topic: Topic) -> str:
        return seo.topic_description(topic)

    def link(self, topic: Topic) -> str:
        return seo.absolute(topic.get_absolute_url())

    def feed_url(self, topic: Topic) -> str:
        return seo.absolute(f"{topic.get_absolute_url()}/feed")

    def items(self, topic: Topic):
        return list(published_editions(topic).prefetch_related("items")[:MAX_EDITIONS_LISTED])

    def item_title(self, edition) -> str:
        return f"{edition.topic.title} — {edition.edition_date:%Y-%m-%d}"

    def item_description(self, edition) -> str:
        # Plain text: the syndication framework escapes it; links come as the entry link.
        return "\n".join(f"• {item.title}" for item in edition.items.all())

    def item_link(self, edition) -> str:
        return seo.absolute(edition.get_absolute_url())

    def item_guid(self, edition) -> str:
        return seo.absolute(edition.get_absolute_url())

    def item_pubdate(self, edition):
        return edition.published_at

    def item_updateddate(self, edition):
        return edition.finished_at or edition.published_at
