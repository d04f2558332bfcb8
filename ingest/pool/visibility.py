"""Which pool items a reader may be shown when nothing ties them to the reader's own sources
(topic-only briefs, the assistants' pool search): all but another reader's newsletter issues.

A newsletter issue is its owner's mail (docs/newsletters.md): it reaches only briefs reading
that newsletter's source. An item a newsletter shares with a public source (an article it links,
also in a feed) is public already.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from ingest.models import ContentItemSource, Source, UserSource


def visible_to(user_id: int | None) -> Q:
    """Items `user_id` may be shown; None: items anybody may be shown (no newsletter issue)."""
    foreign_newsletter = ContentItemSource.objects.filter(
        item=OuterRef("pk"), source__type=Source.Type.NEWSLETTER
    ).exclude(source__in=UserSource.objects.filter(user_id=user_id).values("source_id"))
    public = ContentItemSource.objects.filter(item=OuterRef("pk")).exclude(
        source__type=Source.Type.NEWSLETTER
    )
    return ~Q(Exists(foreign_newsletter)) | Q(Exists(public))
