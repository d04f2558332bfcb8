"""The shape every delivery channel has (Healthchecks' Transport): `send()` raises
`TransportError` when the message did not go through, saying whether trying again can help."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from digests.delivery.brief import Brief
    from digests.models import Delivery


class TransportError(Exception):
    """A send that did not go through. `permanent`: retrying the same message cannot help (an
    SMTP 5xx, a webhook answering 410, an address the fetch policy refuses)."""

    def __init__(
        self,
        message: str,
        *,
        permanent: bool = False,
        code: int | None = None,
        retry_after: int | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.permanent = permanent
        self.code = code
        self.retry_after = retry_after


class Channel:
    """One way out. Subclasses send one delivery and react to its outcome."""

    name = ""

    def send(self, delivery: Delivery, brief: Brief | None) -> int | None:
        """Send `delivery` (with its run's `brief`; None for a test event). Returns the
        remote's reply code; raises TransportError."""
        raise NotImplementedError

    def refusal(self, delivery: Delivery) -> str:
        """Why this delivery must not be sent any more (its channel was turned off since it
        was planned), or "" to go ahead."""
        return ""

    def succeeded(self, delivery: Delivery, *, now: datetime) -> None:
        """After a successful send."""

    def failed(
        self, delivery: Delivery, error: TransportError, *, gave_up: bool, now: datetime
    ) -> None:
        """After a failed attempt; `gave_up` when no further attempt will be made."""
