"""When subscriptions run: the one place that computes the next run (next_run), schedules
in plain words, and the minutely tick that claims what is due (scheduler)."""
