"""What the "Your data" part of the preferences page shows (the page is inbox/views.py's;
its forms post to inbox/portability/views.py)."""

from __future__ import annotations

from inbox.models import ImportRecord, TransferCode
from inbox.portability import transfer
from inbox.portability.importing import max_import_bytes


def data_context(user, *, now) -> dict:
    """What the "Your data" part of the preferences page shows."""
    return {
        "transfer_scopes": TransferCode.Scope.choices,
        "transfer_codes": TransferCode.objects.filter(user=user)[:10],
        "imports": ImportRecord.objects.filter(user=user)[:5],
        "transfer_minutes": transfer.expiry_minutes(),
        "import_limit_mb": max_import_bytes() // (1024 * 1024),
        "now": now,
    }
