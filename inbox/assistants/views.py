"""Preferences → Connect an assistant: the endpoint, a new token for it (read-only unless the
reader asks for more), and what to paste into the common clients."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils.translation import gettext as _

from inbox.models import ApiToken
from inbox.tokens import TokenError, issue_token

PLACEHOLDER = "<your token>"


def client_snippets(endpoint: str, token: str) -> list[tuple[str, str]]:
    """(client, configuration) pairs for the common MCP clients."""
    bearer = f"Bearer {token}"
    root = Path(settings.BASE_DIR)
    return [
        (
            "Claude Code",
            f"claude mcp add --transport http tidings {endpoint} "
            f'--header "Authorization: {bearer}"',
        ),
        (
            _("Claude Desktop, Cursor, VS Code and other clients (mcp.json)"),
            json.dumps(
                {
                    "mcpServers": {
                        "tidings": {"url": endpoint, "headers": {"Authorization": bearer}}
                    }
                },
                indent=2,
            ),
        ),
        (
            _("On the server itself, over stdio"),
            json.dumps(
                {
                    "mcpServers": {
                        "tidings": {
                            "command": sys.executable,
                            "args": [str(root / "manage.py"), "mcp"],
                            "env": {"TIDINGS_API_TOKEN": token},
                        }
                    }
                },
                indent=2,
            ),
        ),
    ]


@login_required
def connect_assistant(request):
    new_token = None
    if request.method == "POST":
        scope = request.POST.get("scope", ApiToken.Scope.READ)
        if scope not in (ApiToken.Scope.READ, ApiToken.Scope.WRITE):
            scope = "?"  # refused below, naming the choices
        try:
            _row, new_token = issue_token(
                request.user, request.POST.get("name", "") or _("Assistant"), scope
            )
        except TokenError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Token created. Copy it now: it will not be shown again."))
    endpoint = f"{settings.SITE_URL}/mcp"
    return render(
        request,
        "inbox/assistant.html",
        {
            "endpoint": endpoint,
            "new_token": new_token,
            "snippets": client_snippets(endpoint, new_token or PLACEHOLDER),
            "scopes": [
                (ApiToken.Scope.READ, _("Read only: read briefs and the Inbox, search, preview")),
                (
                    ApiToken.Scope.WRITE,
                    _(
                        "Read and write: also mark items, add sources and change subscriptions "
                        "(spending credits or deleting still asks you to confirm)"
                    ),
                ),
            ],
            "nav": "preferences",
        },
    )
