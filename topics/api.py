"""Public topics over the API: anonymous, throttled, cache-friendly reads under
/api/v1/public/, and the owner's and follower's actions (publish, change, delete, follow,
fork) for token holders. Both call the same services as the pages."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.errors import APIInputError
from config.api.throttling import ScopedIPRateThrottle
from digests.api import TIER_LIMIT, SubscriptionSerializer
from digests.models import Subscription
from digests.subscriptions import SubscriptionInputError
from topics import following, publishing, seo
from topics.models import MAX_EDITIONS_LISTED, Edition, EditionItem, Topic
from topics.publishing import PublishInput, TopicInputError
from topics.views import SORTS, published_editions

PUBLIC_CACHE = "public, max-age=300"


class EditionSummarySerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()

    class Meta:
        model = Edition
        fields = ["id", "edition_date", "published_at", "item_count", "url"]

    def get_url(self, edition) -> str:
        return seo.absolute(edition.get_absolute_url())


class TopicSerializer(serializers.ModelSerializer):
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

    def get_editions(self, topic) -> list[dict]:
        editions = published_editions(topic)[:MAX_EDITIONS_LISTED]
        return EditionSummarySerializer(editions, many=True).data


class EditionItemSerializer(serializers.ModelSerializer):
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


class PublishSerializer(serializers.Serializer):
    subscription_id = serializers.IntegerField()
    title = serializers.CharField(required=False, allow_blank=True, default="")
    description = serializers.CharField(required=False, allow_blank=True, default="")
    slug = serializers.CharField(required=False, allow_blank=True, default="")
    visibility = serializers.CharField(required=False, default=Topic.Visibility.PUBLIC)
    cron = serializers.CharField(required=False, allow_blank=True, default="")
    timezone = serializers.CharField(required=False, allow_blank=True, default="")


class TopicsPage(PageNumberPagination):
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


class PublicTopicListView(_PublicView):
    @extend_schema(responses=TopicSerializer(many=True))
    def get(self, request):
        sort = request.query_params.get("sort", "trending")
        if sort not in SORTS:
            raise APIInputError({"sort": f"Must be one of: {', '.join(SORTS)}."})
        topics = Topic.objects.listed().order_by(*SORTS[sort])
        if request.query_params.get("locale"):
            topics = topics.filter(locale=request.query_params["locale"])
        paginator = TopicsPage()
        page = paginator.paginate_queryset(topics, request, view=self)
        return paginator.get_paginated_response(TopicSerializer(page, many=True).data)


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
        raise APIInputError(exc.errors) from None


class TopicPublishView(APIView):
    @extend_schema(responses=OwnedTopicSerializer(many=True))
    def get(self, request):
        topics = Topic.objects.filter(owner=request.user).exclude(status=Topic.Status.DELETED)
        return Response(OwnedTopicSerializer(topics.order_by("title"), many=True).data)

    @extend_schema(
        request=PublishSerializer, responses={201: OwnedTopicSerializer, 403: TIER_LIMIT}
    )
    def post(self, request):
        form = PublishSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = dict(form.validated_data)
        subscription = (
            Subscription.objects.alive()
            .filter(pk=data.pop("subscription_id"), owner=request.user)
            .first()
        )
        if subscription is None:
            raise APIInputError({"subscription_id": "Not one of your subscriptions."})
        topic = _topic_call(
            publishing.publish,
            request.user,
            subscription,
            PublishInput(**data),
            now=timezone.now(),
        )
        return Response(OwnedTopicSerializer(topic).data, status=status.HTTP_201_CREATED)


def _owned_topic(request, slug: str) -> Topic:
    topic = Topic.objects.filter(slug=slug, owner=request.user).first()
    if topic is None or topic.status == Topic.Status.DELETED:
        raise Http404
    return topic


class TopicOwnerView(APIView):
    @extend_schema(
        request=PublishSerializer, responses={200: OwnedTopicSerializer, 403: TIER_LIMIT}
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
        if not isinstance(request.data, dict):
            raise APIInputError({"non_field_errors": "Send a JSON object."})
        unknown = sorted(set(request.data) - {*current, "slug"})
        if unknown:
            raise APIInputError({unknown[0]: "Not something a topic update can change."})
        data = PublishInput(**{**current, **request.data})
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
    @extend_schema(request=None, responses={201: SubscriptionSerializer, 403: TIER_LIMIT})
    def post(self, request, slug: str):
        topic = _followable(request, slug)
        tweaks = request.data if isinstance(request.data, dict) else {}
        existed = following.existing_follow(request.user, topic) is not None
        subscription = _topic_call(
            following.follow, request.user, topic, dict(tweaks), now=timezone.now()
        )
        return Response(
            SubscriptionSerializer(subscription).data,
            status=status.HTTP_200_OK if existed else status.HTTP_201_CREATED,
        )


class TopicForkView(APIView):
    @extend_schema(request=None, responses={201: SubscriptionSerializer, 403: TIER_LIMIT})
    def post(self, request, slug: str):
        topic = _followable(request, slug)
        subscription = _topic_call(following.fork, request.user, topic, now=timezone.now())
        return Response(SubscriptionSerializer(subscription).data, status=status.HTTP_201_CREATED)
