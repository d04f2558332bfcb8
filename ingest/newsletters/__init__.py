"""Newsletters by email, a source kind (docs/newsletters.md): private inbound addresses
(`addresses.py`), reading a received message (`parsing.py`, pure), what becomes of it — an item
in the pool, held for an unknown sender, a confirmation to click (`receiving.py`) — and the two
ways mail arrives: the SMTP listener of `manage.py mailin` (`smtp.py`) and a provider's inbound
webhook (`webhook.py`). Console views (`views.py`) and the API (`api.py`) call the same services.

Sits at the top of ingest's layers, beside the other source kinds."""
