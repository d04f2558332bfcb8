"""python manage.py create_token EMAIL [--name NAME] [--scope read|write]: a personal API token
for an account, printed on the last line (for admins and scripts: `TOKEN=$(… | tail -1)`)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from inbox.models import ApiToken
from inbox.tokens import TokenError, issue_token


class Command(BaseCommand):
    help = "Create a personal API token for the account with this e-mail; prints it last."

    def add_arguments(self, parser):
        parser.add_argument("email")
        parser.add_argument("--name", default="manage.py create_token")
        parser.add_argument(
            "--scope",
            choices=ApiToken.Scope.values,
            default=ApiToken.Scope.WRITE,
            help="read: GET only; write (default): everything the account may do.",
        )

    def handle(self, *args, email: str, name: str, scope: str, **options):
        user = get_user_model().objects.filter(email__iexact=email.strip()).first()
        if user is None:
            raise CommandError(f"No account with the e-mail {email!r}.")
        if not user.is_active:
            raise CommandError(f"The account {user.email} is deactivated.")
        try:
            token, clear = issue_token(user, name, scope)
        except TokenError as exc:
            raise CommandError(exc.message) from None
        self.stderr.write(
            f"Token {token.name!r} ({token.scope}) for {user.email} (shown once; revoke it on the "
            "API tokens page or in the admin):"
        )
        self.stdout.write(clear)
