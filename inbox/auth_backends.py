"""Log in with an email address: the username of every account is its lowercased email."""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend


class EmailBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        email = (username or kwargs.get("email") or "").strip().lower()
        return super().authenticate(request, username=email, password=password)
