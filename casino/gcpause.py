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
