"""/api/v1/newsletters/: private inbound addresses, their held senders, and the Mailgun inbound
webhook (ingest/newsletters/webhook.py)."""

from __future__ import annotations

from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.errors import APIInputError
from config.api.fields import IdField, StrictBooleanField, StrictCharField
from config.api.serializers import ResponseModelSerializer, StrictSerializer, read_body
from ingest.library.input import SourceInputError
from ingest.models import InboundMessage, NewsletterAddress
from ingest.newsletters import addresses
from ingest.newsletters.receiving import allow_sender


class CreateAddressSerializer(StrictSerializer):
    label = StrictCharField(
        required=False, default="", allow_blank=True, max_length=addresses.LABEL_MAX_CHARS
    )
    split_roundups = StrictBooleanField(
        required=False,
        default=False,
        help_text="Each linked article of an issue also becomes its own item.",
    )
    subscription_id = IdField(
        required=False,
        allow_null=True,
        default=None,
        help_text="One of your subscriptions: it uses the new address's source at once.",
    )


class AllowSenderSerializer(StrictSerializer):
    sender = StrictCharField(
        max_length=320,
        # What ingest/newsletters/addresses.clean_sender takes (it lowers the case).
        schema_pattern=r"^([^@\s\x00]+@|@)?[A-Za-z0-9.-]+\.[A-Za-z]{2,}$",
        help_text="A sender address (news@example.com) or a domain (@example.com).",
    )


class AddressSerializer(ResponseModelSerializer):
    address = serializers.CharField()
    source_id = serializers.IntegerField()
    active = serializers.BooleanField()
    # A list of strings in the schema too (a JSON model field is typed as anything).
    allowed_senders = serializers.ListField(
        child=serializers.CharField(),
        help_text=NewsletterAddress._meta.get_field("allowed_senders").help_text,
    )

    class Meta:
        model = NewsletterAddress
        fields = [
            "id",
            "address",
            "source_id",
            "label",
            "active",
            "split_roundups",
            "allowed_senders",
            "created_at",
            "revoked_at",
        ]


class InboundMessageSerializer(ResponseModelSerializer):
    class Meta:
        model = InboundMessage
        fields = [
            "id",
            "status",
            "sender_email",
            "sender_name",
            "subject",
            "received_at",
            "confirm_url",
            "dkim",
            "item_id",
        ]


def _own_address(request, address_id: int) -> NewsletterAddress:
    address = NewsletterAddress.objects.filter(user=request.user, pk=address_id).first()
    if address is None:
        raise Http404
    return address


class AddressListView(APIView):
    @extend_schema(responses={200: AddressSerializer(many=True)})
    def get(self, request):
        rows = NewsletterAddress.objects.filter(user=request.user)
        return Response(AddressSerializer(rows, many=True).data)

    @extend_schema(
        request=CreateAddressSerializer,
        responses={201: AddressSerializer},
        description="A new private address (random, unguessable) with its own newsletter "
        "source in your library; give it to a newsletter and its issues become items.",
    )
    def post(self, request):
        data = read_body(CreateAddressSerializer, request)
        subscription = None
        if data["subscription_id"] is not None:
            from digests.models import Subscription

            subscription = Subscription.objects.filter(
                owner=request.user, pk=data["subscription_id"], deleted_at=None
            ).first()
            if subscription is None:
                raise APIInputError(
                    {"subscription_id": _("No such subscription of yours.")}, code="not_found"
                )
        try:
            address = addresses.create_address(
                request.user,
                now=timezone.now(),
                label=data["label"],
                split_roundups=data["split_roundups"],
                subscription=subscription,
            )
        except SourceInputError as exc:
            raise APIInputError(exc.errors, code=exc.code) from None
        return Response(AddressSerializer(address).data, status=status.HTTP_201_CREATED)


class AddressDetailView(APIView):
    @extend_schema(responses={200: AddressSerializer})
    def get(self, request, address_id: int):
        return Response(AddressSerializer(_own_address(request, address_id)).data)

    @extend_schema(responses={204: None}, description="Revoke: mail to it is refused from now on.")
    def delete(self, request, address_id: int):
        addresses.revoke(_own_address(request, address_id), now=timezone.now())
        return Response(status=status.HTTP_204_NO_CONTENT)


class AddressMessagesView(APIView):
    @extend_schema(
        responses={200: InboundMessageSerializer(many=True)},
        description="The latest 100 messages: held ones (sender not allowed) and "
        "confirmations (open confirm_url yourself) among them.",
    )
    def get(self, request, address_id: int):
        address = _own_address(request, address_id)
        rows = address.messages.defer("raw")[:100]
        return Response(InboundMessageSerializer(rows, many=True).data)


class AllowSenderView(APIView):
    @extend_schema(
        request=AllowSenderSerializer,
        responses={200: AddressSerializer},
        description="Allow a sender; the mail of theirs that was held becomes items now.",
    )
    def post(self, request, address_id: int):
        address = _own_address(request, address_id)
        data = read_body(AllowSenderSerializer, request)
        try:
            allow_sender(address, data["sender"], now=timezone.now())
        except SourceInputError as exc:
            raise APIInputError(exc.errors, code=exc.code) from None
        return Response(AddressSerializer(address).data)
