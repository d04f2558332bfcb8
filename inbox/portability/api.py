"""/api/v1/ for the account's data: export, import, transfer codes, and pulling from another
instance. Thin: inbox/portability/{export,importing,transfer}.py decide everything."""

from __future__ import annotations

import io
import tempfile

from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.parsers import BaseParser
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.errors import APIInputError
from config.api.fields import StrictCharField, StrictChoiceField, StrictListField
from config.api.responses import created
from config.api.schema import ERROR_RESPONSE
from config.api.serializers import ResponseSerializer, StrictSerializer, read_body, read_query
from config.api.throttling import ScopedIPRateThrottle
from config.client_address import client_address
from inbox.idempotency import idempotent
from inbox.models import ImportJob, TransferCode
from inbox.portability import import_jobs, importing, transfer
from inbox.portability.export import encoded_chunks, stream_export
from inbox.portability.importing import max_import_bytes
from inbox.portability.schema import EXPORT_COMPONENT, IMPORT_VALUE_COMPONENT
from inbox.tasks import enqueue_import

EXPORT_CONTENT_TYPE = "application/json"
# The export format's own JSON Schema, made components by schema.document_export_format.
EXPORT_DOCUMENT = {"$ref": f"#/components/schemas/{EXPORT_COMPONENT}"}


def export_filename(now) -> str:
    return f"tidings-export-{now:%Y%m%d-%H%M%S}.json"


def streamed_export(blocks, now) -> StreamingHttpResponse:
    response = StreamingHttpResponse(blocks, content_type=EXPORT_CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{export_filename(now)}"'
    response["Cache-Control"] = "no-store"
    return response


class ExportQuerySerializer(StrictSerializer):
    scope = StrictChoiceField(
        choices=TransferCode.Scope.choices,
        default=TransferCode.Scope.EVERYTHING,
        help_text="everything (default), saved_recent (saved items and the last 30 days of "
        "briefs) or saved (saved items only).",
    )


class ExportView(APIView):
    throttle_scope = "export"

    @extend_schema(
        parameters=[ExportQuerySerializer],
        responses={
            (200, EXPORT_CONTENT_TYPE): OpenApiResponse(
                EXPORT_DOCUMENT,
                description="The account as a `tidings-export@1` document (its JSON Schema is "
                "inbox/portability/export.schema.json), streamed.",
            )
        },
        description="Everything of yours as one JSON document: preferences, sources, "
        "subscriptions, runs with their items, and what you read, saved or marked not "
        "interesting. Streamed, so any size of account downloads in constant memory.",
    )
    def get(self, request):
        query = read_query(ExportQuerySerializer, request)
        now = timezone.now()
        return streamed_export(
            encoded_chunks(stream_export(request.user, now=now, scope=query["scope"])), now
        )


class ExportDocumentParser(BaseParser):
    """The body of an import: a JSON document of up to IMPORT_MAX_BYTES, spooled to a
    temporary file (in memory up to 1 MB) one block at a time and handed over unparsed — the
    import reads it piece by piece with the API's JSON rules and its own size cap. One byte
    past the cap is kept, so an oversized body is refused without being read whole."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        spool = tempfile.SpooledTemporaryFile(max_size=1024 * 1024)  # noqa: SIM115 - the view closes it
        left = max_import_bytes() + 1
        while stream is not None and left > 0:
            block = stream.read(min(left, 64 * 1024))
            if not block:
                break
            spool.write(block)
            left -= len(block)
        spool.seek(0)
        return {"file": spool}


@extend_schema_field({"$ref": f"#/components/schemas/{IMPORT_VALUE_COMPONENT}"})
class ImportValueField(serializers.JSONField):
    """A free-form member of an imported document (checked by the import job)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)


class ExportDocumentSerializer(StrictSerializer):
    """The document's top level, for the schema, and checked at once by `POST /import` (a 400
    naming the member: an unknown one, a missing one, a list that is not a list); every part is
    described field by field in inbox/portability/export.schema.json, which the import job
    checks it against."""

    format = StrictChoiceField(choices=[importing.FORMAT])
    exported_at = StrictCharField(help_text="ISO 8601 date and time with a UTC offset.")
    instance = ImportValueField(help_text="{url, software}")
    scope = StrictChoiceField(choices=TransferCode.Scope.choices)
    account = ImportValueField(help_text="{id, email} on the exporting instance")
    preferences = ImportValueField(help_text="{ui_locale, timezone, locale_mode}")
    folders = StrictListField(
        child=ImportValueField(),
        required=False,
        help_text="The library's folders (older documents have none).",
    )
    sources = StrictListField(child=ImportValueField())
    subscriptions = StrictListField(child=ImportValueField())
    runs = StrictListField(child=ImportValueField(), help_text="With their items.")
    content_states = StrictListField(child=ImportValueField())


def check_top_level(body) -> None:
    """Refuse at once (400 naming the member) a document whose top level is not what the
    schema says — not one JSON object, another `format`, a member missing, unknown or of the
    wrong kind — rather than queue a job bound to fail. Reads the document once, one member
    and one list element at a time (inbox/portability/reader.py); what is inside each member is
    the job's to check. Leaves `body` at its start."""
    try:
        document = importing.open_document(body)
        ExportDocumentSerializer(data=document.head).is_valid(raise_exception=True)
    finally:
        body.seek(0)


class RefusedSourceSerializer(ResponseSerializer):
    id = serializers.IntegerField()
    type = serializers.CharField()
    url = serializers.CharField(allow_blank=True)
    reason = serializers.CharField()


class ImportSummarySerializer(ResponseSerializer):
    already_imported = serializers.BooleanField(
        help_text="This very document was imported before: nothing changed."
    )
    checksum = serializers.CharField(help_text="SHA-256 of the document, as recorded.")
    sources_added = serializers.IntegerField()
    sources_matched = serializers.IntegerField()
    sources_refused = RefusedSourceSerializer(many=True)
    subscriptions_created = serializers.IntegerField()
    subscriptions_matched = serializers.IntegerField()
    subscriptions_paused_by_plan = serializers.IntegerField()
    runs_created = serializers.IntegerField()
    runs_matched = serializers.IntegerField()
    runs_skipped_unfinished = serializers.IntegerField()
    run_items_created = serializers.IntegerField()
    content_states_created = serializers.IntegerField()
    content_states_updated = serializers.IntegerField()


class ImportErrorSerializer(ResponseSerializer):
    code = serializers.CharField(help_text="As the API's errors: unsupported_format, invalid…")
    message = serializers.CharField()
    fields = serializers.DictField(child=serializers.CharField())
    status = serializers.IntegerField(help_text="The HTTP status this refusal has elsewhere.")


class ImportJobSerializer(ResponseSerializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=ImportJob.Status.choices)
    progress_percent = serializers.IntegerField(
        help_text="How far the import's current pass over the file is; 100 when done."
    )
    size_bytes = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    summary = ImportSummarySerializer(allow_null=True, help_text="When done.")
    error = ImportErrorSerializer(allow_null=True, help_text="When failed.")

    def to_representation(self, job):
        return {
            "id": job.pk,
            "status": job.status,
            "progress_percent": import_jobs.progress_percent(job),
            "size_bytes": job.size_bytes,
            "created_at": _iso(job.created_at),
            "started_at": _iso(job.started_at),
            "finished_at": _iso(job.finished_at),
            "summary": job.summary or None,
            "error": {
                "code": job.error_code,
                "message": job.error_message,
                "fields": job.error_fields,
                "status": job.error_status,
            }
            if job.status == ImportJob.Status.FAILED
            else None,
        }


def _iso(moment) -> str | None:
    return serializers.DateTimeField().to_representation(moment) if moment else None


def _job_accepted(request, job: ImportJob) -> Response:
    enqueue_import(job.pk)
    job.refresh_from_db()  # an inline worker (tests, `sync`) may have finished it already
    location = request.build_absolute_uri(reverse("api-import-job", kwargs={"job_id": job.pk}))
    return Response(
        ImportJobSerializer(job).data,
        status=status.HTTP_202_ACCEPTED,
        headers={"Location": location},
    )


class ImportView(APIView):
    parser_classes = [ExportDocumentParser]
    throttle_scope = "import"

    @extend_schema(
        request={EXPORT_CONTENT_TYPE: ExportDocumentSerializer},
        responses={202: ImportJobSerializer, 409: ERROR_RESPONSE, 413: ERROR_RESPONSE},
        description="Queue the import of a `tidings-export@1` document (at most "
        "IMPORT_MAX_BYTES, 100 MB by default: 413 beyond) and answer at once with its job; "
        "read the job at `Location` until `status` is `done` (with `summary`) or `failed` "
        "(with `error`: the whole document is checked; a refused document changes nothing). "
        "Its top level is checked at once: a body that is not one JSON object, another "
        "`format` (`unsupported_format`), or a member missing, unknown or of the wrong kind "
        "is a 400 naming it, and no job is made. One import at a time per account "
        "(409 `import_in_progress`). Importing the same document again changes nothing; "
        "imported runs are history — never run, delivered or charged.",
    )
    def post(self, request):
        body = request.data.get("file")
        if body is None:
            # No body at all: nothing to queue.
            raise APIInputError({"file": _("Send the export document as the request body.")})
        try:
            check_top_level(body)
            job = import_jobs.start_import(request.user, body or io.BytesIO(), now=timezone.now())
        finally:
            if body is not None:
                body.close()
        return _job_accepted(request, job)


class ImportJobView(APIView):
    @extend_schema(responses=ImportJobSerializer)
    def get(self, request, job_id: int):
        job = get_object_or_404(ImportJob, pk=job_id, user=request.user)
        return Response(ImportJobSerializer(job).data)


# --- Transfer codes -----------------------------------------------------------------------------


class TransferCodeInputSerializer(StrictSerializer):
    scope = StrictChoiceField(
        choices=TransferCode.Scope.choices,
        help_text="saved (saved items only), saved_recent (and the last 30 days of briefs) or "
        "everything.",
    )


class NewTransferCodeSerializer(ResponseSerializer):
    id = serializers.IntegerField()
    code = serializers.CharField(help_text="Shown this once; give it to the other Tidings.")
    scope = serializers.ChoiceField(choices=TransferCode.Scope.choices)
    expires_at = serializers.DateTimeField()


class TransferCodeCreateView(APIView):
    @extend_schema(
        request=TransferCodeInputSerializer,
        responses={201: NewTransferCodeSerializer, 409: ERROR_RESPONSE},
        description="A one-time code another Tidings redeems to pull your export: good for "
        "15 minutes, once, for the scope chosen.",
    )
    @idempotent
    def post(self, request):
        data = read_body(TransferCodeInputSerializer, request)
        row, code = transfer.issue_code(request.user, data["scope"], now=timezone.now())
        body = {"id": row.pk, "code": code, "scope": row.scope, "expires_at": row.expires_at}
        return created(
            request, NewTransferCodeSerializer(body).data, "api-transfer-code", code_id=row.pk
        )


class TransferCodeRevokeView(APIView):
    @extend_schema(responses={204: None}, description="Revoke an unused code.")
    def delete(self, request, code_id: int):
        if not transfer.revoke_code(request.user, code_id, now=timezone.now()):
            raise NotFound()
        return Response(status=status.HTTP_204_NO_CONTENT)


class RedeemSerializer(StrictSerializer):
    code = StrictCharField(max_length=200, help_text="The transfer code, tx_…")


class TransferRedeemView(APIView):
    """Called by another Tidings instance, not by people: the code is the credential (a token
    is not needed; a bad one is refused like everywhere)."""

    permission_classes = [AllowAny]
    throttle_classes = [ScopedIPRateThrottle]
    throttle_scope = "transfer_redeem"

    @extend_schema(
        request=RedeemSerializer,
        responses={
            (200, EXPORT_CONTENT_TYPE): OpenApiResponse(
                EXPORT_DOCUMENT, description="The export the code was made for, streamed."
            ),
            404: ERROR_RESPONSE,
            410: ERROR_RESPONSE,
        },
        description="Spend a transfer code and receive the export (another Tidings calls this "
        "through its safe fetch client). 404: no such code; 410: used, revoked or expired.",
    )
    def post(self, request):
        data = read_body(RedeemSerializer, request)
        now = timezone.now()
        _row, blocks = transfer.redeem(data["code"], now=now, address=client_address(request))
        return streamed_export(blocks, now)


class PullSerializer(StrictSerializer):
    instance = StrictCharField(max_length=2048, help_text="The other Tidings' address, https://…")
    code = StrictCharField(max_length=200, help_text="A transfer code made there, tx_…")


class TransferPullView(APIView):
    throttle_scope = "import"

    @extend_schema(
        request=PullSerializer,
        responses={202: ImportJobSerializer, 409: ERROR_RESPONSE, 502: ERROR_RESPONSE},
        description="Redeem a transfer code made on another Tidings and queue the import of "
        "what it sends, as an upload's (202 with the job; read it at `Location`). 502: the "
        "other instance refused the code or could not be reached (the reason is in "
        "`error.fields`); 409 `import_in_progress` before the code is spent.",
    )
    def post(self, request):
        data = read_body(PullSerializer, request)
        job = transfer.pull(
            request.user, instance=data["instance"], code=data["code"], now=timezone.now()
        )
        return _job_accepted(request, job)
