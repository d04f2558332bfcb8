"""/api/v1/watches: text-change watches (watches/service.py). Thin callers of the service,
which checks every field and answers refusals in the error shape (config/api/errors.py)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from digests.models import Subscription
from watches import apprise, service
from watches.diffing import diff_texts
from watches.models import AppriseTarget, TextWatch

HISTORY_SHOWN = 20


def _body(request) -> dict:
    data = request.data
    if not isinstance(data, dict):
        raise service.WatchError({"non_field_errors": _("Send a JSON object.")})
    data = dict(data)
    for field in ("start_at", "end_at"):
        value = data.get(field)
        if value in (None, ""):
            data[field] = None
            continue
        parsed = parse_datetime(value) if isinstance(value, str) else None
        if parsed is None or parsed.tzinfo is None:
            raise service.WatchError(
                {field: _("Must be a date and time with its offset (ISO 8601).")}
            )
        data[field] = parsed
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


class WatchListView(APIView):
    def get(self, request):
        watches = TextWatch.objects.filter(owner=request.user).order_by("name", "id")
        return Response({"results": [watch_json(w) for w in watches]})

    def post(self, request):
        watch = service.add_watch(request.user, _body(request), now=timezone.now())
        return Response(watch_json(watch), status=status.HTTP_201_CREATED)


class WatchPreviewView(APIView):
    """The text a watch with these settings would compare now; nothing is saved."""

    def post(self, request):
        seen = service.preview(_body(request))
        number = seen["number"]
        return Response({**seen, "number": None if number is None else str(number)})


class WatchDetailView(APIView):
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
                    "diff": diff_texts(older.text, newer.text).as_text(max_lines=200)
                    if older is not None
                    else "",
                }
            )
        return Response({**watch_json(watch), "history": history})


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


class AppriseTargetListView(APIView):
    def get(self, request):
        targets = AppriseTarget.objects.filter(owner=request.user)
        return Response({"results": [target_json(t) for t in targets]})

    def post(self, request):
        data = request.data if isinstance(request.data, dict) else {}
        target = apprise.add_target(
            request.user, url=data.get("url"), label=data.get("label", ""), now=timezone.now()
        )
        return Response(target_json(target), status=status.HTTP_201_CREATED)


class AppriseTargetTestView(APIView):
    """Send a test message now: 200 with `sent` true, or false and why."""

    def post(self, request, target_id: int):
        target = get_object_or_404(AppriseTarget, pk=target_id, owner=request.user)
        error = apprise.send_test(target)
        return Response({"sent": not error, "error": error})


class AppriseTargetDetailView(APIView):
    def delete(self, request, target_id: int):
        get_object_or_404(AppriseTarget, pk=target_id, owner=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class SubscriptionAppriseView(APIView):
    """PUT {"targets": [ids]}: where this subscription's briefs also go. A watch's changes
    follow its notifier subscription (`notifier_id` of the watch)."""

    def put(self, request, subscription_id: int):
        subscription = get_object_or_404(
            Subscription.objects.alive(), pk=subscription_id, owner=request.user
        )
        data = request.data if isinstance(request.data, dict) else {}
        ids = apprise.set_routes(request.user, subscription, data.get("targets"))
        return Response({"targets": ids})
