"""Who may call what, for endpoints whose rule is more than "signed in"."""

from __future__ import annotations

from rest_framework import exceptions
from rest_framework.permissions import BasePermission


class IsStaffToken(BasePermission):
    """Operations endpoints are for scripts: a staff member's personal API token, never a
    browser session (staff use the Django admin there). A session alone is answered like no
    credentials at all (401), a token of a non-staff user with 403."""

    message = "This endpoint is for staff API tokens only."

    def has_permission(self, request, view) -> bool:
        if request.auth is None:  # no token: anonymous, or a session
            raise exceptions.NotAuthenticated("A staff member's personal API token is required.")
        return bool(request.user and request.user.is_staff)
