"""The dispatcher tick's own loop, outside the task queue.

The tick used to be a django-q2 schedule: a task like any other, so it waited in the queue
behind whatever was there — behind 2,000 queued runs it ran 5 min 38 s late, and meanwhile
nothing was reclaimed, claimed or retried. `run_ticker()` calls the tick itself, on the wall
clock's beat (every `every` seconds, aligned, so several tickers tick at the same moments),
in a process of its own (`manage.py tick --loop`, started beside the workers): the tick only
claims and enqueues, so it takes a second or two whatever the queue holds. Several tickers at
once are safe (every claim is a conditional update). A tick that raises (database or broker
away) is logged and the loop goes on; a tick that ran long is not repeated to catch up.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable

from django.db import connections

logger = logging.getLogger(__name__)

TICK_SECONDS = 60.0


def next_beat(moment: float, every: float) -> float:
    """The first multiple of `every` seconds (since the epoch) strictly after `moment`."""
    return (math.floor(moment / every) + 1) * every


def run_ticker(
    tick: Callable[[], object],
    *,
    every: float = TICK_SECONDS,
    clock: Callable[[], float] = time.time,
    stop: threading.Event | None = None,
    ticks: int | None = None,
    on_tick: Callable[[float, float], None] | None = None,
) -> int:
    """Call `tick()` on every beat until `stop` is set (or `ticks` ticks were made); returns how
    many ticks ran. `on_tick(beat, lateness_seconds)` hears each one (the benchmark's probe)."""
    stop = stop or threading.Event()
    done = 0
    while not stop.is_set() and (ticks is None or done < ticks):
        beat = next_beat(clock(), every)
        if stop.wait(max(0.0, beat - clock())):
            break
        lateness = clock() - beat
        try:
            result = tick()
            logger.info("tick %s (%.2f s after its beat)", result, lateness)
        except Exception:
            logger.exception("tick failed; the next beat tries again")
            connections.close_all()
        if on_tick is not None:
            on_tick(beat, lateness)
        done += 1
    return done
