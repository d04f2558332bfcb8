"""A run (SPEC §6): candidates -> score -> per-user dedup and redelivery -> select -> deliver.

`execute_run()` is the one place a run happens: the worker task, the tick command, "run now"
in the console and the API all call it. Billing wraps it at two points (billing/charges.py):
the budget check right after the claim, before any work, and the one charge inside the
delivery transaction. `preview()` runs the same selection, writes nothing and is never charged.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connections, transaction
from django.db.models import Case, CharField, F, Q, Value, When
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce, Length, Substr
from django.db.models.lookups import LessThan
from django.utils import translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, ngettext

from billing import charges
from config import leases
from digests.ai import enrichment, llm, periods
from digests.ai import relevance as model_relevance
from digests.delivery.service import plan_for_run as plan_deliveries
from digests.models import Run, RunItem, Subscription, SubscriptionSource
from digests.narrative import reasons, writer
from digests.narrative.language import output_locale_for
from digests.narrative.summaries import TEMPLATE, template_narrative
from digests.runs import on_run
from digests.runs.meter import RunMeter
from digests.runs.scoring import (
    BODY_HEAD_HTML_CHARS,
    MEANING_SAID,
    SHORT_SUMMARY_CHARS,
    Feedback,
    Interests,
    Query,
    Relevance,
    documents,
    expansion_terms,
    impact,
    meaning_points,
    meaning_topic,
    overall,
    rank,
    ranking_summary,
    weigh_by_source,
)
from inbox.models import UserContentState, UserPreference
from inbox.page_cache import inbox_changed
from ingest.models import ContentItem, ContentItemSource
from ingest.pool.full_text import ensure_full_text_of_top
from ingest.pool.levels import rate_unrated, reading_level_in
from ingest.pool.recent import id_set, recent_item_ids
from ingest.pool.search_index import search_pool
from ingest.pool.size import items_in_window
from ingest.pool.visibility import visible_to
from topics.candidates import followed_topic_item_ids

logger = logging.getLogger(__name__)

CANDIDATE_LIMIT = 1000
# A run is claimed at most this many times (a claim whose worker died, or whose database
# connection dropped, counts); after that it is failed and can be retried by hand.
MAX_RUN_ATTEMPTS = 2
CONTENT_UPDATE_MIN_GAP = timedelta(days=1)
# The pool's index is searched for at most this many of the interests' words, and feedback
# words bring at most FEEDBACK_CANDIDATE_LIMIT more candidates.
MAX_SEARCH_TERMS = 16
FEEDBACK_CANDIDATE_LIMIT = 300
# A reader's saved, read and not-interested items of this many days shape their runs.
FEEDBACK_DAYS = 60
FEEDBACK_STATES = 200
# All model calls of one run (relevance, summaries, narrative), well inside the worker's
# 300 s task timeout; a call that would pass it falls back instead.
LLM_STAGE_SECONDS = 150


@dataclass
class Candidate:
    item_id: int
    canonical_url: str
    canonical_url_hash: str
    title: str
    description: str
    site_name: str
    published_at: datetime
    content_hash: str
    relevance: int
    overall: int  # 0-100, as stored and shown: `ranking` capped at 100
    # Why it matched (scoring.Relevance): the interests, the field and the feedback words it
    # has are worked out when first asked for (`matched`, `field`, `related`) — a preview
    # scores hundreds of candidates and shows about ten.
    evidence: Relevance = field(repr=False, compare=False)
    redelivery: bool = False
    # What the reader's saved, read and dismissed items did to it (scoring.Feedback).
    liked: list[str] = field(default_factory=list)
    disliked: list[str] = field(default_factory=list)
    muted_source: str = ""
    # The weight the reader gave the item's source in this subscription, and that source.
    source_weight: float = 1.0
    weighted_source: str = ""
    llm_reason: str = ""  # the model's one-line "why" (digests/ai/relevance.py), when it ran
    strengths: str = ""  # the item's strongest score parts in words (ingest/text/scores.py)
    # Whether its short summary was ranked completed from its body (scoring.ranking_summary):
    # what it matched beyond the title is then said to be in the text, not the summary.
    summary_from_body: bool = False
    # The overall score before its cap, which orders the candidates: closeness in meaning
    # (scoring.meaning_points) can take several strong matches past 100. None: `overall`.
    ranking: int | None = None
    # Whether closeness in meaning lifted it (scoring.MEANING_SAID), which "why selected" says.
    close_in_meaning: bool = False

    @property
    def ranking_score(self) -> int:
        return self.overall if self.ranking is None else self.ranking

    def order_key(self) -> tuple:
        """Best first; of equals, the newest."""
        return (-self.ranking_score, -self.published_at.timestamp(), self.item_id)

    @property
    def matched(self) -> list[str]:
        return self.evidence.matched

    @property
    def field(self) -> str | None:
        return self.evidence.field

    @property
    def in_title(self) -> list[str]:
        return self.evidence.in_title

    @property
    def related(self) -> list[str]:
        """The feedback words it has (scoring.expansion_terms)."""
        return self.evidence.expansions

    def reason(self, zone: str | None = None) -> str:
        """Why this item was picked, in the active language; its publication time in `zone`
        (the subscription's; default: the active zone). Stored as parts:
        digests.narrative.reasons."""
        return reasons.render(reasons.parts_for(self, zone))


@dataclass
class Selection:
    candidates_count: int = 0
    above_min_score: int = 0
    selected: list[Candidate] = field(default_factory=list)
    dedup_skipped: int = 0
    redelivered: int = 0
    empty_reason: str = ""
    # Preview only: what matched the interests at any score, the best score below the
    # minimum, the interests used, and what to change when nothing would be delivered.
    matched: int = 0
    best_below_min: int | None = None
    interests: tuple[str, ...] = ()
    advice: str = ""


def interests_for(subscription: Subscription) -> Interests:
    terms = list(subscription.interests or [])
    if not terms and subscription.topic:
        terms = [subscription.topic]
    return Interests.build(terms, subscription.negative_keywords or [])


@dataclass
class CandidateRows:
    rows: list[dict]
    # Whether they came from the whole pool (a topic-only subscription), where feedback may
    # search for more.
    from_pool: bool = False
    # {source id: (weight, title)} of the subscription's sources when any is weighted.
    source_weights: dict[int, tuple[float, str]] = field(default_factory=dict)


def _candidate_rows(
    subscription: Subscription, query: Query, now: datetime, source_ids=None
) -> CandidateRows:
    """The window's candidate rows."""
    since = now - timedelta(hours=subscription.content_window_hours)
    until = now + timedelta(hours=1)
    source_weights = {}
    if source_ids is None:
        sources = SubscriptionSource.objects.filter(
            subscription=subscription, enabled=True
        ).values_list("source_id", "weight", "source__title")
        source_ids = [source_id for source_id, _w, _t in sources]
        if any(weight != 1 for _s, weight, _t in sources):
            source_weights = {source_id: (weight, title) for source_id, weight, title in sources}
    # First cut: at most CANDIDATE_LIMIT ids, newest first, read from an index only as far as
    # needed, so a run costs about the same on a pool of 100k items or of 1M.
    from_pool = False
    if subscription.followed_topic_id:
        # Follow mode: the topic's published editions are the candidates; the follower's own
        # tweaks (keywords, min score, max items) still apply in scoring.
        candidate_ids = followed_topic_item_ids(
            subscription.followed_topic_id, since=since, limit=CANDIDATE_LIMIT
        )
    elif source_ids:
        sighted_since = since
        if subscription.watch_source_id and subscription.notify_since:
            # A watch's notifier tells about links that appeared since it was turned on
            # (digests/watches/notifiers.py): what others' watch of the same list found before is
            # not news to it.
            sighted_since = max(since, subscription.notify_since)
        candidate_ids = recent_item_ids(source_ids, since=sighted_since, limit=CANDIDATE_LIMIT)
    else:
        # Topic-only: the whole pool through the full-text index, any of the interests' words;
        # scoring decides what matches.
        if not query:
            return CandidateRows([])
        from_pool = True
        candidate_ids = search_pool(
            query.search_terms()[:MAX_SEARCH_TERMS],
            since=since,
            until=until,
            limit=CANDIDATE_LIMIT,
            order="recent",
        )
    rows = _rows(subscription, candidate_ids, since=since, until=until, from_pool=from_pool)
    return CandidateRows(rows, from_pool, source_weights)


def _item_weights(rows: list[dict], source_weights: dict[int, tuple[float, str]]):
    """Each row's source weight and the source it comes from: of the subscription's sources
    that have the item, the one weighted most (1, "" when none is weighted). One query."""
    weights = [(1.0, "")] * len(rows)
    if not source_weights or not rows:
        return weights
    by_item: dict[int, tuple[float, str]] = {}
    for item_id, source_id in ContentItemSource.objects.filter(
        item_id__in=id_set([row["id"] for row in rows]), source_id__in=list(source_weights)
    ).values_list("item_id", "source_id"):
        weight = source_weights[source_id]
        if item_id not in by_item or weight[0] > by_item[item_id][0]:
            by_item[item_id] = weight
    return [by_item.get(row["id"], (1.0, "")) for row in rows]


# What a candidate row holds (`_rows`): only what scoring and a candidate need.
ROW_FIELDS = (
    "id",
    "canonical_url",
    "canonical_url_hash",
    "title",
    "description",
    "site_name",
    "when",
    "content_hash",
    "score_impact",
    "score_quality",
    "strengths",
    "body_head",
)


def _rows(
    subscription: Subscription, candidate_ids, *, since, until, from_pool: bool = False
) -> list[dict]:
    # Rows by primary key; the window is checked here (sightings were cut by when the source
    # saw the item, not by its publication time) so no time index can steer this lookup.
    items = ContentItem.objects.filter(
        id__in=id_set(candidate_ids), status=ContentItem.Status.ACTIVE
    )
    if from_pool:
        # The whole pool, not the reader's sources: never another reader's newsletter issue.
        items = items.filter(visible_to(subscription.owner_id))
    if subscription.reading_levels:
        # Only items rated at a wanted level. Rating happens after ingest, in the worker: rate
        # any candidate still waiting, so a brief never misses an item that just arrived.
        rate_unrated(candidate_ids)
        items = items.filter(reading_level_in(subscription.reading_levels))
    if subscription.sections:
        # Only items whose section (feed category or address, ingest/text/sections.py) is
        # wanted; an item with no known section is left out while a section is chosen.
        items = items.filter(section__in=subscription.sections)
    connection = connections[items.db]
    # SQLite hands a date and time back as text, which Django's converter parses row by row
    # (a quarter of reading a thousand rows): read as text there, parsed below in C.
    as_text = connection.vendor == "sqlite"
    rows = (
        items.annotate(
            when=Coalesce(
                "published_at", "first_seen_at", output_field=CharField() if as_text else None
            ),
            # One short string extracted by the database, not the whole JSON decoded per row.
            strengths=KT("score_reasons__strengths"),
            # The start of the body of an item whose own summary is short, read by the
            # database so a long body never leaves it (scoring.ranking_summary).
            body_head=Case(
                When(
                    LessThan(Length("description"), SHORT_SUMMARY_CHARS),
                    then=Substr("content_html", 1, BODY_HEAD_HTML_CHARS),
                ),
                default=Value(""),
            ),
        )
        .order_by("-when", "-id")
        .values_list(*ROW_FIELDS)
    )
    zone = connection.timezone if as_text else None
    # Tuples made into dicts here (in C) rather than by the queryset's `values()`.
    kept = []
    for values in rows:
        row = dict(zip(ROW_FIELDS, values, strict=True))
        if as_text:
            row["when"] = _sqlite_datetime(row["when"], zone)
        if since <= row["when"] <= until:
            kept.append(row)
    return kept


def _sqlite_datetime(value: str, zone) -> datetime:
    """A date and time as SQLite stores it, read as Django's converter reads it: ISO format,
    naive values in the connection's zone."""
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        moment = parse_datetime(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=zone)


def _with_feedback(
    subscription: Subscription,
    interests: Interests,
    query: Query,
    rows: list[dict],
    *,
    from_pool: bool,
    now: datetime,
):
    """Rank `rows`; then, when the best of them agree on words the interests do not say
    (scoring.expansion_terms), add those words to the query — and, for a topic-only
    subscription, the pool's items that use them — and rank again."""
    docs = documents(rows)
    since = now - timedelta(hours=subscription.content_window_hours)
    until = now + timedelta(hours=1)
    # A topic-only run's candidates are the pool's items with its words: the pool in the window
    # is the collection its words are weighed against (scoring.rank).
    collection = items_in_window(since, until) if from_pool else 0
    ranked = rank(interests, docs, query, collection=collection)
    expansions = expansion_terms(query, docs, ranked) if query else {}
    if not expansions:
        return rows, docs, ranked
    if from_pool:
        known = {row["id"] for row in rows}
        more_ids = [
            item_id
            for item_id in search_pool(
                list(expansions.values()),
                since=since,
                until=until,
                limit=FEEDBACK_CANDIDATE_LIMIT,
                order="recent",
            )
            if item_id not in known
        ]
        if more_ids:
            more = _rows(subscription, more_ids, since=since, until=until, from_pool=True)
            rows = rows + more
            docs = docs + documents(more)
    return rows, docs, rank(interests, docs, query.expanded(expansions), collection=collection)


def reader_feedback(user_id: int | None, query: Query, *, now: datetime) -> Feedback:
    """What the owner's saved, read and not-interested items of the last FEEDBACK_DAYS say
    (scoring.Feedback): one query, at most FEEDBACK_STATES items."""
    if user_id is None:
        return Feedback()
    since = now - timedelta(days=FEEDBACK_DAYS)
    states = (
        UserContentState.objects.filter(user_id=user_id)
        .filter(Q(saved_at__gte=since) | Q(read_at__gte=since) | Q(not_interested_at__gte=since))
        .order_by("-id")
        .values(
            "not_interested_at",
            title=F("item__title"),
            description=F("item__description"),
            site_name=F("item__site_name"),
        )[:FEEDBACK_STATES]
    )
    kept, dismissed = [], []
    for state in states:
        (dismissed if state["not_interested_at"] else kept).append(state)
    return Feedback.learn(kept, dismissed, query)


def score_candidates(
    subscription: Subscription,
    *,
    now: datetime,
    source_ids: list[int] | None = None,
    personal: bool = True,
    below: list[int] | None = None,
) -> tuple[int, list[Candidate]]:
    """All candidates of the window scored, those at or above min_score, best first; the
    overall score of each matching candidate under min_score is added to `below` when given
    (a preview says how close they came: no candidate is built for them).

    `source_ids` replaces the subscription's own sources: a public topic's edition is scored
    with an unsaved subscription built from the topic's configuration (topics/editions.py),
    and not `personal`: one reader's saved and dismissed items do not shape what everyone sees."""
    interests = interests_for(subscription)
    query = Query.from_interests(interests)
    candidates = _candidate_rows(subscription, query, now, source_ids)
    rows, docs, ranked = _with_feedback(
        subscription, interests, query, candidates.rows, from_pool=candidates.from_pool, now=now
    )
    if personal and rows:
        feedback = reader_feedback(subscription.owner_id, query, now=now)
        feedback.apply(ranked, docs, [row["site_name"] for row in rows])
    item_weights = _item_weights(rows, candidates.source_weights)
    weigh_by_source(ranked, [weight for weight, _source in item_weights])
    meant = meaning_points(meaning_topic(subscription.topic, interests), rows, ranked)
    scored: list[Candidate] = []
    for row, rel, (weight, weighted_source), points in zip(
        rows, ranked, item_weights, meant, strict=True
    ):
        if rel.score == 0:
            continue
        impact_score = impact(row["score_impact"], row["when"], now)
        total = overall(rel.score, impact_score, row["score_quality"], points)
        if total < subscription.min_score:
            if below is not None:
                below.append(total)
            continue
        scored.append(
            Candidate(
                item_id=row["id"],
                canonical_url=row["canonical_url"],
                canonical_url_hash=row["canonical_url_hash"],
                title=row["title"] or row["canonical_url"],
                description=row["description"],
                site_name=row["site_name"],
                published_at=row["when"],
                content_hash=row["content_hash"],
                relevance=rel.score,
                overall=min(100, total),
                ranking=total,
                close_in_meaning=points >= MEANING_SAID,
                evidence=rel,
                liked=rel.liked,
                disliked=rel.disliked,
                muted_source=rel.muted_source,
                source_weight=weight,
                weighted_source=weighted_source,
                strengths=row["strengths"] or "",
                summary_from_body=bool(row["body_head"])
                and ranking_summary(row["description"], row["body_head"]) != row["description"],
            )
        )
    scored.sort(key=Candidate.order_key)
    return len(rows), scored


def _delivery_decision(
    subscription: Subscription, state: UserContentState | None, candidate: Candidate, now
) -> str:
    """'deliver', 'redeliver' or 'skip' for one candidate given the user's state."""
    if state is None or state.delivered_count == 0:
        return "skip" if state and state.not_interested_at else "deliver"
    if state.not_interested_at:
        return "skip"
    policy = subscription.redelivery
    last = state.last_delivered_at
    if policy == Subscription.Redelivery.COOLDOWN:
        past_cooldown = last is None or now - last >= timedelta(days=subscription.cooldown_days)
        return "redeliver" if past_cooldown else "skip"
    if policy == Subscription.Redelivery.ON_CONTENT_UPDATE:
        changed = bool(candidate.content_hash) and (
            candidate.content_hash != state.last_delivered_content_hash
        )
        gap_ok = last is None or now - last >= CONTENT_UPDATE_MIN_GAP
        return "redeliver" if changed and gap_ok else "skip"
    return "skip"


def select(subscription: Subscription, scored: list[Candidate], states, now) -> Selection:
    selection = Selection()
    for candidate in scored:
        if len(selection.selected) >= subscription.max_items:
            break
        decision = _delivery_decision(
            subscription, states.get(candidate.canonical_url_hash), candidate, now
        )
        if decision == "skip":
            selection.dedup_skipped += 1
            continue
        candidate.redelivery = decision == "redeliver"
        selection.redelivered += candidate.redelivery
        selection.selected.append(candidate)
    return selection


def _deliverable_ids(subscription: Subscription, scored: list[Candidate], now) -> list[int]:
    """The candidates per-user dedup would deliver, best first: full text is fetched (and
    charged) for these only, never for an item the reader already has. Read without a lock —
    the locked selection in `_deliver` decides again; this only keeps the cost honest."""
    if not scored or settings.FULLTEXT_TOP_K <= 0:
        return []  # nothing would be fetched: no query either
    states = _states_for(subscription.owner_id, [c.canonical_url_hash for c in scored], lock=False)
    likely = select(subscription, [replace(c) for c in scored], states, now).selected
    return [c.item_id for c in likely]


def _states_for(user_id: int, hashes: list[str], *, lock: bool):
    queryset = UserContentState.objects.filter(
        user_id=user_id, canonical_url_hash__in=id_set(hashes, db_type="text")
    )
    if lock:
        queryset = queryset.select_for_update()
    return {state.canonical_url_hash: state for state in queryset}


def preview(
    subscription: Subscription, *, now: datetime, source_ids: list[int] | None = None
) -> Selection:
    """The same pipeline as a run; writes nothing and is never charged. On-run sources are
    not fetched (fetching upserts into the pool): a preview selects from what the pool has.
    `subscription` may be unsaved (a form not saved yet), with its `source_ids`."""
    # Scored once, saying how close the items below the minimum came.
    below: list[int] = []
    candidates_count, scored = score_candidates(
        subscription, now=now, source_ids=source_ids, below=below
    )
    states = _states_for(subscription.owner_id, [c.canonical_url_hash for c in scored], lock=False)
    selection = select(subscription, scored, states, now)
    selection.candidates_count = candidates_count
    selection.above_min_score = len(scored)
    selection.empty_reason = _empty_reason(selection)
    selection.matched = len(scored) + len(below)
    selection.best_below_min = max(below, default=None)
    selection.interests = interests_for(subscription).terms
    if not selection.selected:
        uses_sources = bool(source_ids) if source_ids is not None else _has_sources(subscription)
        selection.advice = preview_advice(selection, subscription, uses_sources=uses_sources)
    return selection


def _has_sources(subscription: Subscription) -> bool:
    return bool(subscription.followed_topic_id) or (
        subscription.pk is not None
        and SubscriptionSource.objects.filter(subscription=subscription, enabled=True).exists()
    )


def preview_advice(selection: Selection, subscription: Subscription, *, uses_sources: bool) -> str:
    """Why a preview would deliver nothing and what to change, in the active language."""
    if selection.selected:
        return ""
    terms = ", ".join(selection.interests[:6])
    days = max(1, round(subscription.content_window_hours / 24))
    window = ngettext("the last day", "the last %(days)s days", days) % {"days": days}
    if selection.candidates_count == 0:
        if not uses_sources and not selection.interests:
            return gettext("Give a topic, some interests or a source to see what it would find.")
        if uses_sources:
            return gettext(
                "Your sources have no items from %(window)s yet. A source you just added is "
                "read within a few minutes; or widen the content window."
            ) % {"window": window}
        if not ContentItem.objects.exists():
            return gettext(
                "Nothing has been collected yet: add a feed or a site on the Sources page, or "
                "start from a template."
            )
        return gettext(
            "No item from %(window)s mentions %(terms)s. Try shorter or more common words, a "
            "synonym or an abbreviation (“LLM” for “large language model”), or add sources."
        ) % {"window": window, "terms": terms}
    if selection.matched == 0:
        return gettext(
            "%(count)s items from your sources, but none mentions %(terms)s. Remove the "
            "interests to take everything from these sources, or try other words."
        ) % {"count": selection.candidates_count, "terms": terms}
    if selection.above_min_score == 0:
        return ngettext(
            "%(count)s item matches, but it scores %(best)s, below your minimum score of "
            "%(min)s. Lower the minimum score to %(best)s or less.",
            "%(count)s items match, but none reaches your minimum score of %(min)s (the best "
            "scores %(best)s). Lower the minimum score to %(best)s or less.",
            selection.matched,
        ) % {
            "count": selection.matched,
            "best": selection.best_below_min,
            "min": subscription.min_score,
        }
    return gettext(
        "Everything that matches was already delivered to you; new items come as your "
        "sources publish them."
    )


def _empty_reason(selection: Selection) -> str:
    if selection.selected:
        return ""
    if selection.candidates_count == 0:
        return "No items from your sources or topic in the content window yet."
    if selection.above_min_score == 0:
        return "Items were found, but none scored above your minimum score."
    return "Everything that matched was already delivered to you."


def _claim(run: Run, now: datetime) -> int | None:
    """Claim a pending (or failed, for retry) run with a lease; returns this claim's attempt
    number — the fencing token the finish checks — or None when someone else has it."""
    claimed = leases.claim(
        Run.objects.filter(pk=run.pk, status__in=[Run.Status.PENDING, Run.Status.FAILED]),
        now=now,
        seen_attempts=run.attempts,
        status=Run.Status.RUNNING,
        started_at=now,
        error="",
    )
    return run.attempts + 1 if claimed else None


class LeaseLost(Exception):
    """The run was reclaimed (its lease ran out) while this worker was still on it: another
    attempt owns it now, and this one must write nothing."""


def _mine(run_id: int, attempt: int):
    return Run.objects.filter(pk=run_id, status=Run.Status.RUNNING, attempts=attempt)


def _record_failure(run_id: int, attempt: int, exc: Exception, now: datetime, meter) -> None:
    """Mark this attempt failed — or, when the database connection dropped and the run has
    attempts left, put it back to pending with an expired lease so the next tick hands it out
    again. Written on a fresh connection if this one is gone; conditional on still owning it."""
    retry = leases.is_transient(exc) and attempt < MAX_RUN_ATTEMPTS
    if retry:
        changes = {
            "status": Run.Status.PENDING,
            "lease_expires_at": now,
            "error": "The database connection dropped mid-run; retrying.",
        }
    else:
        changes = {
            "status": Run.Status.FAILED,
            "finished_at": now,
            "lease_expires_at": None,
            "error": f"{type(exc).__name__}: {exc}"[:2000],
        }

    def write() -> int:
        moved = _mine(run_id, attempt).update(
            billing_breakdown=meter.breakdown(), error_code="", **changes
        )
        if moved:
            # Delivered nothing, charged nothing; a retry holds its own budget again.
            charges.release(run_id)
        return moved

    leases.write_status(write, what=f"run {run_id}")


def _summary_input(c: Candidate) -> enrichment.SummaryInput:
    return enrichment.SummaryInput(c.item_id, c.title, c.description, c.site_name)


@dataclass
class RunTexts:
    """A run's item summaries and narrative, written before the delivery transaction for the
    items a lock-free selection picked. The locked selection almost always picks the same;
    any item beyond them gets its extractive summary, a different set the template narrative,
    so nothing inside the transaction waits for the model."""

    subscription: Subscription
    locale: str
    summaries: dict[int, enrichment.ItemSummary] = field(default_factory=dict)
    narrative_item_ids: list[int] = field(default_factory=list)
    narrative: writer.Narrative | None = None

    def summaries_for(self, selected: list[Candidate]) -> dict[int, enrichment.ItemSummary]:
        if not self.subscription.summaries_enabled:
            return {c.item_id: enrichment.ItemSummary("", "") for c in selected}
        return {
            c.item_id: self.summaries.get(c.item_id) or enrichment.extractive(_summary_input(c))
            for c in selected
        }

    def narrative_items(self, selected: list[Candidate]) -> list[writer.NarrativeItem]:
        summaries = {c.item_id: self.summaries.get(c.item_id) for c in selected}
        return [
            writer.NarrativeItem(
                canonical_url_hash=c.canonical_url_hash,
                content_hash=c.content_hash,
                title=c.title,
                url=c.canonical_url,
                summary=(summaries[c.item_id] or enrichment.extractive(_summary_input(c))).summary,
                source_name=c.site_name,
            )
            for c in selected
        ]

    def narrative_for(self, selected: list[Candidate]) -> writer.Narrative:
        if not self.subscription.narrative_enabled or not selected:
            return writer.Narrative("", "")
        if self.narrative and self.narrative_item_ids == [c.item_id for c in selected]:
            return self.narrative
        items = [item.as_dict() for item in self.narrative_items(selected)]
        markdown = template_narrative(self.subscription.name, items, self.locale)
        return writer.Narrative(markdown, TEMPLATE)


def combination_of(subscription: Subscription, *, now: datetime) -> writer.Combination:
    """The combination cache's first level for this subscription's run at `now`: its
    source-set hash (seed 002), what decides its selection, and its digest period."""
    kind = periods.digest_type(subscription.cron)
    return writer.Combination(
        source_set_hash=subscription.source_set_hash,
        selection={
            "interests": sorted(subscription.interests or []),
            "negative_keywords": sorted(subscription.negative_keywords or []),
            "topic": subscription.topic if not subscription.interests else "",
            "followed_topic": subscription.followed_topic_id,
            "min_score": subscription.min_score,
            "max_items": subscription.max_items,
            "content_window_hours": subscription.content_window_hours,
            "reading_levels": sorted(subscription.reading_levels or []),
        },
        period=kind,
        window=periods.period_window(kind, subscription.timezone, now),
    )


def prepare_texts(
    run: Run,
    subscription: Subscription,
    scored: list[Candidate],
    *,
    locale: str,
    now: datetime,
    deadline: float | None = None,
) -> RunTexts:
    """Model-written summaries and narrative for the items this run will most likely
    deliver. Never inside a transaction (SPEC §14); every failure falls back."""
    texts = RunTexts(subscription, locale)
    wanted = subscription.summaries_enabled or subscription.narrative_enabled
    if not scored or not wanted or not llm.is_configured():
        return texts
    states = _states_for(subscription.owner_id, [c.canonical_url_hash for c in scored], lock=False)
    likely = select(subscription, [replace(c) for c in scored], states, now).selected
    if subscription.summaries_enabled:
        texts.summaries = enrichment.summarize(
            [_summary_input(c) for c in likely],
            locale=locale,
            now=now,
            run_id=run.pk,
            deadline=deadline,
        )
    if subscription.narrative_enabled and likely:
        texts.narrative = writer.write_narrative(
            texts.narrative_items(likely),
            title=subscription.name,
            locale=locale,
            tone=subscription.tone,
            now=now,
            run_id=run.pk,
            deadline=deadline,
            combination=combination_of(subscription, now=now),
        )
        texts.narrative_item_ids = [c.item_id for c in likely]
    return texts


def _deliver(
    run: Run, subscription: Subscription, scored: list[Candidate], now, texts: RunTexts
) -> Selection:
    """Inside one transaction: lock the user, re-read their states, select and write."""
    UserPreference.objects.get_or_create(user_id=run.user_id)
    # One row lock per user serializes concurrent runs of the same user, so two runs never
    # both decide to deliver one item; the unique (run, hash) and (user, hash) keys back it up.
    # The lock is the UPDATE that also tells the Inbox page cache something changed.
    inbox_changed(run.user_id)
    states = _states_for(run.user_id, [c.canonical_url_hash for c in scored], lock=True)
    selection = select(subscription, scored, states, now)
    summaries = texts.summaries_for(selection.selected)
    # The parts are what every page shows, in its reader's language at the time; the text,
    # in the run's language, is what clients of the stored row (exports, feeds) read.
    why = {c.item_id: reasons.parts_for(c, subscription.timezone) for c in selection.selected}
    with translation.override(texts.locale):
        texts_of = {item_id: reasons.render(parts) for item_id, parts in why.items()}
    RunItem.objects.bulk_create(
        [
            RunItem(
                run=run,
                item_id=c.item_id,
                canonical_url_hash=c.canonical_url_hash,
                relevance=c.relevance,
                overall=c.overall,
                reason=texts_of[c.item_id],
                why=why[c.item_id],
                rank=rank,
                title=c.title[:500],
                url=c.canonical_url,
                summary=summaries[c.item_id].summary,
                summary_generator=summaries[c.item_id].generator,
                source_name=c.site_name,
                published_at=c.published_at,
                redelivered=c.redelivery,
                delivered_at=now,
            )
            for rank, c in enumerate(selection.selected, start=1)
        ]
    )
    new_states, changed_states = [], []
    for c in selection.selected:
        state = states.get(c.canonical_url_hash)
        if state is None:
            state = UserContentState(
                user_id=run.user_id,
                canonical_url_hash=c.canonical_url_hash,
                item_id=c.item_id,
                first_delivered_at=now,
            )
            new_states.append(state)
        else:
            changed_states.append(state)
        state.last_delivered_at = now
        state.delivered_count += 1
        state.last_delivered_content_hash = c.content_hash
        state.last_run = run
    UserContentState.objects.bulk_create(new_states)
    UserContentState.objects.bulk_update(
        changed_states,
        ["last_delivered_at", "delivered_count", "last_delivered_content_hash", "last_run"],
    )
    return selection


def execute_run(run_id: int, *, now: datetime) -> Run | None:
    """Execute a pending (or failed, for retry) run exactly once. Safe to call twice: a run
    that is already running or finished is left alone and returned as it is."""
    run = Run.objects.select_related("subscription").filter(pk=run_id).first()
    if run is None or run.status == Run.Status.SUCCEEDED:
        return run
    attempt = _claim(run, now)
    if attempt is None:
        return run
    with leases.Heartbeat(Run, [run.pk], now=now, status=Run.Status.RUNNING, attempts=attempt):
        succeeded = _execute(run, attempt, now=now)
    if not succeeded:  # the row was written with an UPDATE: read it back
        try:
            run.refresh_from_db()
        except Exception:  # the run is written; a dropped connection must not fail the task
            logger.warning("could not re-read run %s", run_id, exc_info=True)
    return run


# How long a run took is read from this clock (monotonic: a wall-clock step cannot make it
# negative); tests replace it.
duration_clock = time.monotonic


def _execute(run: Run, attempt: int, *, now: datetime) -> bool:
    """One attempt; True when it succeeded (then `run` is the row as saved)."""
    run_id = run.pk
    subscription = run.subscription
    meter = RunMeter()  # one per attempt: a retry records what the retry itself did
    # `now` is when the attempt started (its window, its scores); the run's finish is that
    # plus how long the attempt took, so its timings are real.
    started = duration_clock()
    try:
        # The budget check, before any work: holds the run's upper-bound cost, or refuses.
        budget = charges.reserve(run, subscription, now=now)
        if not budget.ok:
            _refuse_for_credits(run, budget, meter, now)
            return True  # _refuse_for_credits read the row back
        on_run.collect(subscription, now=now, meter=meter)
        candidates_count, scored = score_candidates(subscription, now=now)
        # Full text for the top FULLTEXT_TOP_K candidates only (seed 000 §7.2); never fails a run.
        ensure_full_text_of_top(_deliverable_ids(subscription, scored, now), now=now, meter=meter)
        locale = output_locale_for(subscription)
        # The model's part (relevance, summaries, narrative) runs here, outside any
        # transaction, within one time limit; each part falls back instead of failing.
        deadline = time.monotonic() + LLM_STAGE_SECONDS
        scored = model_relevance.rerank(
            subscription, scored, locale=locale, now=now, run_id=run.pk, deadline=deadline
        )
        texts = prepare_texts(run, subscription, scored, locale=locale, now=now, deadline=deadline)
        with transaction.atomic():
            # The fence: a reclaimed run (this worker was presumed dead) is someone else's now.
            if not leases.hold(_mine(run_id, attempt), attempt=attempt, now=now):
                raise LeaseLost(run_id)
            selection = _deliver(run, subscription, scored, now, texts)
            selection.candidates_count = candidates_count
            selection.above_min_score = len(scored)
            # `error` too: the claim cleared a failed attempt's error, and save() writes all.
            # The token counts too: every model call has added its usage to the row.
            run.refresh_from_db(
                fields=["attempts", "started_at", "error", "input_tokens", "output_tokens"]
            )
            run.output_locale = locale
            narrative = texts.narrative_for(selection.selected)
            run.narrative_md, run.narrative_generator = narrative.markdown, narrative.generator
            run.candidates_count = selection.candidates_count
            run.selected_count = selection.above_min_score
            run.delivered_count = len(selection.selected)
            run.dedup_skipped_count = selection.dedup_skipped
            run.redelivered_count = selection.redelivered
            run.empty_reason = _empty_reason(selection)
            run.billing_breakdown = meter.breakdown()
            run.status = Run.Status.SUCCEEDED
            run.error_code = ""
            run.finished_at = now + timedelta(seconds=round(duration_clock() - started, 3))
            run.lease_expires_at = None
            run.save()
            # The one charge, committed with the delivery (refunded at once if empty).
            charges.settle(
                run, breakdown=run.billing_breakdown, delivered=run.delivered_count, now=now
            )
            # Its email and webhook rows commit with the brief; they are sent after the commit
            # (digests.tasks.execute_run), so a failed send never touches the Inbox brief.
            plan_deliveries(run, subscription, now=now)
            Subscription.objects.filter(pk=subscription.pk).update(last_run_at=now)
            if subscription.run_at and not subscription.cron:
                Subscription.objects.filter(pk=subscription.pk).update(
                    status=Subscription.Status.COMPLETED, updated_at=now
                )
    except LeaseLost:
        logger.warning("run %s was reclaimed while attempt %s was on it", run_id, attempt)
        return False
    except Exception as exc:
        logger.exception("run %s failed", run_id)
        _record_failure(run_id, attempt, exc, now, meter)
        return False
    return True


def _refuse_for_credits(run: Run, budget: charges.Reservation, meter: RunMeter, now) -> Run:
    """The budget check refused the run: it did no work, costs nothing, and says why."""
    Run.objects.filter(pk=run.pk).update(
        status=Run.Status.FAILED,
        finished_at=now,
        lease_expires_at=None,
        error=(
            f"Not enough credits: this run can cost up to {budget.needed} credits and "
            f"{budget.available} are available."
        ),
        error_code=charges.INSUFFICIENT_CREDITS,
        billing_breakdown={
            **meter.breakdown(),
            "budget": {"needed": budget.needed, "available": budget.available},
        },
    )
    run.refresh_from_db()
    return run
