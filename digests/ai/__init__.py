"""The language model and what saves calls to it: the one client (llm), the combination cache
and its periods, per-item enrichment and the optional model re-rank of a run's candidates."""
