"""Folders as the reading apps see them: Google Reader labels (user/-/label/NAME) and Fever
groups.

Folders hold sources (ingest.models.Folder), while an app's feeds are Tidings subscriptions,
so a subscription is shown in the folder of each source it reads from the user's library — a
subscription reading sources from two folders is in both, as a Reader feed may have two labels.
Renaming and moving happen through ingest.library.folders, the console's own service.
"""

from __future__ import annotations

from collections import defaultdict

from digests.models import SubscriptionSource

LABEL = "user/-/label/"


def _links(user):
    """(subscription, folder) pairs: the user's subscriptions and the folders of their sources
    in the user's library. `source__followers__` twice in one filter() is one join."""
    return SubscriptionSource.objects.filter(
        subscription__owner=user,
        source__followers__user=user,
        source__followers__folder__isnull=False,
    )


def folders_by_subscription(user) -> dict[int, list[tuple[int, str]]]:
    """Each subscription's folders as (id, name), by name: one query for every feed."""
    shown: dict[int, list[tuple[int, str]]] = defaultdict(list)
    pairs = _links(user).values_list(
        "subscription_id", "source__followers__folder_id", "source__followers__folder__name"
    )
    for subscription_id, folder_id, name in set(pairs):
        shown[subscription_id].append((folder_id, name))
    for listed in shown.values():
        listed.sort(key=lambda folder: (folder[1], folder[0]))
    return shown


def subscription_ids(user, *, folder_id: int | None = None, name: str | None = None):
    """A subquery of the subscription ids shown in one folder (by id or by name)."""
    links = _links(user)
    if folder_id is not None:
        links = links.filter(source__followers__folder_id=folder_id)
    if name is not None:
        links = links.filter(source__followers__folder__name=name)
    return links.values("subscription_id")


def label_id(name: str) -> str:
    return LABEL + name


def label_name(stream_id: str) -> str | None:
    """The folder name of a normalized label stream id, else None."""
    return stream_id[len(LABEL) :] if stream_id.startswith(LABEL) else None
