"""Your data is yours (SPEC §13): a versioned export (`export.py`), its idempotent import
(`importing.py`), one-time transfer codes between instances (`transfer.py`) and account
deletion (`deletion.py`). The format is `tidings-export@1`, described by `export.schema.json`.
Views and API views (`views.py`, `api.py`) only call these."""
