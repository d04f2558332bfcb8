"""POST /api/v1/sources/crawls: add a site crawl to the user's library."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from config.api.errors import APIInputError
from config.api.fields import HttpUrlField, StrictCharField, StrictIntegerField, StrictListField
from config.api.responses import created as created_response
from config.api.serializers import StrictSerializer, read_body
from ingest.crawl import service as crawl
from ingest.library.api import LibrarySourceSerializer
from ingest.library.input import SourceInputError


class AddCrawlSerializer(StrictSerializer):
    """Shape only: the rules (and their messages) live in ingest.crawl.service.clean_crawl_input."""

    url = HttpUrlField(
        help_text="The page to start from (the site's index or blog).",
    )
    include = StrictListField(
        # ingest.crawl.service._patterns: a path from "/", no spaces.
        child=StrictCharField(max_length=200, schema_pattern=r"^/[^\s\x00]*$"),
        max_length=50,
        required=False,
        default=list,
        help_text='Path patterns to follow, e.g. ["/blog/"]; "*" matches anything. Empty: all.',
    )
    exclude = StrictListField(
        # ingest.crawl.service._patterns: a path from "/", no spaces.
        child=StrictCharField(max_length=200, schema_pattern=r"^/[^\s\x00]*$"),
        max_length=50,
        required=False,
        default=list,
        help_text="Path patterns never fetched; they win over include.",
    )
    max_depth = StrictIntegerField(
        min_value=1,
        max_value=crawl.MAX_DEPTH,
        required=False,
        default=crawl.DEFAULT_MAX_DEPTH,
        help_text=f"Links away from the start page, 1 to {crawl.MAX_DEPTH}.",
    )
    limit = StrictIntegerField(
        min_value=crawl.MIN_PAGE_LIMIT,
        max_value=crawl.MAX_PAGE_LIMIT,
        required=False,
        default=crawl.DEFAULT_PAGE_LIMIT,
        help_text=f"Pages fetched per check, {crawl.MIN_PAGE_LIMIT} to {crawl.MAX_PAGE_LIMIT}.",
    )


class CrawlSourceSerializer(LibrarySourceSerializer):
    config = serializers.JSONField(source="source.config")

    class Meta(LibrarySourceSerializer.Meta):
        fields = [*LibrarySourceSerializer.Meta.fields, "config"]


class CrawlListView(APIView):
    @extend_schema(
        request=AddCrawlSerializer,
        responses={
            201: CrawlSourceSerializer,
            200: OpenApiResponse(CrawlSourceSerializer, description="Already in your library."),
        },
        description="Checks robots.txt and the start page once, then adds the crawl; the "
        "next refresh tick crawls it. Its first check is a baseline: pages already on the site "
        "are recorded, not delivered.",
    )
    def post(self, request):
        data = read_body(AddCrawlSerializer, request)
        try:
            user_source, created = crawl.add_site_crawl(request.user, **data, now=timezone.now())
        except SourceInputError as exc:
            raise APIInputError(exc.errors, code=exc.code) from None
        return created_response(
            request,
            CrawlSourceSerializer(user_source).data,
            "api-source",
            new=created,
            user_source_id=user_source.pk,
        )
