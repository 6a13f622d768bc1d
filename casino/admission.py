"""How many requests' sync work one web worker runs at once (``WEB_THREADS``).

Under the ASGI server a sync request runs on a thread of its own; unbounded, every request in
flight competes for the worker's GIL, so each one's transaction stays open for as long as the
slowest of them takes to get the GIL back between its statements. Measured with 1,000 stream
subscribers and 16 clients betting (bench/streams.py, README "Live streams"): a table's events
wait for every older transaction to finish before they go out, so those long transactions
were most of the delivery latency, and the health probes queued for the GIL behind the bets.
Past the bound a request waits in the event loop, holding no thread and no database
connection, in arrival order. Probes are not queued: they answer while the worker is full.
"""

from __future__ import annotations

import asyncio
import re
from contextlib import AbstractAsyncContextManager, nullcontext

from django.conf import settings

# /api/v1/health/, /api/v1/health/live/, /api/v1/health/ready/ (with or without the slash).
PROBES = re.compile(r"^/api/v1/health(?:/live|/ready)?/?\Z")

_slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None


def admitted(path: str) -> AbstractAsyncContextManager:
    """``async with admitted(path):`` around a request's sync work: one of the worker's slots
    (none for a probe, or when ``WEB_THREADS`` is 0)."""
    global _slots
    if not settings.WEB_THREADS or PROBES.match(path):
        return nullcontext()
    loop = asyncio.get_running_loop()
    if _slots is None or _slots[0] is not loop:  # one worker, one loop (a test: one per test)
        _slots = (loop, asyncio.Semaphore(settings.WEB_THREADS))
    return _slots[1]
