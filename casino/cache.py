"""The shared cache (settings CACHES "default"): Django's Redis backend with one client per
process, and the windowed counter the rate limits count with.

Django's Redis backend builds a new ``redis.Redis`` for every cache call, and building one
registers its ~170 response callbacks: two calls per API request (the throttle's read and
write) were ~8 % of a bet's CPU in the web worker (cProfile of ``POST .../bets/``). A
``redis.Redis`` is thread-safe (each command borrows a connection from the pool), so one per
pool does.
"""

from __future__ import annotations

import time

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class _ReusedClient(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._client(connection_pool=self._get_connection_pool(write))
            client = self._clients.setdefault(index, client)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _ReusedClient


def window_count(key: str, seconds: int) -> tuple[int, float]:
    """One more hit in ``key``'s window, which opens at its first hit and lasts ``seconds``:
    (hits in the window so far, seconds until it closes).

    On Redis one atomic round trip (MULTI: SET NX with the expiry, INCR, PTTL), whatever the
    count: the cost of a limit does not grow with its rate, as a log of every hit's time does.
    On the database cache (the embedded default, one node) a read and a write, not atomic: two
    processes may count one hit short, as Django's own throttle did there."""
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        name = backend.make_and_validate_key(key)
        pipe = backend._cache.get_client(name, write=True).pipeline(transaction=True)
        pipe.set(name, 0, ex=seconds, nx=True)
        pipe.incr(name)
        pipe.pttl(name)
        _, count, left_ms = pipe.execute()
        return count, max(left_ms, 0) / 1000
    now = time.time()
    hits, closes = backend.get(key) or (0, 0.0)
    if closes <= now:
        hits, closes = 0, now + seconds
    backend.set(key, (hits + 1, closes), timeout=max(1, int(closes - now) + 1))
    return hits + 1, closes - now
