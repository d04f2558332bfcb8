"""The platform for its operators: aggregate statistics, and the combination cache's admin pages
and staff API."""
