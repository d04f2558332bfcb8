"""The reading-app protocols: a Google Reader–compatible API (greader.py) and Fever
(fever.py), so apps such as NetNewsWire or Reeder read and mark the Inbox. Both are thin
callers of the Inbox services (inbox.listing, inbox.states) through streams.py — with
labels.py for folders and briefs.py for briefs as items — and log in with an app password
(an ApiToken of scope READER, inbox.tokens)."""
