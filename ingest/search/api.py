"""POST /api/v1/sources/searches: add a search source to the user's library."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from config.api.errors import APIInputError
from config.api.fields import StrictCharField, StrictChoiceField
from config.api.responses import created as created_response
from config.api.serializers import StrictSerializer, read_body
from ingest.library.api import LibrarySourceSerializer
from ingest.library.input import SourceInputError
from ingest.search import service as search

# What clean_search_input keeps: one character that is neither a comma nor a space as
# Python's str.split() sees one (which also counts the control characters \x1c-\x1f).
QUERY_PATTERN = r"^[^\x00]*[^\s\x00\x1c-\x1f\x85\xa0,][^\x00]*$"


class AddSearchSerializer(StrictSerializer):
    """Shape only: the rules (and their messages) are ingest.search.service.clean_search_input."""

    query = StrictCharField(
        max_length=300,  # ingest.search.service.MAX_QUERY_CHARS
        help_text="Words or phrases; alternatives separated by commas.",
        schema_pattern=QUERY_PATTERN,
    )
    provider = StrictChoiceField(
        choices=list(search.PROVIDERS),
        required=False,
        default=search.DEFAULT_PROVIDER,
        help_text=f"One of {', '.join(search.PROVIDERS)}.",
    )


class SearchSourceSerializer(LibrarySourceSerializer):
    config = serializers.JSONField(source="source.config")
    refresh_mode = serializers.CharField(source="source.refresh_mode")

    class Meta(LibrarySourceSerializer.Meta):
        fields = [*LibrarySourceSerializer.Meta.fields, "config", "refresh_mode"]


class SearchListView(APIView):
    @extend_schema(
        request=AddSearchSerializer,
        responses={
            201: SearchSourceSerializer,
            200: OpenApiResponse(SearchSourceSerializer, description="Already in your library."),
        },
        description="Nothing is searched now: every run of a subscription that uses this "
        "source searches first (refresh mode on_run).",
    )
    def post(self, request):
        data = read_body(AddSearchSerializer, request)
        try:
            user_source, created = search.add_search(
                request.user,
                data["query"],
                provider=data["provider"],
                now=timezone.now(),
            )
        except SourceInputError as exc:
            raise APIInputError(exc.errors, code=exc.code) from None
        return created_response(
            request,
            SearchSourceSerializer(user_source).data,
            "api-source",
            new=created,
            user_source_id=user_source.pk,
        )
