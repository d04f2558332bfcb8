"""The MCP server (docs/assistants.md): a reader's AI assistant reads the briefs and retunes
the subscriptions through the official `mcp` SDK, over Streamable HTTP at /mcp (http.py) or
stdio (`manage.py mcp`).

Every tool is a thin caller of the services the API and the console use, and validates its
arguments with the API's own serializers, so a rule, a limit or a bill is the same whichever
door a reader comes in by. Three rules of safety hold for every tool:

- the caller is a personal API token (caller.py): a read-only token sees and may call only the
  read tools; nothing of another reader is ever found;
- destructive or costly tools (spending credits, deleting, unfollowing) answer a first call with a
  confirmation token bound to the caller, the tool and its target, and act only on a second call
  that brings it back within minutes (confirmations.py);
- every text that came from a feed, a page or a mail — a stranger's words — is returned inside a
  field named `untrusted` (and between markers in the text output), never in a tool's
  description or a confirmation prompt; credentials in addresses are redacted (untrusted.py).
"""
