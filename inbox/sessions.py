"""Django's database sessions, with the session row read through a compiled query.

Every signed-in page reads its session row first; through the ORM, building and compiling
that `get()` cost about as much as running it (config/compiled_query.py). The row is looked up
by its key alone and its expiry compared here: the same answer as Django's
`get(session_key=…, expire_date__gt=now)`.
"""

from __future__ import annotations

from django.contrib.sessions.backends import db
from django.contrib.sessions.backends.base import VALID_KEY_CHARS
from django.contrib.sessions.models import Session
from django.utils import timezone

from config.compiled_query import CompiledQuery

_SESSION = CompiledQuery(lambda key: Session.objects.filter(session_key=key)[:1], "\x00session-key")


_KEY_CHARS = frozenset(VALID_KEY_CHARS)


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        # A cookie Django never made (a NUL byte, which PostgreSQL refuses in text, or any
        # character outside the keys' alphabet) names no session: signed out, not a 500.
        key = self.session_key
        usable = bool(key) and set(key) <= _KEY_CHARS
        session = _SESSION.first(key) if usable else None
        if session is None or session.expire_date <= timezone.now():
            self._session_key = None
            return None
        return session
