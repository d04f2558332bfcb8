"""The tools, one module per part of the product; importing this package registers them all."""

from inbox.assistants.tools import briefs, credits, inbox, pool, sources, subscriptions, topics

__all__ = ["briefs", "credits", "inbox", "pool", "sources", "subscriptions", "topics"]
