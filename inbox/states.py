"""What a user did with an item: read, saved, not interested. Lives on UserContentState, so
it follows the item across runs and subscriptions."""

from __future__ import annotations

from datetime import datetime

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


class UnknownAction(ValueError):
    pass


def apply_action(user, run_item: RunItem, action: str, *, now: datetime) -> UserContentState:
    if action not in ACTIONS:
        raise UnknownAction(f"Unknown action {action!r}; use one of {', '.join(ACTIONS)}.")
    field, on = ACTIONS[action]
    state, _ = UserContentState.objects.get_or_create(
        user=user,
        canonical_url_hash=run_item.canonical_url_hash,
        defaults={"item_id": run_item.item_id},
    )
    setattr(state, field, now if on else None)
    if action == "read" and state.opened_at is None:
        state.opened_at = now
    state.save()
    inbox_changed(user.pk)
    return state


def states_by_hash(user, hashes) -> dict[str, UserContentState]:
    return {
        s.canonical_url_hash: s
        for s in UserContentState.objects.filter(user=user, canonical_url_hash__in=list(hashes))
    }
