"""/api/v1/sources: the user's source library."""

from __future__ import annotations

from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import BaseParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.error_codes import ERROR_CODES, field_code
from config.api.errors import APIInputError
from config.api.fields import HttpUrlField, IdField, StrictCharField
from config.api.pagination import OffsetCursorPagination
from config.api.responses import created
from config.api.serializers import (
    ResponseModelSerializer,
    ResponseSerializer,
    StrictSerializer,
    read_body,
)
from inbox.idempotency import idempotent
from ingest.library.folders import (
    FolderError,
    create_folder,
    delete_folder,
    move_source,
    rename_folder,
)
from ingest.library.opml import (
    MAX_OPML_BYTES,
    OPML_CONTENT_TYPE,
    OPMLError,
    OutlineStatus,
    export_opml,
    import_opml,
)
from ingest.library.packs import PackError, install_pack, pack_states
from ingest.library.sources import SourceError, add_feed_by_url, remove_from_library
from ingest.models import Folder, UserSource


class LibrarySourceSerializer(ResponseModelSerializer):
    source_id = serializers.IntegerField()
    type = serializers.CharField(source="source.type")
    url = serializers.CharField(source="source.url")
    title = serializers.CharField(source="source.title")
    status = serializers.CharField(source="source.status")
    last_refresh_at = serializers.DateTimeField(source="source.last_refresh_at", allow_null=True)
    next_refresh_at = serializers.DateTimeField(source="source.next_refresh_at", allow_null=True)
    last_error = serializers.CharField(source="source.last_error")
    folder = serializers.IntegerField(
        source="folder_id", allow_null=True, help_text="The folder it is in, or null."
    )
    folder_name = serializers.SerializerMethodField()

    class Meta:
        model = UserSource
        fields = [
            "id",
            "source_id",
            "display_name",
            "folder",
            "folder_name",
            "type",
            "url",
            "title",
            "status",
            "last_refresh_at",
            "next_refresh_at",
            "last_error",
            "added_at",
        ]

    def get_folder_name(self, entry) -> str | None:
        return entry.folder.name if entry.folder_id else None


class AddSourceSerializer(StrictSerializer):
    url = HttpUrlField(help_text="A feed, or a site whose feed is found.")
    display_name = StrictCharField(max_length=300, required=False, allow_blank=True, default="")


class SourceListView(ListAPIView):
    serializer_class = LibrarySourceSerializer

    def get_queryset(self):
        return UserSource.objects.filter(user=self.request.user).select_related("source", "folder")

    @extend_schema(
        request=AddSourceSerializer,
        responses={
            201: LibrarySourceSerializer,
            200: OpenApiResponse(LibrarySourceSerializer, description="Already in your library."),
        },
    )
    @idempotent
    def post(self, request):
        data = read_body(AddSourceSerializer, request)
        try:
            added = add_feed_by_url(
                request.user, data["url"], now=timezone.now(), display_name=data["display_name"]
            )
        except SourceError as exc:
            raise APIInputError({exc.field: exc.message}, code=exc.code) from None
        return created(
            request,
            LibrarySourceSerializer(added.user_source).data,
            "api-source",
            new=added.created,
            user_source_id=added.user_source.pk,
        )


class MoveSourceSerializer(StrictSerializer):
    folder = IdField(allow_null=True, help_text="One of your folders' ids, or null for none.")


class SourceDetailView(APIView):
    @extend_schema(responses=LibrarySourceSerializer)
    def get(self, request, user_source_id: int):
        user_source = get_object_or_404(UserSource, pk=user_source_id, user=request.user)
        return Response(LibrarySourceSerializer(user_source).data)

    @extend_schema(
        request=MoveSourceSerializer,
        responses=LibrarySourceSerializer,
        description="Move the source into one of your folders (`folder`: its id) or out of "
        "any (`null`). Without `folder` nothing changes (a PATCH changes what it names).",
    )
    def patch(self, request, user_source_id: int):
        entry = get_object_or_404(UserSource, pk=user_source_id, user=request.user)
        data = read_body(MoveSourceSerializer, request, partial=True)
        if "folder" in data:
            try:
                entry = move_source(request.user, user_source_id, data["folder"])
            except FolderError as exc:
                raise _folder_input_error(exc, field="folder") from None
        return Response(LibrarySourceSerializer(entry).data)

    @extend_schema(responses={204: None})
    def delete(self, request, user_source_id: int):
        get_object_or_404(UserSource, pk=user_source_id, user=request.user)
        remove_from_library(request.user, user_source_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- Folders ------------------------------------------------------------------------------------


class FolderSerializer(ResponseModelSerializer):
    source_count = serializers.IntegerField(help_text="How many library sources it holds.")

    class Meta:
        model = Folder
        fields = ["id", "name", "source_count", "created_at"]


class FolderInputSerializer(StrictSerializer):
    name = StrictCharField(max_length=100, help_text="Unique among your folders.")


def _folders(user):
    return Folder.objects.filter(user=user).annotate(source_count=Count("entries"))


def _folder_input_error(exc: FolderError, *, field: str = "") -> APIInputError:
    """A refused folder name or move: the answer's code is `invalid`, `taken` (409) or
    `not_found` (404), and the field's code says the rule (`required`, `max_length`; a name
    taken is `refused`)."""
    field = field or exc.field
    code = exc.code if exc.code in ERROR_CODES else "invalid"
    rule = field_code(exc.code) or "refused"
    return APIInputError({field: exc.message}, code=code, field_codes={field: rule})


class FolderListView(ListAPIView):
    serializer_class = FolderSerializer

    def get_queryset(self):
        return _folders(self.request.user)

    @extend_schema(request=FolderInputSerializer, responses={201: FolderSerializer})
    def post(self, request):
        data = read_body(FolderInputSerializer, request)
        try:
            folder = create_folder(request.user, data["name"], now=timezone.now())
        except FolderError as exc:
            raise _folder_input_error(exc) from None
        return created(
            request,
            FolderSerializer(_folders(request.user).get(pk=folder.pk)).data,
            "api-folder",
            folder_id=folder.pk,
        )


class FolderDetailView(APIView):
    @extend_schema(responses=FolderSerializer)
    def get(self, request, folder_id: int):
        return Response(
            FolderSerializer(get_object_or_404(_folders(request.user), pk=folder_id)).data
        )

    @extend_schema(
        request=FolderInputSerializer,
        responses=FolderSerializer,
        description="Rename the folder; without `name` nothing changes (a PATCH changes what "
        "it names). A name you already use is refused (409 `taken`).",
    )
    def patch(self, request, folder_id: int):
        get_object_or_404(Folder, pk=folder_id, user=request.user)
        data = read_body(FolderInputSerializer, request, partial=True)
        if "name" in data:
            try:
                rename_folder(request.user, folder_id, data["name"])
            except FolderError as exc:
                raise _folder_input_error(exc) from None
        return Response(FolderSerializer(_folders(request.user).get(pk=folder_id)).data)

    @extend_schema(
        responses={204: None},
        description="Delete the folder; its sources stay in your library, in no folder.",
    )
    def delete(self, request, folder_id: int):
        get_object_or_404(Folder, pk=folder_id, user=request.user)
        delete_folder(request.user, folder_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- Source packs -----------------------------------------------------------------------------


class PackSourceSerializer(ResponseSerializer):
    key = serializers.CharField()
    title = serializers.CharField()
    type = serializers.CharField()
    url = serializers.CharField(allow_blank=True)
    discovery_only = serializers.BooleanField()
    note = serializers.CharField(
        source="current_note",
        allow_blank=True,
        help_text="What this server says about the source now (NAVER: whether discovery is on).",
    )


class PackSerializer(ResponseSerializer):
    key = serializers.CharField(source="pack.key")
    name = serializers.CharField(source="pack.name")
    description = serializers.CharField(source="pack.description")
    language = serializers.CharField(source="pack.language")
    feed_count = serializers.IntegerField(source="pack.feed_count")
    source_count = serializers.IntegerField(source="total")
    in_library = serializers.IntegerField(help_text="How many of its sources you already have.")
    installed = serializers.BooleanField()
    sources = PackSourceSerializer(source="pack.sources", many=True)


class PackInstallSerializer(ResponseSerializer):
    pack = serializers.CharField(source="pack.key")
    added = LibrarySourceSerializer(many=True)
    already_in_library = LibrarySourceSerializer(many=True)


class UnknownPack(APIInputError):
    status_code = status.HTTP_404_NOT_FOUND


class PackListView(ListAPIView):
    serializer_class = PackSerializer
    pagination_class = OffsetCursorPagination

    def get_queryset(self):
        return pack_states(self.request.user)


class PackInstallView(APIView):
    @extend_schema(
        request=None,
        responses={
            201: PackInstallSerializer,
            200: OpenApiResponse(PackInstallSerializer, description="Nothing new to add."),
        },
    )
    def post(self, request, key: str):
        try:
            installed = install_pack(request.user, key, now=timezone.now())
        except PackError as exc:
            raise UnknownPack({exc.field: exc.message}, code=exc.code) from None
        # Several sources at once: the Location is the library that now holds them.
        return created(
            request, PackInstallSerializer(installed).data, "api-sources", new=bool(installed.added)
        )


# --- OPML ---------------------------------------------------------------------------------------


class RawOPMLParser(BaseParser):
    """Any body that is not multipart is the OPML document itself (`curl --data-binary @f`)."""

    media_type = "*/*"

    def parse(self, stream, media_type=None, parser_context=None):
        # One byte past the cap, so an oversized body is refused without being read whole.
        return {"raw": stream.read(MAX_OPML_BYTES + 1) if stream is not None else b""}


class OPMLNegotiation(DefaultContentNegotiation):
    """The export is an OPML document whatever the client accepts; errors stay JSON."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class OPMLUploadSerializer(serializers.Serializer):
    file = serializers.FileField(help_text="The OPML file (at most 1 MB and 1,000 feeds).")


class OutlineResultSerializer(ResponseSerializer):
    url = serializers.CharField()
    title = serializers.CharField(allow_blank=True)
    html_url = serializers.CharField(allow_blank=True)
    status = serializers.ChoiceField(choices=OutlineStatus.choices)
    reason = serializers.CharField(allow_blank=True)
    user_source_id = serializers.IntegerField(allow_null=True)
    folder = serializers.CharField(
        allow_blank=True, help_text='The folder outline the feed was in ("" at the top level).'
    )


class ImportReportSerializer(ResponseSerializer):
    added = serializers.IntegerField()
    already_in_library = serializers.IntegerField()
    duplicate = serializers.IntegerField()
    refused = serializers.IntegerField()
    outlines = OutlineResultSerializer(many=True)


class FileTooLarge(APIInputError):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE


class OPMLView(APIView):
    parser_classes = [MultiPartParser, RawOPMLParser]
    content_negotiation_class = OPMLNegotiation

    @extend_schema(
        responses={(200, "text/x-opml"): OpenApiTypes.STR},
        description="Your library's feeds as an OPML 2.0 document.",
    )
    def get(self, request):
        response = HttpResponse(
            export_opml(request.user, now=timezone.now()), content_type=OPML_CONTENT_TYPE
        )
        response["Content-Disposition"] = 'attachment; filename="tidings-sources.opml"'
        return response

    @extend_schema(
        request={
            "multipart/form-data": OPMLUploadSerializer,
            "text/x-opml": OpenApiTypes.BINARY,
            "application/xml": OpenApiTypes.BINARY,
        },
        responses={200: ImportReportSerializer},
        description="Import an OPML file (a multipart `file` field, or the document as the "
        "request body). Nothing is fetched during the request: new feeds are due at once and "
        "the next refresh tick fetches them. A refused file changes nothing.",
    )
    def post(self, request):
        if request.content_type.startswith("multipart/"):
            upload = request.FILES.get("file")
            if upload is None:
                raise APIInputError({"file": "Send the OPML file in a field named 'file'."})
            data = upload.read(MAX_OPML_BYTES + 1)
        else:
            data = request.data.get("raw", b"")
        try:
            report = import_opml(request.user, data, now=timezone.now())
        except OPMLError as exc:
            error = FileTooLarge if exc.code == "too_large" else APIInputError
            raise error({exc.field: exc.message}, code=exc.code) from None
        return Response(ImportReportSerializer(report).data)
