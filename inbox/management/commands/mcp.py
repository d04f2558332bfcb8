"""`manage.py mcp`: the MCP server over stdio, for assistants that start it as a command.

The personal API token comes from the environment (TIDINGS_API_TOKEN), never the command line,
where any user of the machine can read it in the process list. Stdout is the protocol's: every
message of ours goes to stderr.
"""

from __future__ import annotations

import os
import sys

import anyio
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from inbox.assistants.caller import calling_as, serve_stdio_process
from inbox.assistants.server import mcp_server
from inbox.models import ApiToken
from inbox.tokens import authenticate_token

TOKEN_VARIABLE = "TIDINGS_API_TOKEN"  # noqa: S105 - the name of a variable, not a secret


class Command(BaseCommand):
    help = (
        f"Serve the MCP server over stdio as the owner of the personal API token in "
        f"${TOKEN_VARIABLE} (docs/assistants.md)."
    )

    def handle(self, *args, **options):
        clear = os.environ.get(TOKEN_VARIABLE, "").strip()
        if not clear:
            raise CommandError(
                f"Set {TOKEN_VARIABLE} to a personal API token (Preferences → Connect an "
                "assistant creates one)."
            )
        token = authenticate_token(clear, now=timezone.now())
        if token is None or token.scope == ApiToken.Scope.READER:
            raise CommandError(f"{TOKEN_VARIABLE} is not a valid personal API token.")
        serve_stdio_process()
        sys.stderr.write(f"Tidings MCP server on stdio, as {token.user.email} ({token.scope}).\n")
        with calling_as(token):
            anyio.run(mcp_server().run_stdio_async)
