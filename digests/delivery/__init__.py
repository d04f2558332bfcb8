"""Briefs beyond the Inbox (SPEC §11): one module per channel behind a small shared shape.

`base.py` the shape (`Channel`, `TransportError`); `email.py` and `webhook.py` the channels;
`brief.py` what every channel sends (a run's brief); `service.py` the delivery rows — planned in
the run's own transaction, claimed under a lease, sent, retried with backoff by the tick.
"""
