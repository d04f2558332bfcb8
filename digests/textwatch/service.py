"""Text-change watches: add one, preview its text, check it, tell its owner about a change.

A check (`check_watch`) fetches the page through the one safe client (or renders it with the
browser fetcher, whose every request goes through that client too — ingest/watch/service.py
`fetch_listing`), extracts the watched part (watches/extract.py), applies the ignore rules
(watches/rules.py) and compares the result with the last stored snapshot. Only a changed text
is stored (history bounded to HISTORY_LIMIT per watch); a change that fires the trigger becomes
one Inbox item: a finished run of the watch's own notifier subscription with one item whose
summary is the diff, and that run's email / Web Push / webhook rows (digests/delivery/).

Exactly once: the comparison, the snapshot, the Inbox item and its delivery rows are written in
one transaction, under a lock on the watch row, against the snapshot read in that transaction.
A check killed before the commit leaves nothing and the next one finds the same change; a
check retried after the commit finds the text unchanged.

Failures: `ERROR_AFTER` failed checks in a row turn the watch's status to `error` and tell its
owner once (an Inbox item); it keeps being checked, and the first good check makes it active
again (and a later failing streak is told again). A check that never finishes (its worker
killed: a page too large for its memory) is claimed again once per lease, at most
`WATCH_CHECK_ATTEMPTS` times in a row; then the claim gives up, records one failed check with
the reason, and the watch waits an interval (`claim`, `unfinished_checks`).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings as conf
from django.db import DatabaseError, transaction
from django.db.models import Case, F, Q, Value, When
from django.urls import reverse
from django.utils.translation import gettext as _

from billing import limits
from config import leases
from config.api.errors import ServiceRefusal
from digests.delivery.brief import absolute_url
from digests.models import MAX_ITEMS_HARD_CAP, Run, RunItem, Subscription
from digests.textwatch import apprise, extract, rules
from digests.textwatch.diffing import TextDiff, diff_texts
from digests.textwatch.models import HISTORY_LIMIT, TextSnapshot, TextWatch
from digests.watches.check_interval import MAX_CHECK_MINUTES, MIN_CHECK_MINUTES
from inbox.page_cache import inbox_changed
from ingest.canonical import url_hash
from ingest.fetching import fetch
from ingest.library.sources import SourceError
from ingest.models import ContentItem
from ingest.watch import service as list_watch

logger = logging.getLogger(__name__)

ERROR_AFTER = 3
NAME_MAX_CHARS = 200
DUE_BATCH = 100


class WatchError(ServiceRefusal):
    """Refused watch input, by field: HTTP 400, or 422 by its code (`invalid_combination`,
    `invalid_selector`, `invalid_pattern`…: config/api/error_codes.py)."""


@dataclass
class CheckOutcome:
    ok: bool
    changed: bool = False
    notified: bool = False
    error: str = ""
    snapshot: TextSnapshot | None = None
    diff: TextDiff | None = None


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# --- input ------------------------------------------------------------------------------------


def _refuse(exc) -> WatchError:
    # The extractor's code (`invalid_selector`, `selector_empty`…): content the server cannot
    # use, 422 in the API; a rule's refusal stays `invalid`.
    return WatchError({exc.field: exc.message}, code=getattr(exc, "code", "") or "invalid")


def clean_input(data: dict) -> dict:
    """The watch's settings from `data` (the API's or the console form's fields), checked.
    Raises WatchError naming the first refused field."""
    try:
        url = list_watch._clean_url(data.get("url", ""))
        render = list_watch._clean_render(data.get("render") or "http")
    except SourceError as exc:
        raise WatchError({exc.field or "url": exc.message}, code=exc.code) from None
    kind = (data.get("selector_kind") or "").strip()
    try:
        selector = extract.check_selector(kind, data.get("selector", ""))
        ignore_text = rules.clean_ignore_text(data.get("ignore_text"))
        ignore_regex = rules.clean_ignore_regex(data.get("ignore_regex"))
        trigger, trigger_text, trigger_number = rules.clean_trigger(
            data.get("trigger") or "any", data.get("trigger_text", ""), data.get("trigger_number")
        )
    except (extract.ExtractError, rules.RuleError) as exc:
        raise _refuse(exc) from None
    minutes = data.get("check_interval_minutes", 60)
    if isinstance(minutes, bool) or not isinstance(minutes, int):
        raise WatchError({"check_interval_minutes": _("Must be a whole number of minutes.")})
    if not MIN_CHECK_MINUTES <= minutes <= MAX_CHECK_MINUTES:
        raise WatchError(
            {
                "check_interval_minutes": _("Must be between %(low)d and %(high)d minutes.")
                % {"low": MIN_CHECK_MINUTES, "high": MAX_CHECK_MINUTES}
            }
        )
    start_at, end_at = data.get("start_at"), data.get("end_at")
    ignore_numbers = data.get("ignore_numbers", False)
    if not isinstance(ignore_numbers, bool):
        raise WatchError({"ignore_numbers": _("Must be true or false.")})
    name = " ".join(str(data.get("name") or "").split())[:NAME_MAX_CHARS]
    channels = clean_channels(data.get("notify") or ["inbox"])
    # Two valid moments that make no period: refused after each field's own rules (HTTP 422).
    if start_at and end_at and end_at <= start_at:
        raise WatchError(
            {"end_at": _("The end must come after the start.")}, code="invalid_combination"
        )
    return {
        "notify": channels,
        "url": url,
        "render": render,
        "selector_kind": kind,
        "selector": selector,
        "ignore_text": ignore_text,
        "ignore_regex": ignore_regex,
        "ignore_numbers": ignore_numbers,
        "trigger": trigger,
        "trigger_text": trigger_text,
        "trigger_number": trigger_number,
        "check_interval_minutes": minutes,
        "start_at": start_at,
        "end_at": end_at,
        "name": name,
    }


def _filter_of(settings) -> rules.Filter:
    get = settings.get if isinstance(settings, dict) else lambda k: getattr(settings, k)
    return rules.Filter(
        texts=get("ignore_text"), patterns=get("ignore_regex"), numbers=get("ignore_numbers")
    )


def fetch_text(url: str, render: str, kind: str, selector: str) -> str:
    """The watched part of the page as it is now. Raises fetch.FetchError or ExtractError."""
    result = list_watch.fetch_listing(url, render)
    return extract.extract_text(result.content, kind=kind, selector=selector)


def clean_channels(value) -> tuple[str, ...]:
    """Where a change is told besides Apprise: the Inbox, plus email and Web Push on top of
    it — the watched lists' rules (digests/watches/notifiers.py)."""
    from digests.watches.notifiers import WatchSettingsError
    from digests.watches.notifiers import clean_channels as clean_notify

    try:
        channels = clean_notify(value)
    except WatchSettingsError as exc:
        raise WatchError(exc.errors, code=exc.code) from None
    if not channels:
        raise WatchError({"notify": _("A text watch tells at least the Inbox.")})
    return channels


def preview(data: dict) -> dict:
    """What a watch with these settings would see now: the extracted text and the text as
    compared (ignore rules applied). Nothing is written. Raises WatchError."""
    clean = clean_input(data)
    try:
        text = fetch_text(clean["url"], clean["render"], clean["selector_kind"], clean["selector"])
        compared = _filter_of(clean).apply(text)
    except fetch.FetchError as exc:
        raise WatchError({"url": exc.message}, code=exc.code) from None
    except extract.ExtractError as exc:
        raise _refuse(exc) from None
    except TimeoutError:
        raise WatchError(
            {"ignore_regex": _("A pattern takes too long on this page.")}, code="too_slow"
        ) from None
    return {"text": text, "compared": compared, "number": rules.first_number(compared)}


# --- adding -----------------------------------------------------------------------------------


def _notifier_for(user, name: str, channels: tuple[str, ...]) -> Subscription:
    """The watch's own subscription: no sources, no schedule; its runs are the changes, sent
    by email and Web Push too when `channels` say so."""
    from digests.watches.notifiers import EMAIL, NOTIFIER_WINDOW_HOURS, PUSH, _zone

    return Subscription.objects.create(
        email_enabled=EMAIL in channels,
        push_enabled=PUSH in channels,
        owner=user,
        name=(_("Watch: %(name)s") % {"name": name})[:NAME_MAX_CHARS],
        topic="",
        interests=[],
        min_score=0,
        max_items=MAX_ITEMS_HARD_CAP,
        content_window_hours=NOTIFIER_WINDOW_HOURS,
        redelivery=Subscription.Redelivery.NEVER,
        cron="",
        run_at=None,
        timezone=_zone(user),
        narrative_enabled=False,
        next_run_at=None,
    )


def _read_now(clean: dict) -> str:
    """The text as compared under these (cleaned) settings, read now; refusals name the field."""
    try:
        text = fetch_text(clean["url"], clean["render"], clean["selector_kind"], clean["selector"])
        return _filter_of(clean).apply(text)
    except fetch.FetchError as exc:
        raise WatchError({"url": exc.message}, code=exc.code) from None
    except extract.ExtractError as exc:
        raise _refuse(exc) from None
    except TimeoutError:
        raise WatchError(
            {"ignore_regex": _("A pattern takes too long on this page.")}, code="too_slow"
        ) from None


def add_watch(user, data: dict, *, now: datetime) -> TextWatch:
    """Watch a page (or a part of it) for text changes. The page is read once now: a bad
    address or a selector that picks nothing is refused while the reader is there, and that
    first text is the baseline (never a change). Refusals raise WatchError and write nothing."""
    clean = clean_input(data)
    # The plan's floor on how often a watched page is checked, as for watched lists (403).
    limits.check_watch_interval(
        limits.account_for(user.pk, now=now), clean["check_interval_minutes"]
    )
    compared = _read_now(clean)
    name = clean.pop("name") or clean["url"]
    channels = clean.pop("notify")
    first_check = max(now, clean["start_at"] or now)
    with transaction.atomic():
        watch = TextWatch.objects.create(
            owner=user,
            name=name,
            notifier=_notifier_for(user, name, channels),
            created_at=now,
            last_checked_at=now,
            next_check_at=first_check + timedelta(minutes=clean["check_interval_minutes"]),
            **clean,
        )
        TextSnapshot.objects.create(
            watch=watch, text=compared, text_hash=text_hash(compared), checked_at=now
        )
        inbox_changed(user.pk)  # the Inbox's filter lists subscriptions by name
    return watch


def delete_watch(watch: TextWatch, *, now: datetime) -> None:
    """Stop watching: the watch and its history go, and so do its Apprise routes; its notifier
    subscription is deleted the way every subscription is (soft: the Inbox items it delivered
    stay, and sends already written for them still go out)."""
    from digests.textwatch.models import AppriseRoute

    with transaction.atomic():
        if watch.notifier_id:
            Subscription.objects.filter(pk=watch.notifier_id).update(
                deleted_at=now, status=Subscription.Status.PAUSED, next_run_at=None
            )
            AppriseRoute.objects.filter(subscription_id=watch.notifier_id).delete()
        watch.delete()
        inbox_changed(watch.owner_id)


# --- editing, pausing -------------------------------------------------------------------------

# The settings that decide which text is compared. Changing one starts a new baseline: the
# page is read under the new settings when they are saved, and the next check compares with
# that text — a different part or new ignore rules are not a change of the page.
COMPARED_FIELDS = (
    "url", "render", "selector_kind", "selector", "ignore_text", "ignore_regex", "ignore_numbers",
)  # fmt: skip


def _compared_settings(settings) -> tuple:
    get = settings.get if isinstance(settings, dict) else lambda k: getattr(settings, k)
    return tuple(get(field) for field in COMPARED_FIELDS)


def settings_of(watch: TextWatch) -> dict:
    """The watch's settings as `clean_input` takes them (an edit starts from these)."""
    notifier = watch.notifier
    notify = ["inbox"]
    if notifier is not None and notifier.email_enabled:
        notify.append("email")
    if notifier is not None and notifier.push_enabled:
        notify.append("push")
    return {
        "name": watch.name,
        "url": watch.url,
        "render": watch.render,
        "selector_kind": watch.selector_kind,
        "selector": watch.selector,
        "ignore_text": list(watch.ignore_text),
        "ignore_regex": list(watch.ignore_regex),
        "ignore_numbers": watch.ignore_numbers,
        "trigger": watch.trigger,
        "trigger_text": watch.trigger_text,
        "trigger_number": watch.trigger_number,
        "check_interval_minutes": watch.check_interval_minutes,
        "start_at": watch.start_at,
        "end_at": watch.end_at,
        "notify": notify,
    }


def _first_check(start_at: datetime | None, minutes: int, *, now: datetime) -> datetime:
    return max(now, start_at or now) + timedelta(minutes=minutes)


def update_watch(watch: TextWatch, data: dict, *, now: datetime) -> TextWatch:
    """Change a watch's settings (`data`: every field, as for adding). Refusals raise
    WatchError (or the plan's TierLimitError) and change nothing.

    A change of what is compared (COMPARED_FIELDS) reads the page now — a bad address or a
    selector that picks nothing is refused, as when adding — and stores that text as a new
    baseline (a snapshot marked `baseline`, never told), so the next check reports only what
    changes on the page from now on. A successful read also ends a failing streak. A new
    trigger, name, interval or channel needs no read: the next check compares the same text."""
    clean = clean_input(data)
    if clean["check_interval_minutes"] != watch.check_interval_minutes:
        limits.check_watch_interval(
            limits.account_for(watch.owner_id, now=now), clean["check_interval_minutes"]
        )
    rebase = _compared_settings(clean) != _compared_settings(watch)
    compared = _read_now(clean) if rebase else None
    channels = clean.pop("notify")
    clean["name"] = clean["name"] or clean["url"]
    with transaction.atomic():
        locked = (
            TextWatch.objects.select_for_update(of=("self",))
            .select_related("notifier")
            .get(pk=watch.pk)
        )
        timing_changed = (
            clean["check_interval_minutes"] != locked.check_interval_minutes
            or clean["start_at"] != locked.start_at
        )
        for field, value in clean.items():
            setattr(locked, field, value)
        if locked.status == TextWatch.Status.COMPLETED and (
            locked.end_at is None or locked.end_at > now
        ):
            locked.status = TextWatch.Status.ACTIVE  # a later end: it goes on
            timing_changed = True
        if timing_changed and locked.status != TextWatch.Status.PAUSED:
            locked.next_check_at = _first_check(
                locked.start_at, locked.check_interval_minutes, now=now
            )
        if rebase:
            last = locked.snapshots.order_by("-checked_at", "-id").first()
            digest = text_hash(compared)
            if last is None or last.text_hash != digest:
                TextSnapshot.objects.create(
                    watch=locked, text=compared, text_hash=digest, checked_at=now, baseline=True
                )
                _prune(locked)
            locked.last_checked_at = now
            locked.error_count, locked.last_error, locked.error_notified_at = 0, "", None
            locked.unfinished_checks = 0  # a new page, or a new part: a new count
            if locked.status == TextWatch.Status.ERROR:
                locked.status = TextWatch.Status.ACTIVE
        locked.save()
        if locked.notifier is not None:
            from digests.watches.notifiers import EMAIL, PUSH

            notifier = locked.notifier
            notifier.name = (_("Watch: %(name)s") % {"name": locked.name})[:NAME_MAX_CHARS]
            notifier.email_enabled = EMAIL in channels
            notifier.push_enabled = PUSH in channels
            notifier.save(update_fields=["name", "email_enabled", "push_enabled"])
        inbox_changed(locked.owner_id)  # the Inbox's filter lists subscriptions by name
    return locked


def pause_watch(watch: TextWatch) -> TextWatch:
    """No checks until resumed. A completed watch stays completed."""
    TextWatch.objects.filter(
        pk=watch.pk, status__in=(TextWatch.Status.ACTIVE, TextWatch.Status.ERROR)
    ).update(status=TextWatch.Status.PAUSED, next_check_at=None)
    watch.refresh_from_db()
    return watch


def resume_watch(watch: TextWatch, *, now: datetime) -> TextWatch:
    """Checks again: at once if a check is overdue, else an interval after the last one (so
    pausing and resuming is no way around the plan's interval floor). No new baseline: a
    change made while paused is a change the reader has not seen, and is told."""
    following = now
    if watch.last_checked_at is not None:
        following = max(
            now, watch.last_checked_at + timedelta(minutes=watch.check_interval_minutes)
        )
    TextWatch.objects.filter(pk=watch.pk, status=TextWatch.Status.PAUSED).update(
        status=TextWatch.Status.ACTIVE, next_check_at=following
    )
    watch.refresh_from_db()
    return watch


# --- checking ---------------------------------------------------------------------------------


def due_ids(*, now: datetime, limit: int = DUE_BATCH) -> list[int]:
    return list(
        TextWatch.objects.filter(
            status__in=(TextWatch.Status.ACTIVE, TextWatch.Status.ERROR), next_check_at__lte=now
        )
        .filter(Q(start_at__isnull=True) | Q(start_at__lte=now))
        .order_by("next_check_at", "id")
        .values_list("pk", flat=True)[:limit]
    )


def claim(watch_id: int, *, now: datetime) -> TextWatch | None:
    """Take a due watch for one check, or complete it when its end has come. The claim is a
    lease: `next_check_at` moves a lease on (a conditional update, so two workers never check
    it at once); the check renews it while it runs and, once done, moves it an interval on
    (`_checked`). A check whose worker died, or whose task was lost, leaves the watch due again
    when the lease runs out, and the next tick checks it again. The returned watch's
    `next_check_at` is the claim's token (`check_claimed`'s `claimed_until`).

    Each claim counts one `unfinished_checks`; a finished check (`_checked`) sets it back to 0.
    A watch claimed WATCH_CHECK_ATTEMPTS times in a row without a finished check (a page that
    kills its worker every time) is not claimed again: `_give_up`."""
    watch = TextWatch.objects.filter(pk=watch_id).first()
    if watch is None or watch.next_check_at is None or watch.next_check_at > now:
        return None
    if watch.end_at and watch.end_at <= now:
        TextWatch.objects.filter(pk=watch.pk).update(
            status=TextWatch.Status.COMPLETED, next_check_at=None
        )
        return None
    if watch.unfinished_checks >= conf.WATCH_CHECK_ATTEMPTS:
        _give_up(watch, now=now)
        return None
    retry_at = leases.lease_until(now)
    taken = TextWatch.objects.filter(pk=watch.pk, next_check_at=watch.next_check_at).update(
        next_check_at=retry_at, unfinished_checks=F("unfinished_checks") + 1
    )
    if not taken:
        return None
    watch.next_check_at = retry_at
    return watch


def _checked(watch: TextWatch, *, now: datetime) -> None:
    """The claimed check is over (its streak of unfinished claims too): the next one is an
    interval on. Only while the watch still holds a lease value (anything before `now +
    interval`): an edit, a pause or a completion made meanwhile keeps the time it set."""
    following = now + timedelta(minutes=watch.check_interval_minutes)
    leased = Q(
        status__in=(TextWatch.Status.ACTIVE, TextWatch.Status.ERROR),
        next_check_at__lt=following,
    )
    TextWatch.objects.filter(pk=watch.pk).update(
        unfinished_checks=0,
        next_check_at=Case(When(leased, then=Value(following)), default=F("next_check_at")),
    )


def _give_up(watch: TextWatch, *, now: datetime) -> None:
    """`watch` was claimed WATCH_CHECK_ATTEMPTS times in a row and no check finished: its
    worker died each time (a page too large for a worker's memory, a parse that outlives the
    task's timeout) or its tasks were lost. Claiming it again would fetch it once per lease for
    ever, so this counts as one failed check — the reason shown to the owner as the watch's
    error, and told once the failures make a streak (`ERROR_AFTER`) — and the next try is an
    interval on."""
    message = _(
        "The check stopped before it finished %(count)d times in a row (the page may be too "
        "large or too slow to read). It is tried again at the next interval."
    ) % {"count": watch.unfinished_checks}
    with transaction.atomic():
        locked = (
            TextWatch.objects.select_for_update()
            .filter(pk=watch.pk, next_check_at=watch.next_check_at)
            .first()
        )
        if locked is None:
            return  # another ticker gave up on it first, or it was edited meanwhile
        locked.unfinished_checks = 0
        locked.next_check_at = now + timedelta(minutes=locked.check_interval_minutes)
        run = _record_failure(locked, message, now=now, also=("unfinished_checks", "next_check_at"))
    if run is not None:
        _hand_out(run)


def hand_out_due(*, now: datetime, send, limit: int = DUE_BATCH) -> list[int]:
    """Claim every watch that is due and give it to `send(pk, claimed_until)` (the tick:
    enqueue). Each check is a task of its own, so a slow page holds one worker, not the tick
    and every watch behind it, and the cluster's worker count bounds how many pages are fetched
    at once. A lost task, or a worker killed mid-check, costs one lease: the watch is due again
    then, and handed out again."""
    claimed = []
    for pk in due_ids(now=now, limit=limit):
        watch = claim(pk, now=now)
        if watch is not None:
            send(pk, watch.next_check_at)
            claimed.append(pk)
    return claimed


def check_claimed(
    watch_id: int, *, now: datetime, claimed_until: datetime | None = None
) -> CheckOutcome | None:
    """The task's check of a watch the tick claimed: none if it was paused, completed or
    deleted in between, or — with the claim's token `claimed_until` — if the claim is no longer
    this task's (a task that waited in the queue past its lease was handed out again; that
    later task checks, this one does not). While the check runs its lease is renewed, so a
    slow page is never checked twice at once; a check that dies leaves the lease to run out."""
    watch = TextWatch.objects.filter(
        pk=watch_id, status__in=(TextWatch.Status.ACTIVE, TextWatch.Status.ERROR)
    ).first()
    if watch is None:
        return None
    if claimed_until is not None:
        renewed = leases.lease_until(now)
        if not TextWatch.objects.filter(pk=watch_id, next_check_at=claimed_until).update(
            next_check_at=renewed
        ):
            return None
        watch.next_check_at = renewed
    held = {"next_check_at__lt": now + timedelta(minutes=watch.check_interval_minutes)}
    try:
        with leases.Heartbeat(TextWatch, [watch.pk], now=now, field="next_check_at", **held):
            outcome = check_watch(watch, now=now)
    except DatabaseError:
        raise  # the database went away: the lease runs out and the check is made again
    except Exception:
        _checked(watch, now=now)  # a fault of this page or of ours: not again every lease
        raise
    _checked(watch, now=now)
    return outcome


def check_due(*, now: datetime, limit: int = DUE_BATCH) -> list[CheckOutcome]:
    """Check every watch that is due, one after another in this thread (tests, benchmarks,
    `manage.py` without a queue; the tick hands them out instead: `hand_out_due`)."""
    outcomes = []
    for pk in due_ids(now=now, limit=limit):
        watch = claim(pk, now=now)
        if watch is not None:
            outcomes.append(check_watch(watch, now=now))
            _checked(watch, now=now)
    return outcomes


def check_watch(watch: TextWatch, *, now: datetime) -> CheckOutcome:
    """One check of `watch` (already claimed, or run by hand): see the module's docstring."""
    try:
        text = fetch_text(watch.url, watch.render, watch.selector_kind, watch.selector)
        compared = _filter_of(watch).apply(text)
    except fetch.FetchError as exc:
        return _failed(watch, exc.message, now=now)
    except extract.ExtractError as exc:
        return _failed(watch, exc.message, now=now)
    except TimeoutError:
        return _failed(watch, _("An ignore pattern took too long on this page."), now=now)
    digest = text_hash(compared)
    with transaction.atomic():
        locked = TextWatch.objects.select_for_update().get(pk=watch.pk)
        if _compared_settings(locked) != _compared_settings(watch):
            # Edited while this check read the page: what it read belongs to the old
            # settings, and the edit stored the new baseline. Nothing to compare.
            return CheckOutcome(ok=True)
        last = locked.snapshots.order_by("-checked_at", "-id").first()
        fields = {"last_checked_at": now, "error_count": 0, "last_error": ""}
        if locked.status == TextWatch.Status.ERROR:
            fields.update(status=TextWatch.Status.ACTIVE, error_notified_at=None)
        TextWatch.objects.filter(pk=locked.pk).update(**fields)
        if last is not None and last.text_hash == digest:
            return CheckOutcome(ok=True)
        before = last.text if last is not None else ""
        diff = diff_texts(before, compared)
        snapshot = TextSnapshot.objects.create(
            watch=locked,
            text=compared,
            text_hash=digest,
            checked_at=now,
            added_lines=diff.added,
            removed_lines=diff.removed,
        )
        told = last is not None and rules.fires(
            locked.trigger,
            before=before,
            after=compared,
            text=locked.trigger_text,
            number=locked.trigger_number,
        )
        run = None
        if told:
            history = absolute_url(reverse("watches:detail", args=[locked.pk]))
            run = _tell(
                locked,
                title=_("Changed: %(name)s") % {"name": locked.name},
                summary=f"{diff.as_text()}\n\n{_('All changes:')} {history}",
                key=f"change-{snapshot.pk}",
                now=now,
            )
            snapshot.notified, snapshot.run = True, run
            snapshot.save(update_fields=["notified", "run"])
        _prune(locked)
    if run is not None:
        _hand_out(run)
    return CheckOutcome(ok=True, changed=True, notified=told, snapshot=snapshot, diff=diff)


def _prune(watch: TextWatch) -> None:
    old = list(
        watch.snapshots.order_by("-checked_at", "-id").values_list("pk", flat=True)[HISTORY_LIMIT:]
    )
    if old:
        TextSnapshot.objects.filter(pk__in=old).delete()


def _failed(watch: TextWatch, message: str, *, now: datetime) -> CheckOutcome:
    message = message[:500]
    with transaction.atomic():
        locked = TextWatch.objects.select_for_update().get(pk=watch.pk)
        if _compared_settings(locked) != _compared_settings(watch):
            return CheckOutcome(ok=False, error=message)  # the old settings failed, not these
        run = _record_failure(locked, message, now=now)
    if run is not None:
        _hand_out(run)
    return CheckOutcome(ok=False, error=message)


def _record_failure(
    locked: TextWatch, message: str, *, now: datetime, also: tuple[str, ...] = ()
) -> Run | None:
    """One failed check of the watch locked by the caller's transaction: saved with the
    fields in `also`; after ERROR_AFTER in a row the owner is told once (the run returned, to
    hand out after the commit)."""
    run = None
    locked.error_count += 1
    locked.last_error = message[:500]
    locked.last_checked_at = now
    if locked.error_count >= ERROR_AFTER:
        locked.status = TextWatch.Status.ERROR
        if locked.error_notified_at is None:
            locked.error_notified_at = now
            run = _tell(
                locked,
                title=_("Watch failing: %(name)s") % {"name": locked.name},
                summary=_("The last %(count)d checks failed. The last error: %(error)s")
                % {"count": locked.error_count, "error": locked.last_error},
                key=f"error-{now:%Y%m%d%H%M%S}",
                now=now,
            )
    locked.save(
        update_fields=[
            "error_count", "last_error", "last_checked_at", "status", "error_notified_at", *also,
        ]
    )  # fmt: skip
    return run


def _tell(watch: TextWatch, *, title: str, summary: str, key: str, now: datetime) -> Run | None:
    """One Inbox item for the watch's owner: a finished run of the watch's notifier with one
    item (its own pool row: a change is not an article and joins no other brief), plus the
    run's delivery rows. Call inside the check's transaction."""
    from digests.delivery.service import plan_for_run

    notifier = watch.notifier
    if notifier is None or notifier.status != Subscription.Status.ACTIVE:
        return None
    address = f"{watch.url}#tidings-watch-{watch.pk}-{key}"
    digest = url_hash(address)
    item, _created = ContentItem.objects.get_or_create(
        canonical_url_hash=digest,
        defaults={
            "canonical_url": address,
            "title": title[:500],
            "description": summary,
            "first_seen_at": now,
            "last_seen_at": now,
            "published_at": now,
            "site_name": watch.name[:300],
            "license_tier": "restricted",  # one reader's watch: never on a public page
        },
    )
    run = Run.objects.create(
        subscription=notifier,
        user_id=watch.owner_id,
        status=Run.Status.SUCCEEDED,
        trigger=Run.Trigger.SCHEDULED,
        scheduled_at=now,
        started_at=now,
        finished_at=now,
        candidates_count=1,
        selected_count=1,
        delivered_count=1,
        narrative_generator="template",
    )
    RunItem.objects.create(
        run=run,
        item=item,
        canonical_url_hash=digest,
        relevance=100,
        overall=100,
        reason=_("The watched text changed."),
        rank=1,
        title=title[:500],
        url=watch.url,
        summary=summary,
        summary_generator="diff",
        source_name=watch.name[:300],
        published_at=now,
        delivered_at=now,
    )
    plan_for_run(run, notifier, now=now)
    inbox_changed(watch.owner_id)
    return run


def _hand_out(run: Run) -> None:
    from digests import tasks
    from digests.delivery.service import hand_out_run

    hand_out_run(run.pk, tasks.enqueue_delivery)
    apprise.hand_out_sends(run.pk, tasks.enqueue_apprise)
