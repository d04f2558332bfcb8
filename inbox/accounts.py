"""Sign-up: account logic shared by the views and the tests (login throttling is in
inbox/auth_throttle.py)."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction

from billing.accounts import ensure_account
from digests.schedules.next_run import ScheduleError, validate_timezone
from inbox.models import UserPreference

User = get_user_model()


class SignupError(Exception):
    def __init__(self, errors: dict[str, list[str]]):
        super().__init__(str(errors))
        self.errors = errors


def sign_up(*, email: str, password: str, timezone: str = "UTC", locale: str = "en", now: datetime):
    """Create a user, their preferences and their billing account, or change nothing."""
    email = (email or "").strip().lower()
    errors: dict[str, list[str]] = {}
    try:
        validate_email(email)
    except ValidationError:
        errors["email"] = ["Enter a valid email address."]
    if not errors and User.objects.filter(username=email).exists():
        errors["email"] = ["An account with this email already exists. Log in instead."]
    try:
        validate_password(password, User(username=email, email=email))
    except ValidationError as exc:
        errors["password"] = list(exc.messages)
    try:
        validate_timezone(timezone)
    except ScheduleError as exc:
        errors["timezone"] = [exc.message]
    if locale not in dict(settings.LANGUAGES):
        locale = settings.LANGUAGE_CODE
    if errors:
        raise SignupError(errors)
    with transaction.atomic():
        user = User.objects.create_user(username=email, email=email, password=password)
        UserPreference.objects.create(user=user, timezone=timezone, ui_locale=locale)
        ensure_account(user, now=now)
    return user
