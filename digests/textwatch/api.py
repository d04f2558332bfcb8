"""/api/v1/watches: text-change watches (watches/service.py). Thin callers of the service,
which checks every field and answers refusals in the error shape (config/api/errors.py)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.fields import (
    AwareDateTimeField,
    HttpUrlField,
    IdField,
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
    StrictListField,
)
from config.api.pagination import OffsetCursorPagination
from config.api.serializers import StrictSerializer, read_body
from digests.models import Subscription
from digests.textwatch import apprise, service
from digests.textwatch.diffing import diff_texts
from digests.textwatch.models import AppriseTarget, TextWatch
from digests.textwatch.rules import NUMBER_PATTERN
from digests.watches.check_interval import MAX_CHECK_MINUTES, MIN_CHECK_MINUTES

TRIGGERS = list(TextWatch.Trigger.values)

HISTORY_SHOWN = 20
_LIST = {"required": False, "max_length": 20}


class WatchInputSerializer(StrictSerializer):
    """The fields of a text watch; watches/service.py checks the rules between them."""

    url = HttpUrlField(help_text="The page to watch.")
    name = StrictCharField(max_length=200, required=False, allow_blank=True, default="")
    render = StrictChoiceField(choices=["http", "browser"], required=False, default="http")
    selector_kind = StrictChoiceField(
        choices=["", "css", "xpath"],
        required=False,
        default="",
        help_text="'' (the whole page), 'css' or 'xpath'.",
    )
    selector = StrictCharField(max_length=500, required=False, allow_blank=True, default="")
    ignore_text = StrictListField(child=StrictCharField(max_length=200), **_LIST)
    ignore_regex = StrictListField(child=StrictCharField(max_length=200), **_LIST)
    ignore_numbers = StrictBooleanField(required=False, default=False)
    # Checked by the service (a plain string here: "trigger" names another enum already).
    trigger = StrictCharField(
        schema_enum=TRIGGERS,
        max_length=16,
        required=False,
        default="any",
        help_text="'any', 'appears', 'disappears', 'above' or 'below'.",
    )
    trigger_text = StrictCharField(max_length=200, required=False, allow_blank=True, default="")
    trigger_number = StrictCharField(
        max_length=30,
        required=False,
        allow_blank=True,
        default="",
        schema_pattern=NUMBER_PATTERN,
        help_text="A number (`-12.5`), needed by 'above' and 'below'.",
    )
    check_interval_minutes = StrictIntegerField(
        required=False,
        default=60,
        min_value=MIN_CHECK_MINUTES,
        max_value=MAX_CHECK_MINUTES,
        help_text=f"{MIN_CHECK_MINUTES}-{MAX_CHECK_MINUTES} minutes.",
    )
    start_at = AwareDateTimeField(required=False, allow_null=True, default=None)
    end_at = AwareDateTimeField(required=False, allow_null=True, default=None)
    notify = StrictListField(
        child=StrictChoiceField(choices=["inbox", "email", "push"]),
        required=False,
        max_length=3,
        unique_items=True,
        help_text="Where a change is told besides Apprise: `inbox`, and `email` or `push` with "
        "it; each once.",
    )


class AppriseTargetInputSerializer(StrictSerializer):
    url = StrictCharField(
        max_length=2048,
        help_text="An Apprise URL; never shown back.",
        # A service Tidings sends to (digests.textwatch.apprise.SERVICES), then its address.
        schema_pattern=rf"^({'|'.join(sorted(apprise.SERVICES))})://[^\s\x00]+$",
    )
    label = StrictCharField(max_length=100, required=False, allow_blank=True, default="")


class AppriseRoutesInputSerializer(StrictSerializer):
    targets = StrictListField(child=IdField(), max_length=20)


# --- What the answers hold (the schema's components; `watch_json` and friends build them) ----


class WatchSerializer(serializers.Serializer):
    """A page (or a part of it) watched for text changes: its settings and its state."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    url = serializers.URLField()
    render = serializers.CharField(help_text="`http`, or `browser` (rendered before reading).")
    selector_kind = serializers.CharField(help_text="'' (the whole page), 'css' or 'xpath'.")
    selector = serializers.CharField()
    ignore_text = serializers.ListField(child=serializers.CharField())
    ignore_regex = serializers.ListField(child=serializers.CharField())
    ignore_numbers = serializers.BooleanField()
    trigger = serializers.CharField(help_text="'any', 'appears', 'disappears', 'above' or 'below'.")
    trigger_text = serializers.CharField()
    trigger_number = serializers.CharField(
        allow_null=True, help_text="The threshold of `above`/`below`, as a decimal string."
    )
    check_interval_minutes = serializers.IntegerField()
    start_at = serializers.DateTimeField(allow_null=True)
    end_at = serializers.DateTimeField(allow_null=True)
    status = serializers.CharField(help_text="'active', 'paused', 'completed' or 'error'.")
    next_check_at = serializers.DateTimeField(
        allow_null=True, help_text="When it is checked next; null while paused or ended."
    )
    last_checked_at = serializers.DateTimeField(
        allow_null=True, help_text="When it was last checked; null before the first check."
    )
    error_count = serializers.IntegerField(help_text="Failed checks in a row.")
    last_error = serializers.CharField()
    notifier_id = serializers.IntegerField(
        allow_null=True,
        help_text="The subscription whose Inbox, e-mail, push and webhooks tell its changes.",
    )


class WatchChangeSerializer(serializers.Serializer):
    checked_at = serializers.DateTimeField(help_text="When the page was read.")
    notified = serializers.BooleanField(help_text="Whether the owner was told of it.")
    added_lines = serializers.IntegerField(help_text="Lines new since the check before.")
    removed_lines = serializers.IntegerField(help_text="Lines gone since the check before.")
    baseline = serializers.BooleanField(
        help_text="A new starting point after a change of the settings, not a page change."
    )
    diff = serializers.CharField(help_text="The unified diff from the check before (200 lines).")


class WatchDetailSerializer(WatchSerializer):
    """A watch, and its last 20 checks with what changed."""

    history = WatchChangeSerializer(many=True, help_text="The last 20 checks, newest first.")


class WatchPreviewSerializer(serializers.Serializer):
    text = serializers.CharField(help_text="The text read from the page (or its part).")
    compared = serializers.CharField(help_text="The text as compared: after the ignore rules.")
    number = serializers.CharField(
        allow_null=True, help_text="The first number of the compared text, or null."
    )


class AppriseTargetSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()
    service = serializers.CharField(help_text="The Apprise service, e.g. `json`, `ntfys`.")
    hint = serializers.CharField(help_text="The service and host; never the URL's secrets.")
    created_at = serializers.DateTimeField()


class AppriseTestResultSerializer(serializers.Serializer):
    sent = serializers.BooleanField(help_text="Whether the service accepted the message.")
    error = serializers.CharField(help_text="Why not, when `sent` is false; else empty.")


class AppriseRoutesSerializer(serializers.Serializer):
    targets = serializers.ListField(
        child=serializers.IntegerField(), help_text="The targets the briefs now also go to."
    )


def _body(request, **kwargs) -> dict:
    data = dict(read_body(WatchInputSerializer, request, **kwargs))
    if data.get("trigger_number") == "":
        data["trigger_number"] = None
    return data


def watch_json(watch: TextWatch) -> dict:
    return {
        "id": watch.pk,
        "name": watch.name,
        "url": watch.url,
        "render": watch.render,
        "selector_kind": watch.selector_kind,
        "selector": watch.selector,
        "ignore_text": watch.ignore_text,
        "ignore_regex": watch.ignore_regex,
        "ignore_numbers": watch.ignore_numbers,
        "trigger": watch.trigger,
        "trigger_text": watch.trigger_text,
        "trigger_number": None if watch.trigger_number is None else str(watch.trigger_number),
        "check_interval_minutes": watch.check_interval_minutes,
        "start_at": watch.start_at,
        "end_at": watch.end_at,
        "status": watch.status,
        "next_check_at": watch.next_check_at,
        "last_checked_at": watch.last_checked_at,
        "error_count": watch.error_count,
        "last_error": watch.last_error,
        "notifier_id": watch.notifier_id,
    }


class WatchListView(ListAPIView):
    # A page like every list ({next, previous, results}; it was all of them under `results`).
    pagination_class = OffsetCursorPagination
    serializer_class = WatchSerializer

    def get_queryset(self):
        return TextWatch.objects.filter(owner=self.request.user).order_by("name", "id")

    @extend_schema(operation_id="v1_watches_list", description="Your text-change watches.")
    def get(self, request):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([watch_json(w) for w in page])

    @extend_schema(
        description=(
            "Watch a page (or a CSS/XPath part of it) for text changes; the fields are in "
            "docs/watches.md."
        ),
        responses={201: WatchSerializer},
        request=WatchInputSerializer,
    )
    def post(self, request):
        watch = service.add_watch(request.user, _body(request), now=timezone.now())
        return Response(watch_json(watch), status=status.HTTP_201_CREATED)


class WatchPreviewView(APIView):
    """The text a watch with these settings would compare now; nothing is saved."""

    @extend_schema(
        description=(
            "The text a watch with these settings sees now, and the text as compared; "
            "nothing is saved."
        ),
        responses={200: WatchPreviewSerializer},
        request=WatchInputSerializer,
    )
    def post(self, request):
        seen = service.preview(_body(request))
        number = seen["number"]
        return Response({**seen, "number": None if number is None else str(number)})


class WatchDetailView(APIView):
    @extend_schema(
        description="A watch, its status and its last 20 changes with their diffs.",
        responses={200: WatchDetailSerializer},
    )
    def get(self, request, watch_id: int):
        watch = get_object_or_404(TextWatch, pk=watch_id, owner=request.user)
        snapshots = list(watch.snapshots.order_by("-checked_at", "-id")[: HISTORY_SHOWN + 1])
        history = []
        for newer, older in zip(snapshots, [*snapshots[1:], None], strict=False):
            if len(history) == HISTORY_SHOWN:
                break
            history.append(
                {
                    "checked_at": newer.checked_at,
                    "notified": newer.notified,
                    "added_lines": newer.added_lines,
                    "removed_lines": newer.removed_lines,
                    # A baseline follows an edit of the settings: not a change of the page.
                    "baseline": newer.baseline,
                    "diff": diff_texts(older.text, newer.text).as_text(max_lines=200)
                    if older is not None and not newer.baseline
                    else "",
                }
            )
        return Response({**watch_json(watch), "history": history})

    @extend_schema(
        description=(
            "Change some of a watch's settings (the fields of POST /api/v1/watches). A new "
            "part, address or ignore rule reads the page now and starts a new baseline."
        ),
        request=WatchInputSerializer,
        responses={200: WatchSerializer},
    )
    def patch(self, request, watch_id: int):
        watch = get_object_or_404(
            TextWatch.objects.select_related("notifier"), pk=watch_id, owner=request.user
        )
        data = {**service.settings_of(watch), **_body(request, partial=True)}
        watch = service.update_watch(watch, data, now=timezone.now())
        return Response(watch_json(watch))

    @extend_schema(
        description="Stop watching; the changes already delivered stay in the Inbox.",
        responses={204: None},
    )
    def delete(self, request, watch_id: int):
        watch = get_object_or_404(TextWatch, pk=watch_id, owner=request.user)
        service.delete_watch(watch, now=timezone.now())
        return Response(status=status.HTTP_204_NO_CONTENT)


class WatchPauseView(APIView):
    @extend_schema(
        description="No checks until resumed.", request=None, responses={200: WatchSerializer}
    )
    def post(self, request, watch_id: int):
        watch = get_object_or_404(TextWatch, pk=watch_id, owner=request.user)
        return Response(watch_json(service.pause_watch(watch)))


class WatchResumeView(APIView):
    @extend_schema(
        description="Check again: now if a check is overdue, else an interval after the last.",
        request=None,
        responses={200: WatchSerializer},
    )
    def post(self, request, watch_id: int):
        watch = get_object_or_404(TextWatch, pk=watch_id, owner=request.user)
        return Response(watch_json(service.resume_watch(watch, now=timezone.now())))


# --- Apprise targets --------------------------------------------------------------------------


def target_json(target: AppriseTarget) -> dict:
    # Never the URL: it holds the service's secrets.
    return {
        "id": target.pk,
        "label": target.label,
        "service": target.service,
        "hint": target.hint,
        "created_at": target.created_at,
    }


class AppriseTargetListView(ListAPIView):
    pagination_class = OffsetCursorPagination
    serializer_class = AppriseTargetSerializer

    def get_queryset(self):
        return AppriseTarget.objects.filter(owner=self.request.user)

    @extend_schema(
        operation_id="v1_apprise_targets_list",
        description="Your Apprise notification targets (never their URLs).",
    )
    def get(self, request):
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response([target_json(t) for t in page])

    @extend_schema(
        description="Add an Apprise URL as a notification target: {url, label}.",
        responses={201: AppriseTargetSerializer},
        request=AppriseTargetInputSerializer,
    )
    def post(self, request):
        data = read_body(AppriseTargetInputSerializer, request)
        target = apprise.add_target(
            request.user, url=data["url"], label=data["label"], now=timezone.now()
        )
        return Response(target_json(target), status=status.HTTP_201_CREATED)


class AppriseTargetTestView(APIView):
    """Send a test message now: 200 with `sent` true, or false and why."""

    @extend_schema(
        description="Send a test notification to the target now.",
        request=None,
        responses={200: AppriseTestResultSerializer},
    )
    def post(self, request, target_id: int):
        target = get_object_or_404(AppriseTarget, pk=target_id, owner=request.user)
        error = apprise.send_test(target)
        return Response({"sent": not error, "error": error})


class AppriseTargetDetailView(APIView):
    @extend_schema(description="Delete a notification target.", responses={204: None})
    def delete(self, request, target_id: int):
        get_object_or_404(AppriseTarget, pk=target_id, owner=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class SubscriptionAppriseView(APIView):
    """PUT {"targets": [ids]}: where this subscription's briefs also go. A watch's changes
    follow its notifier subscription (`notifier_id` of the watch)."""

    @extend_schema(
        description=(
            "Route a subscription's briefs (a watch's changes: its notifier_id) to these "
            "targets: {targets: [ids]}."
        ),
        responses={200: AppriseRoutesSerializer},
        request=AppriseRoutesInputSerializer,
    )
    def put(self, request, subscription_id: int):
        subscription = get_object_or_404(
            Subscription.objects.alive(), pk=subscription_id, owner=request.user
        )
        data = read_body(AppriseRoutesInputSerializer, request)
        ids = apprise.set_routes(request.user, subscription, list(data["targets"]))
        return Response({"targets": ids})
