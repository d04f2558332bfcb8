"""Personal API tokens and the account over the API: thin callers of inbox.tokens and
inbox.preferences, the same services as the console's Tokens and Preferences pages.

A token is shown once, in the answer that creates it. A read-only token cannot create or
revoke tokens (it is refused anything but reads, inbox.authentication); a token can revoke
itself."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.errors import APIInputError
from config.api.fields import StrictCharField, StrictChoiceField, TimeZoneField
from config.api.pagination import OffsetCursorPagination
from config.api.responses import created
from config.api.serializers import ResponseModelSerializer, StrictSerializer, read_body
from inbox.idempotency import idempotent
from inbox.models import ApiToken
from inbox.preferences import (
    AUTO,
    PreferenceError,
    current_language_choice,
    preference_for,
    update_preferences,
)
from inbox.tokens import TokenError, issue_token, revoke_token


class TokenSerializer(ResponseModelSerializer):
    current = serializers.SerializerMethodField(help_text="The token this request used.")

    class Meta:
        model = ApiToken
        fields = ["id", "name", "scope", "prefix", "created_at", "last_used_at", "current"]

    def get_current(self, obj) -> bool:
        return getattr(self.context.get("request").auth, "pk", None) == obj.pk


class NewTokenSerializer(TokenSerializer):
    token = serializers.CharField(help_text="The token itself: shown this once, store it now.")

    class Meta(TokenSerializer.Meta):
        fields = [*TokenSerializer.Meta.fields, "token"]


class TokenInputSerializer(StrictSerializer):
    name = StrictCharField(max_length=100, help_text="What will use it, e.g. a script's name.")
    scope = StrictChoiceField(
        choices=ApiToken.Scope.choices,
        required=False,
        default=ApiToken.Scope.READ,
        help_text="`read` (the default: reads only) or `write`.",
    )


class TokenListView(ListAPIView):
    """The account's active tokens, newest first; never the tokens themselves."""

    serializer_class = TokenSerializer
    pagination_class = OffsetCursorPagination

    def get_queryset(self):
        return ApiToken.objects.filter(user=self.request.user, revoked_at__isnull=True)

    @extend_schema(request=TokenInputSerializer, responses={201: NewTokenSerializer})
    @idempotent
    def post(self, request):
        data = read_body(TokenInputSerializer, request)
        try:
            token, clear = issue_token(request.user, data["name"], data["scope"])
        except TokenError as exc:
            raise APIInputError({exc.field: exc.message}) from None
        token.token = clear
        body = NewTokenSerializer(token, context={"request": request}).data
        return created(request, body, "api-token", token_id=token.pk)


class TokenDetailView(APIView):
    @extend_schema(request=None, responses={204: None})
    def delete(self, request, token_id: int):
        if not revoke_token(request.user, token_id, now=timezone.now()):
            raise Http404
        return Response(status=204)


class AccountSerializer(serializers.Serializer):
    id = serializers.IntegerField(read_only=True)
    email = serializers.EmailField(read_only=True)
    token_scope = serializers.ChoiceField(
        choices=ApiToken.Scope.choices,
        read_only=True,
        allow_null=True,
        help_text="The scope of the token used (null without one).",
    )
    language = serializers.CharField(
        read_only=True, help_text=f"`{AUTO}` (the browser's) or a language code."
    )
    timezone = serializers.CharField(read_only=True, help_text="IANA name")


class AccountInputSerializer(StrictSerializer):
    language = StrictChoiceField(
        choices=[AUTO, *dict(settings.LANGUAGES)], required=False, help_text="`auto` or a code."
    )
    timezone = TimeZoneField(required=False, help_text="IANA name")


def account_body(request) -> dict:
    preference = preference_for(request.user)
    return {
        "id": request.user.pk,
        "email": request.user.email,
        "token_scope": getattr(request.auth, "scope", None),
        "language": current_language_choice(preference),
        "timezone": preference.timezone,
    }


class MeView(APIView):
    """Who the token belongs to, with the preferences the console's Preferences page sets."""

    @extend_schema(responses=AccountSerializer)
    def get(self, request):
        return Response(AccountSerializer(account_body(request)).data)

    @extend_schema(request=AccountInputSerializer, responses=AccountSerializer)
    def patch(self, request):
        data = read_body(AccountInputSerializer, request)
        preference = preference_for(request.user)
        try:
            update_preferences(
                request.user,
                language=data.get("language", current_language_choice(preference)),
                timezone=data.get("timezone", preference.timezone),
                browser_language=preference.ui_locale,
            )
        except PreferenceError as exc:
            raise APIInputError(exc.errors) from None
        return Response(AccountSerializer(account_body(request)).data)
