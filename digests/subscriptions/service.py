"""Creating and changing subscriptions. The console forms and the API serializers both call
these functions, so a rule is written once and every refusal names its field.

Input rules raise SubscriptionInputError (HTTP 400 for a field's own rule, then 422 for fields
valid alone but not together or with what is stored, `invalid_combination`, or a time already
past, `invalid_time`); the tier's limits (billing/limits.py)
raise billing.limits.TierLimitError (HTTP 403, code `tier_limit`) from inside the write's
transaction, after taking the user's account lock, so racing requests cannot both pass."""

from __future__ import annotations

from copy import copy
from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from billing import limits
from config import leases
from digests.delivery import endpoints
from digests.delivery.subject import SubjectTemplateError, check_subject_template
from digests.models import (
    MAX_ITEMS_HARD_CAP,
    SOURCE_WEIGHT_MAX,
    SOURCE_WEIGHT_MIN,
    Run,
    Subscription,
    SubscriptionSource,
)
from digests.runs.runner import MAX_RUN_ATTEMPTS
from digests.schedules.next_run import (
    ScheduleError,
    next_run_after,
    normalize_cron,
    validate_timezone,
)
from digests.subscriptions import interests, source_sets
from inbox.models import UserPreference
from inbox.page_cache import inbox_changed
from ingest.models import UserSource
from ingest.text.reading import ReadingLevelError, clean_reading_levels
from ingest.text.sections import SectionError, clean_sections
from topics.followers import followers_changed

LENGTH_PRESETS = {"brief": 10, "standard": 20, "deep": 30}
# Languages a brief can be written in when the subscription fixes one (SPEC §7).
OUTPUT_LOCALES = ("en", "zh-hans", "ja", "ko")


@dataclass(frozen=True)
class Template:
    """A one-click subscription. Name and topic are shown in the reader's language and stored
    in it; the interests stay as written, being what the (mostly English) sources say."""

    key: str
    name: str
    topic: str
    interests: tuple[str, ...]
    cron: str
    length: str


TEMPLATES = {
    t.key: t
    for t in [
        Template(
            "ai-daily",
            gettext_lazy("AI Daily"),
            gettext_lazy("Artificial intelligence and machine learning"),
            ("AI", "LLM", "language model", "machine learning", "inference", "agents"),
            "0 8 * * *",
            "standard",
        ),
        Template(
            "product-weekly",
            gettext_lazy("Product & Startups weekly"),
            gettext_lazy("Product management and startups"),
            ("startup", "product", "pricing", "onboarding", "fundraising", "growth"),
            "0 9 * * 1",
            "standard",
        ),
        Template(
            "engineering-deep-dives",
            gettext_lazy("Engineering deep dives"),
            gettext_lazy("Software engineering in depth"),
            ("PostgreSQL", "Python", "Rust", "database", "performance", "architecture"),
            "0 7 * * 6",
            "deep",
        ),
        Template(
            "frontend-weekly",
            gettext_lazy("Frontend weekly"),
            gettext_lazy("Frontend and web platform"),
            ("CSS", "JavaScript", "TypeScript", "React", "browser", "web platform"),
            "0 9 * * 5",
            "standard",
        ),
        Template(
            "security-daily",
            gettext_lazy("Security daily"),
            gettext_lazy("Security news and vulnerabilities"),
            ("security", "vulnerability", "CVE", "SSRF", "supply chain", "patch"),
            "0 7 * * *",
            "brief",
        ),
    ]
}

EDITABLE_FIELDS = (
    "name",
    "topic",
    "interests",
    "negative_keywords",
    "min_score",
    "max_items",
    "content_window_hours",
    "redelivery",
    "cooldown_days",
    "cron",
    "timezone",
    "run_at",
    "language_mode",
    "output_locale",
    "summaries_enabled",
    "narrative_enabled",
    "tone",
    "reading_levels",
    "sections",
    "email_enabled",
    "email_to",
    "email_subject",
    "webhook_url",
)


class SubscriptionInputError(Exception):
    """`errors` maps each refused field to its message; `code` is the API answer's code
    (`not_found` for ids that are not the user's, `taken` for a name in use: 404 and 409)."""

    def __init__(self, errors: dict[str, str], *, code: str = "invalid"):
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))
        self.errors = errors
        self.code = code


def _choose_one_of(choices) -> str:
    return _("Choose one of %(choices)s.") % {"choices": ", ".join(choices)}


def _keywords(value, field: str, errors: dict) -> list[str]:
    if value in (None, ""):
        return []
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        errors[field] = _("Must be a list of words or phrases (or one comma-separated string).")
        return []
    cleaned = list(dict.fromkeys(v.strip() for v in value if v.strip()))
    if len(cleaned) > 30:
        errors[field] = _("At most 30 entries.")
    elif any(len(v) > 100 for v in cleaned):
        errors[field] = _("Each entry is at most 100 characters.")
    return cleaned


def _int_in_range(value, field, low, high, errors) -> int | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        errors[field] = _("Must be a whole number from %(low)s to %(high)s.") % {
            "low": low,
            "high": high,
        }
        return None
    if not low <= number <= high:
        errors[field] = _("Must be from %(low)s to %(high)s; got %(number)s.") % {
            "low": low,
            "high": high,
            "number": number,
        }
        return None
    return number


def clean_input(data: dict, *, user, now: datetime, instance: Subscription | None = None) -> dict:
    """Validate the fields present in `data` (all of them on create); return clean values."""
    errors: dict[str, str] = {}
    # Fields each valid alone but refused together, with what is stored or against the clock:
    # checked after each field's own rules (400), answered 422 (`invalid_combination`,
    # `invalid_time`) — no schema can state them.
    combination: dict[str, str] = {}
    too_early: dict[str, str] = {}
    not_yours: dict[str, str] = {}
    creating = instance is None
    clean: dict = {}
    data = dict(data)

    if "length" in data and data["length"] not in (None, ""):
        if data["length"] not in LENGTH_PRESETS:
            errors["length"] = _choose_one_of(LENGTH_PRESETS)
        else:
            data.setdefault("max_items", LENGTH_PRESETS[data["length"]])

    if creating or "name" in data:
        name = str(data.get("name") or "").strip()
        if not name:
            errors["name"] = _("A name is required.")
        elif len(name) > 200:
            errors["name"] = _("At most %(count)s characters.") % {"count": 200}
        clean["name"] = name
    if creating or "topic" in data:
        topic = str(data.get("topic") or "").strip()
        if len(topic) > 500:
            errors["topic"] = _("At most %(count)s characters.") % {"count": 500}
        clean["topic"] = topic
    for field in ("interests", "negative_keywords"):
        if field in data:
            clean[field] = _keywords(data[field], field, errors)
    if "min_score" in data:
        clean["min_score"] = _int_in_range(data["min_score"], "min_score", 0, 100, errors)
    if "max_items" in data:
        clean["max_items"] = _int_in_range(
            data["max_items"], "max_items", 1, MAX_ITEMS_HARD_CAP, errors
        )
    if "content_window_hours" in data:
        clean["content_window_hours"] = _int_in_range(
            data["content_window_hours"], "content_window_hours", 1, 24 * 90, errors
        )
    if "cooldown_days" in data:
        clean["cooldown_days"] = _int_in_range(
            data["cooldown_days"], "cooldown_days", 1, 365, errors
        )
    if "redelivery" in data:
        if data["redelivery"] not in Subscription.Redelivery.values:
            errors["redelivery"] = _choose_one_of(Subscription.Redelivery.values)
        clean["redelivery"] = data["redelivery"]
    if "language_mode" in data:
        if data["language_mode"] not in Subscription.LanguageMode.values:
            errors["language_mode"] = _choose_one_of(Subscription.LanguageMode.values)
        clean["language_mode"] = data["language_mode"]
    if "tone" in data:
        clean["tone"] = str(data["tone"] or "").strip()[:32]
    if "reading_levels" in data:
        try:
            clean["reading_levels"] = clean_reading_levels(data["reading_levels"])
        except ReadingLevelError as exc:
            errors["reading_levels"] = str(exc)
    if "sections" in data:
        try:
            clean["sections"] = clean_sections(data["sections"])
        except SectionError as exc:
            errors["sections"] = str(exc)
    if "output_locale" in data:
        clean["output_locale"] = str(data["output_locale"] or "").strip().lower()
    if "language_mode" in data or "output_locale" in data:
        mode = clean.get("language_mode", instance.language_mode if instance else None)
        locale = clean.get("output_locale", instance.output_locale if instance else "")
        fixed = mode == Subscription.LanguageMode.FIXED
        if locale and locale not in OUTPUT_LOCALES and "output_locale" in data:
            errors["output_locale"] = _("Choose one of %(choices)s; got %(value)s.") % {
                "choices": ", ".join(OUTPUT_LOCALES),
                "value": repr(locale[:40]),
            }
        elif locale and locale not in OUTPUT_LOCALES and fixed:
            # The stored locale (no longer offered) with a fixed language asked for now.
            combination["output_locale"] = _("Choose one of %(choices)s; got %(value)s.") % {
                "choices": ", ".join(OUTPUT_LOCALES),
                "value": repr(locale[:40]),
            }
        elif fixed and not locale:
            combination["output_locale"] = _(
                "A fixed language needs an output_locale: one of %(choices)s."
            ) % {"choices": ", ".join(OUTPUT_LOCALES)}
    for field in ("summaries_enabled", "narrative_enabled", "email_enabled"):
        if field in data:
            if not isinstance(data[field], bool):
                errors[field] = _("Must be true or false.")
            clean[field] = bool(data[field])

    refused_url: dict[str, str] = {}
    _clean_delivery(data, clean, errors, instance, refused_url)

    # Schedule: a cron expression (with a timezone) or a one-off run_at.
    timezone_name = data.get("timezone", instance.timezone if instance else "UTC")
    try:
        validate_timezone(timezone_name)
        clean["timezone"] = timezone_name
    except ScheduleError as exc:
        errors[exc.field] = exc.message
    cron = data.get("cron", instance.cron if instance else "")
    run_at = data.get("run_at", instance.run_at if instance else None)
    if instance is not None and instance.watch_source_id:
        # A watch's notifier (digests/watches/notifiers.py) runs when its page changes, never on a
        # schedule; how often the page is checked is the watch's setting.
        if cron or run_at:
            field = "cron" if cron else "run_at"
            combination[field] = _(
                "A watch notifies when its page changes and has no schedule; change how often "
                "the page is checked in the watch's settings."
            )
        clean["cron"], clean["run_at"] = "", None
    elif cron:
        try:
            normalize_cron(cron)
            clean["cron"] = " ".join(str(cron).split())  # kept as typed: "@daily" stays readable
        except ScheduleError as exc:
            (combination if exc.code == "invalid_combination" else errors)[exc.field] = exc.message
        clean["run_at"] = None
    elif run_at:
        if isinstance(run_at, str):
            try:
                run_at = datetime.fromisoformat(run_at)
            except ValueError:
                errors["run_at"] = _("Must be an ISO 8601 date and time.")
                run_at = None
        if run_at is not None and run_at.tzinfo is None:
            errors["run_at"] = _("Must include a UTC offset (or be chosen with a timezone).")
        elif run_at is not None and run_at <= now:
            too_early["run_at"] = _("Must be in the future.")
        clean["cron"] = ""
        clean["run_at"] = run_at
    elif creating or "cron" in data or "run_at" in data:
        combination["cron"] = _("Give a schedule: a cron expression, or a one-off run_at time.")

    if "source_ids" in data:
        ids = data["source_ids"] or []
        if not isinstance(ids, list | tuple) or not all(str(i).isdigit() for i in ids):
            errors["source_ids"] = _("Must be a list of source ids from your library.")
        else:
            wanted = {int(i) for i in ids}
            owned = set(
                UserSource.objects.filter(user=user, source_id__in=wanted).values_list(
                    "source_id", flat=True
                )
            )
            if instance is not None and instance.pk:
                # What the subscription already reads may stay, in the library or not (a
                # followed topic's or a pack's sources, the demo's): only new ones must be yours.
                owned |= set(
                    instance.subscriptionsource_set.filter(source_id__in=wanted).values_list(
                        "source_id", flat=True
                    )
                )
            if wanted - owned:
                not_yours["source_ids"] = _("Not in your source library: %(ids)s.") % {
                    "ids": ", ".join(map(str, sorted(wanted - owned)))
                }
            clean["source_ids"] = sorted(wanted)

    if "source_weights" in data:
        clean["source_weights"] = _source_weights(
            data["source_weights"], clean.get("source_ids"), instance, errors, not_yours
        )

    topic = clean.get("topic", instance.topic if instance else "")
    interests = clean.get("interests", instance.interests if instance else [])
    source_ids = clean.get("source_ids")
    has_sources = bool(source_ids) or (
        instance is not None and source_ids is None and instance.sources.exists()
    )
    if creating and not (topic or interests or has_sources):
        combination["topic"] = _("Give a topic, some interests, or at least one source.")
    if errors:
        raise SubscriptionInputError(errors)
    if refused_url:
        code = refused_url.pop("code")
        raise SubscriptionInputError(refused_url, code=code)
    if combination:
        raise SubscriptionInputError(combination, code="invalid_combination")
    if too_early:
        raise SubscriptionInputError(too_early, code="invalid_time")
    if not_yours:
        # Only once the input is right: ids that name nothing of the user's (404 in the API).
        raise SubscriptionInputError(not_yours, code="not_found")
    return clean


def _clean_delivery(data: dict, clean: dict, errors: dict, instance, refused: dict) -> None:
    """Email and webhook settings (SPEC §11)."""
    if "email_to" in data:
        address = str(data["email_to"] or "").strip().lower()
        if address:
            try:
                validate_email(address)
            except ValidationError:
                errors["email_to"] = _("Enter a valid email address, or leave it empty.")
        clean["email_to"] = address
    if "email_subject" in data:
        try:
            clean["email_subject"] = check_subject_template(str(data["email_subject"] or ""))
        except SubjectTemplateError as exc:
            errors["email_subject"] = exc.message
    if "webhook_url" in data:
        try:
            clean["webhook_url"] = endpoints.check_url(str(data["webhook_url"] or ""))
        except endpoints.WebhookURLError as exc:
            if exc.code == "invalid":
                errors["webhook_url"] = exc.message
            else:
                # The fetch policy's refusal (a private address): 422 with its code.
                refused["webhook_url"] = exc.message
                refused["code"] = exc.code
    # A permanent refusal shown on the subscription is about the old settings: a new address,
    # or email turned on again, starts afresh.
    changed = any(
        name in clean and (instance is None or getattr(instance, name) != clean[name])
        for name in ("email_to", "email_enabled")
    )
    if changed:
        clean["email_error"] = ""
        clean["email_error_at"] = None


def _schedule_next(subscription: Subscription, now: datetime) -> None:
    if subscription.status != Subscription.Status.ACTIVE:
        subscription.next_run_at = None
    elif subscription.cron:
        subscription.next_run_at = next_run_after(subscription.cron, subscription.timezone, now)
    else:
        subscription.next_run_at = subscription.run_at


def _source_weights(value, source_ids, instance, errors, not_yours) -> dict[int, float]:
    """{source id: weight} for sources of the subscription (as `source_ids` leaves it), each
    from SOURCE_WEIGHT_MIN to SOURCE_WEIGHT_MAX."""
    rule = _("Must map source ids of this subscription to weights from %(min)s to %(max)s.") % {
        "min": SOURCE_WEIGHT_MIN,
        "max": f"{SOURCE_WEIGHT_MAX:g}",
    }
    if not isinstance(value, dict):
        errors["source_weights"] = rule
        return {}
    weights = {}
    for key, weight in value.items():
        if not str(key).isdigit():
            # Not an id at all, so not a source of this subscription either (404 in the API:
            # what a key must name is a matter of what exists).
            not_yours["source_weights"] = _("Not a source of this subscription: %(ids)s.") % {
                "ids": repr(str(key)[:40])
            }
            return {}
        if (
            isinstance(weight, bool)
            or not isinstance(weight, int | float)
            or not SOURCE_WEIGHT_MIN <= weight <= SOURCE_WEIGHT_MAX
        ):
            errors["source_weights"] = rule
            return {}
        weights[int(key)] = float(weight)
    if source_ids is None:
        source_ids = (
            list(instance.subscriptionsource_set.values_list("source_id", flat=True))
            if instance is not None and instance.pk
            else []
        )
    if unknown := sorted(set(weights) - set(source_ids)):
        not_yours["source_weights"] = _("Not a source of this subscription: %(ids)s.") % {
            "ids": ", ".join(map(str, unknown))
        }
        return {}
    return weights


def _set_sources(
    subscription: Subscription, source_ids: list[int] | None, weights: dict[int, float] | None
) -> None:
    """The subscription's sources become `source_ids` (None: unchanged), and the sources named
    in `weights` take their weight."""
    if source_ids is not None:
        SubscriptionSource.objects.filter(subscription=subscription).exclude(
            source_id__in=source_ids
        ).delete()
        SubscriptionSource.objects.bulk_create(
            [SubscriptionSource(subscription=subscription, source_id=i) for i in source_ids],
            ignore_conflicts=True,
        )
        # Seed 002's subscription hash, in the same transaction as the change.
        source_sets.refresh_subscriptions([subscription.pk])
    for source_id, weight in (weights or {}).items():
        SubscriptionSource.objects.filter(subscription=subscription, source_id=source_id).update(
            weight=weight
        )


def _check_plan(
    user_id: int,
    *,
    cron: str,
    timezone: str,
    now: datetime,
    check_schedule: bool,
    one_more_recurring: bool,
    exclude_pk: int | None = None,
) -> None:
    """The tier's limits on a subscription about to be written; call inside its transaction."""
    if not (cron and (check_schedule or one_more_recurring)):
        return  # a one-off delivery runs once: no interval, not counted
    account = limits.lock_account(user_id, now=now)
    if one_more_recurring:
        limits.check_subscription_count(account, user_id=user_id, exclude_pk=exclude_pk)
    limits.check_schedule(account, cron, timezone, now=now)


def user_locale(user) -> str:
    preference = UserPreference.objects.filter(user=user).only("ui_locale").first()
    return preference.ui_locale if preference else "en"


def create_subscription(user, data: dict, *, now: datetime) -> Subscription:
    """A new subscription. With a webhook URL, `subscription.webhook_secret` holds the new
    endpoint's secret: the one time it is available in clear."""
    clean = clean_input(data, user=user, now=now)
    source_ids = clean.pop("source_ids", [])
    source_weights = clean.pop("source_weights", None)
    webhook_url = clean.pop("webhook_url", "")
    if not clean.get("interests") and clean.get("topic"):
        # A topic in plain words and no interests: derive them (a model call at most, made
        # before the transaction); the subscription page shows them, and they stay editable.
        suggestion = interests.suggest(clean["topic"], locale=user_locale(user), now=now)
        clean["interests"] = suggestion.interests
        if "negative_keywords" not in data:
            clean["negative_keywords"] = suggestion.negative_keywords
    with transaction.atomic():
        _check_plan(
            user.pk,
            cron=clean.get("cron", ""),
            timezone=clean.get("timezone", "UTC"),
            now=now,
            check_schedule=True,
            one_more_recurring=True,
        )
        subscription = Subscription(owner=user, **clean)
        _schedule_next(subscription, now)
        subscription.save()
        _set_sources(subscription, source_ids, source_weights)
        subscription.webhook_secret = endpoints.set_url(subscription, webhook_url, now=now)
        inbox_changed(user.pk)  # the Inbox's filter lists subscriptions by name
    return subscription


def check_draft(user, data: dict, *, now: datetime) -> None:
    """Every field of `data` checked as creating a subscription would check it, the delivery
    settings (`webhook_url`, `email_to`…) included although a preview does not use them: the
    API's preview refuses what creating would refuse (SubscriptionInputError naming each)."""
    base = Subscription(owner=user, name="-", cron="")
    clean_input({"source_ids": [], **data}, user=user, now=now, instance=base)


# What a preview of a form not saved yet depends on; the rest of the form is not needed.
DRAFT_FIELDS = (
    "topic",
    "interests",
    "negative_keywords",
    "min_score",
    "max_items",
    "length",
    "content_window_hours",
    "reading_levels",
    "sections",
    "source_ids",
)


@dataclass
class Draft:
    """An unsaved subscription for a preview, and the sources it would read (None: the saved
    subscription's own)."""

    subscription: Subscription
    source_ids: list[int] | None
    suggestion: interests.Suggestion | None = None


def draft(
    user,
    data: dict,
    *,
    now: datetime,
    instance: Subscription | None = None,
    suggest: bool = False,
    use_model: bool = True,
) -> Draft:
    """`data` (a form's values, maybe incomplete) applied to a copy of `instance`, or to a new
    subscription, without saving anything. `suggest` derives the interests from the topic
    afresh; empty interests are derived anyway, as creating would. Refused values raise
    SubscriptionInputError like a save would."""
    data = {k: v for k, v in data.items() if k in DRAFT_FIELDS}
    if instance is None:
        base = Subscription(owner=user, name="-", cron="0 8 * * *")
        data.setdefault("source_ids", [])
    else:
        base = copy(instance)
    clean = clean_input(data, user=user, now=now, instance=base)
    source_ids = clean.pop("source_ids", None)
    for name, value in clean.items():
        if name in DRAFT_FIELDS:
            setattr(base, name, value)
    suggestion = None
    if base.topic and (suggest or not base.interests):
        suggestion = interests.suggest(
            base.topic, locale=user_locale(user), now=now, use_model=use_model
        )
        base.interests = suggestion.interests
        if not base.negative_keywords:
            base.negative_keywords = suggestion.negative_keywords
    return Draft(base, source_ids, suggestion)


def create_from_template(user, key: str, *, now: datetime, timezone: str, source_ids=()):
    template = TEMPLATES.get(key)
    if template is None:
        raise SubscriptionInputError(
            {"template": _("Unknown template %(key)s.") % {"key": repr(key)}}
        )
    return create_subscription(
        user,
        {
            "name": str(template.name),
            "topic": str(template.topic),
            "interests": list(template.interests),
            "cron": template.cron,
            "timezone": timezone,
            "length": template.length,
            "source_ids": list(source_ids),
        },
        now=now,
    )


def update_subscription(subscription: Subscription, data: dict, *, now: datetime):
    """Change what `data` names. A webhook URL set for the first time leaves the new secret in
    `subscription.webhook_secret` (else None)."""
    clean = clean_input(data, user=subscription.owner, now=now, instance=subscription)
    source_ids = clean.pop("source_ids", None)
    source_weights = clean.pop("source_weights", None)
    webhook_url = clean.pop("webhook_url", None)
    subscription.webhook_secret = None
    schedule_changed = any(k in clean for k in ("cron", "timezone", "run_at"))
    cron = clean.get("cron", subscription.cron)
    timezone = clean.get("timezone", subscription.timezone)
    with transaction.atomic():
        _check_plan(
            subscription.owner_id,
            cron=cron,
            timezone=timezone,
            now=now,
            check_schedule=(cron, timezone) != (subscription.cron, subscription.timezone),
            # A one-off given a cron becomes recurring: it needs a place like a new one.
            one_more_recurring=not subscription.cron,
            exclude_pk=subscription.pk,
        )
        for name, value in clean.items():
            setattr(subscription, name, value)
        if schedule_changed:
            if subscription.status == Subscription.Status.COMPLETED and subscription.cron:
                subscription.status = Subscription.Status.ACTIVE
            _schedule_next(subscription, now)
        subscription.save()
        if source_ids is not None or source_weights:
            _set_sources(subscription, source_ids, source_weights)
        if webhook_url is not None:
            subscription.webhook_secret = endpoints.set_url(subscription, webhook_url, now=now)
        inbox_changed(subscription.owner_id)  # its name shows on the Inbox
    return subscription


def pause(subscription: Subscription) -> None:
    subscription.status = Subscription.Status.PAUSED
    subscription.paused_reason = ""  # paused by its owner
    subscription.next_run_at = None
    subscription.save(update_fields=["status", "paused_reason", "next_run_at", "updated_at"])


def resume(subscription: Subscription, *, now: datetime) -> None:
    """Active again, if the tier has room for one more active recurring subscription and its
    schedule fits the tier (raises billing.limits.TierLimitError otherwise)."""
    if subscription.status == Subscription.Status.ACTIVE:
        return  # recomputing from `now` would skip a run that is due but not yet claimed
    with transaction.atomic():
        if subscription.cron:
            account = limits.lock_account(subscription.owner_id, now=now)
            limits.check_active_count(
                account, user_id=subscription.owner_id, exclude_pk=subscription.pk
            )
            limits.check_schedule(account, subscription.cron, subscription.timezone, now=now)
        subscription.status = Subscription.Status.ACTIVE
        subscription.paused_reason = ""
        if subscription.run_at and subscription.run_at <= now and not subscription.cron:
            subscription.status = Subscription.Status.COMPLETED
        if subscription.watch_source_id:
            # A watch's notices start again from now: what came meanwhile is not news.
            subscription.notify_since = now
        _schedule_next(subscription, now)
        subscription.save(
            update_fields=["status", "paused_reason", "next_run_at", "notify_since", "updated_at"]
        )


def soft_delete(subscription: Subscription, *, now: datetime) -> None:
    """Delete a subscription (its delivered items stay in the Inbox); for a follow, this is
    unfollowing: the topic's follower count drops at once."""
    with transaction.atomic():
        subscription.deleted_at = now
        subscription.next_run_at = None
        subscription.save(update_fields=["deleted_at", "next_run_at", "updated_at"])
        inbox_changed(subscription.owner_id)
        followers_changed(subscription.followed_topic_id)


def request_manual_run(subscription: Subscription, *, now: datetime) -> Run:
    """A "Run now": refused (billing.limits.TierLimitError) past the tier's manual runs per
    hour. Whether the run can be afforded is checked when it starts, like any run."""
    with transaction.atomic():
        account = limits.lock_account(subscription.owner_id, now=now)
        limits.check_manual_run(account, user_id=subscription.owner_id, now=now)
        return Run.objects.create(
            subscription=subscription,
            user_id=subscription.owner_id,
            trigger=Run.Trigger.MANUAL,
            scheduled_at=now,
            # A worker should claim it within a lease; if not, the tick hands it out again.
            lease_expires_at=leases.lease_until(now),
        )


class RunStateError(Exception):
    """A run cannot take this step in its current state (the API answers 409)."""

    def __init__(self, message: str, *, status: str):
        super().__init__(message)
        self.message = message
        self.status = status


def retry_run(run: Run, *, now: datetime) -> Run:
    """Put a failed run back to `pending` under the same id; the caller enqueues it exactly as
    "run now" does. Only a failed run can be retried, while it has attempts left (at most
    MAX_RUN_ATTEMPTS claims in all), and a retry counts against the tier's "Run now" limit
    (billing.limits.TierLimitError past it). All of it is decided under the account's row lock,
    so 20 retries at once are one retry, and the attempt cap holds. A failed run delivered
    nothing and was not charged (delivery, success and the charge commit together), so a retry
    can neither deliver nor charge twice; the runner's budget check applies to the retry like
    to any run."""
    subscription = Subscription.objects.filter(pk=run.subscription_id).only("deleted_at").first()
    if subscription is None or subscription.deleted_at is not None:
        raise RunStateError(
            _("The subscription of this run was deleted; its runs cannot be retried."),
            status=run.status,
        )
    if run.trigger == Run.Trigger.IMPORTED:
        raise RunStateError(
            _("This run was imported from another Tidings; it is history and cannot be retried."),
            status=run.status,
        )
    with transaction.atomic():
        account = limits.lock_account(run.user_id, now=now)
        run.refresh_from_db()
        if run.status != Run.Status.FAILED:
            raise RunStateError(
                _("Only a failed run can be retried; this run is %(status)s.")
                % {"status": run.status},
                status=run.status,
            )
        if run.attempts >= MAX_RUN_ATTEMPTS:
            raise RunStateError(
                _(
                    "This run was attempted %(attempts)d times, the most a run gets; "
                    "use “Run now” for a new run."
                )
                % {"attempts": run.attempts},
                status=run.status,
            )
        limits.check_manual_run(account, user_id=run.user_id, now=now)
        Run.objects.filter(pk=run.pk, status=Run.Status.FAILED).update(
            status=Run.Status.PENDING,
            finished_at=None,
            retried_at=now,
            lease_expires_at=leases.lease_until(now),
        )
        run.refresh_from_db()
    return run
