"""What a user did with an item: read, saved, not interested. Lives on UserContentState, so
it follows the item across runs and subscriptions.

One action on one item (the console's buttons, the API's item action) and one action on up
to `MAX_BULK_ITEMS` items (the API's bulk action) are the same code: create the missing state
rows, then one UPDATE — a few queries whatever the number of items.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from digests.models import RunItem
from inbox.models import UserContentState
from inbox.page_cache import inbox_changed

ACTIONS = {
    "read": ("read_at", True),
    "unread": ("read_at", False),
    "save": ("saved_at", True),
    "unsave": ("saved_at", False),
    "not_interested": ("not_interested_at", True),
    "interested": ("not_interested_at", False),
}
MAX_BULK_ITEMS = 500


class UnknownAction(ValueError):
    pass


class BulkActionError(ValueError):
    """A bulk action refused as a whole (nothing changed), with the field at fault."""

    def __init__(self, errors: dict[str, str], *, code: str = "invalid"):
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors
        self.code = code  # `not_found`: ids that are not the user's items (404 in the API)


def _check_action(action: str) -> None:
    if action not in ACTIONS:
        raise UnknownAction(
            _("Unknown action %(action)s; use one of %(actions)s.")
            % {"action": repr(action), "actions": ", ".join(ACTIONS)}
        )


def _apply(user, run_items: Iterable[RunItem], action: str, *, now: datetime) -> list[str]:
    """Set the action's field on the states of `run_items`; returns their hashes."""
    field, on = ACTIONS[action]
    item_ids = {run_item.canonical_url_hash: run_item.item_id for run_item in run_items}
    UserContentState.objects.bulk_create(
        [
            UserContentState(user=user, canonical_url_hash=url_hash, item_id=item_id)
            for url_hash, item_id in item_ids.items()
        ],
        ignore_conflicts=True,  # most exist already: every delivery creates its state
    )
    states = UserContentState.objects.filter(user=user, canonical_url_hash__in=list(item_ids))
    states.update(**{field: now if on else None}, updated_at=now)
    if action == "read":
        states.filter(opened_at__isnull=True).update(opened_at=now)
    inbox_changed(user.pk)  # the cached Inbox page of this user is stale now
    return list(item_ids)


def apply_action(user, run_item: RunItem, action: str, *, now: datetime) -> UserContentState:
    _check_action(action)
    with transaction.atomic():
        (url_hash,) = _apply(user, [run_item], action, now=now)
    return UserContentState.objects.get(user=user, canonical_url_hash=url_hash)


def apply_bulk_action(user, run_item_ids: list[int], action: str, *, now: datetime) -> list[int]:
    """`action` on each of the user's Inbox items `run_item_ids` (RunItem ids), all or none:
    an unknown action, more than MAX_BULK_ITEMS ids, or any id that is not an item of the
    user's Inbox refuses the whole request and changes nothing. Returns the ids, each once."""
    _check_action(action)
    wanted = list(dict.fromkeys(run_item_ids))
    if len(run_item_ids) > MAX_BULK_ITEMS:
        raise BulkActionError(
            {
                "ids": _("At most %(limit)s items per request; got %(count)s.")
                % {"limit": MAX_BULK_ITEMS, "count": len(run_item_ids)}
            }
        )
    run_items = list(
        RunItem.objects.filter(pk__in=wanted, run__user=user).only(
            "id", "canonical_url_hash", "item_id"
        )
    )
    missing = set(wanted) - {run_item.pk for run_item in run_items}
    if missing:
        raise BulkActionError(
            {
                "ids": _("Not items of your Inbox: %(ids)s.")
                % {"ids": ", ".join(str(i) for i in sorted(missing)[:20])}
            },
            code="not_found",
        )
    with transaction.atomic():
        _apply(user, run_items, action, now=now)
    return wanted


def apply_to_items(user, run_items, action: str, *, now: datetime) -> int:
    """`action` on every RunItem of `run_items` (a queryset the caller already limited to the
    user's Inbox, e.g. "everything in this feed up to that time" for the reading apps'
    mark-all-as-read): no count limit, still a few queries. Returns how many items."""
    _check_action(action)
    rows = list(run_items.filter(run__user=user).only("id", "canonical_url_hash", "item_id"))
    if rows:
        with transaction.atomic():
            _apply(user, rows, action, now=now)
    return len(rows)


def states_by_hash(user, hashes) -> dict[str, UserContentState]:
    return {
        s.canonical_url_hash: s
        for s in UserContentState.objects.filter(user=user, canonical_url_hash__in=list(hashes))
    }
