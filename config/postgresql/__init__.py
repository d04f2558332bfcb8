"""Django's PostgreSQL backend, reading timestamps with psycopg's C parser (base.py)."""
