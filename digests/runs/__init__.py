"""A run from candidates to delivered items: the runner, the one scoring module, on-run
sources and the meter that counts what a run costs."""
