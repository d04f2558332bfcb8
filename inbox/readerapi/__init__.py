"""The reading-app protocols: a Google Reader–compatible API (greader.py) and Fever
(fever.py), so apps such as NetNewsWire or Reeder read and mark the Inbox. Both are thin
callers of the Inbox services (inbox.listing, inbox.states) through streams.py, and log in
with an app password (an ApiToken of scope READER, inbox.tokens)."""
