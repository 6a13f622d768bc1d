"""Pausing Python's cyclic garbage collector around one large, short piece of work.

Settling a 10,000-bet round allocates ~100,000 short-lived objects (events, bets, lines); the
allocations trigger full collections that walk every object of the worker process, ~90 ms of a
settlement that must finish in 1 s (bench/settle.py). Nothing those objects hold is cyclic
garbage worth collecting mid-task, and reference counting still frees them; the collector runs
again as soon as the work is done.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    if not gc.isenabled():  # paused already (nested): the outer block re-enables it
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


# A web worker's collector (casino/gunicorn_conf.py post_worker_init). Traced with 1,000
# table-stream subscribers and 16 betting clients on two workers (bench/streams.py, load 15-25
# on 2 cores): with the defaults each worker ran 9-10 full collections in the run, each walking
# the ~190,000 objects of the loaded application (Django, DRF, the URL conf, the engine) and
# those of the open streams, 0.2-1.6 s of wall time apiece, every one stopping the event loop
# and every request thread of the process. The objects that exist once the application is
# loaded live as long as the process: frozen out of every collection. With that and a young
# generation of 2,000 objects instead of 700: 2-3 full collections of 0.1-0.25 s of CPU
# (opening 500 streams per worker), young ones under 20 ms of CPU.
WEB_GC_THRESHOLDS = (2_000, 10, 10)


def web_worker_gc_tune() -> None:
    """Load what the first request would (every view module, through the URL conf), then
    freeze what exists into the permanent generation and enlarge the young generation."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every URL module and view
    gc.collect()
    gc.freeze()
    gc.set_threshold(*WEB_GC_THRESHOLDS)
