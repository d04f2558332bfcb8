"""Public topics over the API: anonymous, throttled, cache-friendly reads under
/api/v1/public/, and the owner's and follower's actions (publish, change, delete, follow,
fork) for token holders. Both call the same services as the pages."""

from __future__ import annotations

import copy

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.errors import APIInputError
from config.api.fields import (
    TOPIC_CRON_PATTERN,
    CronField,
    IdField,
    StrictCharField,
    StrictChoiceField,
    TimeZoneField,
)
from config.api.pagination import PAGE_PARAMS, OffsetCursorPagination
from config.api.responses import created
from config.api.serializers import (
    ResponseModelSerializer,
    StrictSerializer,
    read_body,
    read_query,
)
from config.api.throttling import ScopedIPRateThrottle
from digests.models import Subscription
from digests.subscriptions.api import (
    TIER_LIMIT,
    SubscriptionInputSerializer,
    SubscriptionSerializer,
)
from digests.subscriptions.service import SubscriptionInputError
from inbox.idempotency import idempotent
from topics import following, publishing, seo
from topics.models import MAX_EDITIONS_LISTED, Edition, EditionItem, Topic
from topics.publishing import PublishInput, TopicInputError
from topics.views import SORTS, published_editions

PUBLIC_CACHE = "public, max-age=300"


class EditionSummarySerializer(ResponseModelSerializer):
    url = serializers.SerializerMethodField()

    class Meta:
        model = Edition
        fields = ["id", "edition_date", "published_at", "item_count", "url"]

    def get_url(self, edition) -> str:
        return seo.absolute(edition.get_absolute_url())


class TopicSerializer(ResponseModelSerializer):
    url = serializers.SerializerMethodField()
    feed_url = serializers.SerializerMethodField()

    class Meta:
        model = Topic
        fields = [
            "slug",
            "title",
            "description",
            "locale",
            "cron",
            "timezone",
            "follower_count",
            "trending_score",
            "quality_score",
            "last_edition_at",
            "url",
            "feed_url",
        ]

    def get_url(self, topic) -> str:
        return seo.absolute(topic.get_absolute_url())

    def get_feed_url(self, topic) -> str:
        return seo.absolute(f"{topic.get_absolute_url()}/feed")


class TopicDetailSerializer(TopicSerializer):
    editions = serializers.SerializerMethodField()

    class Meta(TopicSerializer.Meta):
        fields = [*TopicSerializer.Meta.fields, "editions"]

    @extend_schema_field(EditionSummarySerializer(many=True))
    def get_editions(self, topic) -> list[dict]:
        editions = published_editions(topic)[:MAX_EDITIONS_LISTED]
        return EditionSummarySerializer(editions, many=True).data


class EditionItemSerializer(ResponseModelSerializer):
    class Meta:
        model = EditionItem
        fields = ["rank", "title", "url", "summary", "source_name", "published_at"]


class EditionSerializer(EditionSummarySerializer):
    items = EditionItemSerializer(many=True, read_only=True)

    class Meta(EditionSummarySerializer.Meta):
        fields = [*EditionSummarySerializer.Meta.fields, "output_locale", "narrative_md", "items"]


class OwnedTopicSerializer(TopicSerializer):
    class Meta(TopicSerializer.Meta):
        fields = [*TopicSerializer.Meta.fields, "visibility", "status"]


class TopicChangesSerializer(StrictSerializer):
    """What an owner may change on a topic (PATCH: any subset). Only types and sizes here; the
    rules and their messages are topics.publishing's, shared with the console."""

    # topics.publishing: 3 to 200 characters once runs of spaces are one; the schema asks
    # for three characters that are not spaces.
    title = StrictCharField(
        max_length=200,
        required=False,
        schema_pattern=r"^\s*[^\s\x00](\s*[^\s\x00]){2}[^\x00]*$",
    )
    description = StrictCharField(max_length=500, allow_blank=True, required=False)
    slug = StrictCharField(
        max_length=80,
        allow_blank=True,
        required=False,
        # What slugify() leaves as it is (topics/publishing.py refuses anything else).
        schema_pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$",
        help_text="Lowercase letters, digits and hyphens; empty: made from the title.",
    )
    visibility = StrictChoiceField(choices=Topic.Visibility.choices, required=False)
    cron = CronField(
        allow_blank=True,
        required=False,
        schema_pattern=TOPIC_CRON_PATTERN,
        help_text="At most daily (editions are at least 24 hours apart); empty: the "
        "subscription's.",
    )
    timezone = TimeZoneField(allow_blank=True, required=False)


class PublishSerializer(TopicChangesSerializer):
    subscription_id = IdField(help_text="The subscription whose configuration is published.")


def _follow_tweaks_serializer() -> type[StrictSerializer]:
    """Follow takes the subscription fields topics.following.ALLOWED_TWEAKS names, typed as
    in SubscriptionInputSerializer; asking for other sources is answered with the way to do
    it (fork)."""
    declared = SubscriptionInputSerializer._declared_fields
    fields = {name: copy.deepcopy(declared[name]) for name in sorted(following.ALLOWED_TWEAKS)}
    for field in fields.values():
        field.required = False
    return type(
        "FollowSerializer",
        (StrictSerializer,),
        {
            **fields,
            "unknown_field_hints": {
                "source_ids": _(
                    "Following keeps the topic's sources; fork the topic to change them."
                )
            },
        },
    )


FollowSerializer = _follow_tweaks_serializer()


class PublicTopicsQuerySerializer(StrictSerializer):
    sort = StrictChoiceField(choices=list(SORTS), default="trending")
    locale = StrictCharField(max_length=16, required=False, help_text="e.g. en, zh-hans")


class TopicsPage(OffsetCursorPagination):
    page_size = 20


class _PublicView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedIPRateThrottle]
    throttle_scope = "public_topics"

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if response.status_code == 200:
            response["Cache-Control"] = PUBLIC_CACHE
        return response


def _listed_topic(slug: str) -> Topic:
    return get_object_or_404(Topic.objects.listed(), slug=slug)


class PublicTopicListView(_PublicView, ListAPIView):
    serializer_class = TopicSerializer
    pagination_class = TopicsPage

    @extend_schema(parameters=[PublicTopicsQuerySerializer])
    def get(self, request):
        return super().get(request)

    def get_queryset(self):
        query = read_query(PublicTopicsQuerySerializer, self.request, also=PAGE_PARAMS)
        topics = Topic.objects.listed().order_by(*SORTS[query["sort"]])
        if query.get("locale"):
            topics = topics.filter(locale=query["locale"])
        return topics


class PublicTopicDetailView(_PublicView):
    @extend_schema(responses=TopicDetailSerializer)
    def get(self, request, slug: str):
        return Response(TopicDetailSerializer(_listed_topic(slug)).data)


class PublicEditionView(_PublicView):
    @extend_schema(responses=EditionSerializer)
    def get(self, request, slug: str, edition_id: int):
        edition = get_object_or_404(
            published_editions(_listed_topic(slug)).prefetch_related("items"), pk=edition_id
        )
        return Response(EditionSerializer(edition).data)


def _topic_call(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except (TopicInputError, SubscriptionInputError) as exc:
        raise APIInputError(exc.errors, code=exc.code) from None


class TopicPublishView(ListAPIView):
    """Your topics, and publishing a subscription as a topic."""

    serializer_class = OwnedTopicSerializer
    pagination_class = TopicsPage

    def get_queryset(self):
        topics = Topic.objects.filter(owner=self.request.user)
        return topics.exclude(status=Topic.Status.DELETED).order_by("title", "id")

    @extend_schema(
        request=PublishSerializer, responses={201: OwnedTopicSerializer, 403: TIER_LIMIT}
    )
    @idempotent
    def post(self, request):
        data = dict(read_body(PublishSerializer, request))
        subscription = (
            Subscription.objects.alive()
            .filter(pk=data.pop("subscription_id"), owner=request.user)
            .first()
        )
        if subscription is None:
            raise APIInputError(
                {"subscription_id": gettext("Not one of your subscriptions.")}, code="not_found"
            )
        topic = _topic_call(
            publishing.publish,
            request.user,
            subscription,
            PublishInput(**{"title": "", **data}),
            now=timezone.now(),
        )
        return created(request, OwnedTopicSerializer(topic).data, "api-topic", slug=topic.slug)


def _owned_topic(request, slug: str) -> Topic:
    topic = Topic.objects.filter(slug=slug, owner=request.user).first()
    if topic is None or topic.status == Topic.Status.DELETED:
        raise Http404
    return topic


class TopicOwnerView(APIView):
    @extend_schema(
        request=TopicChangesSerializer, responses={200: OwnedTopicSerializer, 403: TIER_LIMIT}
    )
    def patch(self, request, slug: str):
        topic = _owned_topic(request, slug)
        current = {
            "title": topic.title,
            "description": topic.description,
            "visibility": topic.visibility,
            "cron": topic.cron,
            "timezone": topic.timezone,
        }
        changes = read_body(TopicChangesSerializer, request, partial=True)
        data = PublishInput(**{**current, **changes})
        _topic_call(publishing.update, request.user, topic, data, now=timezone.now())
        topic.refresh_from_db()
        return Response(OwnedTopicSerializer(topic).data)

    @extend_schema(responses={204: None})
    def delete(self, request, slug: str):
        publishing.delete(request.user, _owned_topic(request, slug), now=timezone.now())
        return Response(status=status.HTTP_204_NO_CONTENT)


def _followable(request, slug: str) -> Topic:
    topic = Topic.objects.filter(slug=slug).first()
    if topic is None or not following.followable(topic, request.user):
        raise Http404
    return topic


class TopicFollowView(APIView):
    @extend_schema(
        request=FollowSerializer,
        responses={
            201: SubscriptionSerializer,
            200: OpenApiResponse(SubscriptionSerializer, description="Already followed."),
            403: TIER_LIMIT,
        },
    )
    @idempotent
    def post(self, request, slug: str):
        topic = _followable(request, slug)
        tweaks = read_body(FollowSerializer, request)
        existed = following.existing_follow(request.user, topic) is not None
        subscription = _topic_call(
            following.follow, request.user, topic, dict(tweaks), now=timezone.now()
        )
        return created(
            request,
            SubscriptionSerializer(subscription).data,
            "api-subscription",
            new=not existed,
            subscription_id=subscription.pk,
        )


class TopicForkView(APIView):
    @extend_schema(request=None, responses={201: SubscriptionSerializer, 403: TIER_LIMIT})
    @idempotent
    def post(self, request, slug: str):
        topic = _followable(request, slug)
        subscription = _topic_call(following.fork, request.user, topic, now=timezone.now())
        return created(
            request,
            SubscriptionSerializer(subscription).data,
            "api-subscription",
            subscription_id=subscription.pk,
        )
