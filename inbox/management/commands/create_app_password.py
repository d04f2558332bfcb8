"""python manage.py create_app_password EMAIL [--name NAME]: an app password for reading apps
(Google Reader API and Fever, inbox/readerapi), printed on the last line."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from inbox.models import ApiToken
from inbox.tokens import TokenError, issue_token


class Command(BaseCommand):
    help = "Create an app password for reading apps for the account with this e-mail."

    def add_arguments(self, parser):
        parser.add_argument("email")
        parser.add_argument("--name", default="Reading app")

    def handle(self, *args, email: str, name: str, **options):
        user = get_user_model().objects.filter(email__iexact=email.strip()).first()
        if user is None:
            raise CommandError(f"No account with the e-mail {email!r}.")
        if not user.is_active:
            raise CommandError(f"The account {user.email} is deactivated.")
        try:
            token, clear = issue_token(user, name, ApiToken.Scope.READER)
        except TokenError as exc:
            raise CommandError(exc.message) from None
        self.stderr.write(
            f"App password {token.name!r} for {user.email}: log in with the e-mail and this "
            "password (shown once; revoke it on the API tokens page):"
        )
        self.stdout.write(clear)
