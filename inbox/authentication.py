"""DRF authentication with personal API tokens: ``Authorization: Bearer tid_…``."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.permissions import SAFE_METHODS

from inbox import auth_throttle
from inbox.models import ApiToken
from inbox.tokens import authenticate_token


class BearerTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"
    # A read-only token may only GET: the REST API's methods say what a request does. The MCP
    # endpoint POSTs reads and writes alike and checks each tool's kind itself.
    read_tokens_only_read = True

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).decode("latin-1")
        if not header:
            return None
        scheme, _, credentials = header.partition(" ")
        if scheme.lower() != self.keyword.lower():
            return None
        now = timezone.now()
        credentials = credentials.strip()
        token = None
        if credentials and " " not in credentials:
            token = authenticate_token(credentials, now=now)
        if token is None:
            # Failed authentications are counted per client address (inbox/auth_throttle.py):
            # past the limit the answer is 429 with Retry-After, not another 401. A good token
            # costs nothing here.
            refusal = auth_throttle.api_authentication_failed(request, now=now)
            if refusal is not None:
                raise exceptions.Throttled(wait=refusal.retry_after)
            if not credentials or " " in credentials:
                raise exceptions.AuthenticationFailed(
                    "Malformed Authorization header: use 'Bearer <token>'."
                )
            raise exceptions.AuthenticationFailed("Invalid or revoked API token.")
        if token.scope == ApiToken.Scope.READER:
            raise exceptions.AuthenticationFailed(
                gettext("This is an app password: only reading apps (Google Reader, Fever) use it.")
            )
        # Checked here, where every token request passes, rather than in each view's
        # permission classes (which a view may replace).
        if (
            self.read_tokens_only_read
            and token.scope == ApiToken.Scope.READ
            and request.method not in SAFE_METHODS
        ):
            raise exceptions.PermissionDenied(
                gettext(
                    "This token is read-only: it may only read (GET). Use a read-and-write token."
                )
            )
        return token.user, token

    def authenticate_header(self, request):
        return self.keyword


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """Documents the token scheme in the OpenAPI schema (Swagger's "Authorize" button)."""

    target_class = "inbox.authentication.BearerTokenAuthentication"
    name = "PersonalApiToken"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "bearerFormat": "tid_<prefix>_<secret>"}
