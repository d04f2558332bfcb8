"""/api/v1/sources: the user's source library."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from inbox.api_errors import APIInputError
from ingest.models import UserSource
from ingest.sources import SourceError, add_feed_by_url, remove_from_library


class LibrarySourceSerializer(serializers.ModelSerializer):
    source_id = serializers.IntegerField()
    type = serializers.CharField(source="source.type")
    url = serializers.CharField(source="source.url")
    title = serializers.CharField(source="source.title")
    status = serializers.CharField(source="source.status")
    last_refresh_at = serializers.DateTimeField(source="source.last_refresh_at")
    next_refresh_at = serializers.DateTimeField(source="source.next_refresh_at")
    last_error = serializers.CharField(source="source.last_error")

    class Meta:
        model = UserSource
        fields = [
            "id",
            "source_id",
            "display_name",
            "type",
            "url",
            "title",
            "status",
            "last_refresh_at",
            "next_refresh_at",
            "last_error",
            "added_at",
        ]


class AddSourceSerializer(serializers.Serializer):
    url = serializers.CharField()
    display_name = serializers.CharField(required=False, allow_blank=True, default="")


class SourceListView(ListAPIView):
    serializer_class = LibrarySourceSerializer

    def get_queryset(self):
        return UserSource.objects.filter(user=self.request.user).select_related("source")

    @extend_schema(request=AddSourceSerializer, responses={201: LibrarySourceSerializer})
    def post(self, request):
        payload = AddSourceSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            added = add_feed_by_url(
                request.user,
                payload.validated_data["url"],
                now=timezone.now(),
                display_name=payload.validated_data["display_name"],
            )
        except SourceError as exc:
            raise APIInputError({exc.field: exc.message}, code=exc.code) from None
        return Response(
            LibrarySourceSerializer(added.user_source).data,
            status=status.HTTP_201_CREATED if added.created else status.HTTP_200_OK,
        )


class SourceDetailView(APIView):
    @extend_schema(responses=LibrarySourceSerializer)
    def get(self, request, user_source_id: int):
        user_source = get_object_or_404(UserSource, pk=user_source_id, user=request.user)
        return Response(LibrarySourceSerializer(user_source).data)

    @extend_schema(responses={204: None})
    def delete(self, request, user_source_id: int):
        get_object_or_404(UserSource, pk=user_source_id, user=request.user)
        remove_from_library(request.user, user_source_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
