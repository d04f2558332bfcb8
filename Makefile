# The README's two commands: `make start` and `make test`. Everything else is a helper.
.PHONY: start test setup lint bench bench-smoke

start: setup
	bin/start

# One pytest worker per core (pytest-xdist): each has its own test database and data folder.
test: setup
	.venv/bin/pytest -n auto

setup:
	bin/setup

lint: setup
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .

bench: setup
	.venv/bin/python -m tests.bench ingest
	.venv/bin/python -m tests.bench refresh

# Every benchmark at smoke size (seconds each; what CI runs, on SQLite and on PostgreSQL).
bench-smoke: setup
	.venv/bin/python -m tests.bench all --size smoke $(BENCH_ARGS)
