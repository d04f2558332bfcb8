"""/api/v1/ for the user and their Inbox."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.errors import APIInputError
from digests.models import RunItem
from inbox.states import ACTIONS, UnknownAction, apply_action, states_by_hash


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    email = serializers.EmailField()


class MeView(APIView):
    @extend_schema(responses=MeSerializer)
    def get(self, request):
        return Response({"id": request.user.id, "email": request.user.email})


class InboxItemSerializer(serializers.ModelSerializer):
    run_id = serializers.IntegerField()
    subscription_id = serializers.IntegerField(source="run.subscription_id")
    read = serializers.SerializerMethodField()
    saved = serializers.SerializerMethodField()
    not_interested = serializers.SerializerMethodField()

    class Meta:
        model = RunItem
        fields = [
            "id",
            "run_id",
            "subscription_id",
            "title",
            "url",
            "summary",
            "source_name",
            "reason",
            "overall",
            "published_at",
            "delivered_at",
            "read",
            "saved",
            "not_interested",
        ]

    def _state(self, obj):
        return self.context.get("states", {}).get(obj.canonical_url_hash)

    def get_read(self, obj) -> bool:
        state = self._state(obj)
        return bool(state and state.read_at)

    def get_saved(self, obj) -> bool:
        state = self._state(obj)
        return bool(state and state.saved_at)

    def get_not_interested(self, obj) -> bool:
        state = self._state(obj)
        return bool(state and state.not_interested_at)


class InboxItemListView(ListAPIView):
    serializer_class = InboxItemSerializer

    def get_queryset(self):
        return RunItem.objects.filter(run__user=self.request.user).select_related("run")

    def get_serializer_context(self):
        context = super().get_serializer_context()
        context["states"] = getattr(self, "_states", {})
        return context

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        self._states = states_by_hash(self.request.user, {ri.canonical_url_hash for ri in page})
        return page


class InboxActionSerializer(serializers.Serializer):
    action = serializers.ChoiceField(choices=list(ACTIONS))


class InboxItemActionView(APIView):
    @extend_schema(request=InboxActionSerializer, responses=InboxItemSerializer)
    def post(self, request, run_item_id: int):
        run_item = get_object_or_404(RunItem, pk=run_item_id, run__user=request.user)
        try:
            state = apply_action(
                request.user, run_item, request.data.get("action", ""), now=timezone.now()
            )
        except UnknownAction as exc:
            raise APIInputError({"action": str(exc)}) from None
        serializer = InboxItemSerializer(
            run_item, context={"states": {run_item.canonical_url_hash: state}}
        )
        return Response(serializer.data)
