"""The shared cache (settings CACHES "default"): Django's Redis backend with one connection
pool and one client per process, and the windowed counter the rate limits count with.

Django keeps a cache backend per request under the ASGI server (its caches are context-local,
and each request runs in a context of its own), and its Redis backend gives each backend a
connection pool of its own and builds a new ``redis.Redis`` for every call: every request
opened a new connection to Redis (py-spy of a web worker placing bets: ~14 % of its samples
in the pool's ``get_connection``, connecting) and built clients with ~170 response callbacks
each. Here every backend of the process shares one pool per server and one client per pool
(a ``redis.Redis`` is thread-safe: each command borrows a connection from the pool; the pool
starts afresh in a forked child).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient

_clients: dict[tuple[str, str], Any] = {}  # (server URL, pool options) -> redis.Redis
_clients_lock = threading.Lock()


class _ReusedClient(RedisCacheClient):
    def get_client(self, key=None, *, write=False):
        server = self._servers[self._get_connection_pool_index(write)]
        shared = (server, repr(sorted(self._pool_options.items())))
        client = _clients.get(shared)
        if client is None:
            with _clients_lock:
                client = _clients.get(shared)
                if client is None:
                    pool = self._pool_class.from_url(server, **self._pool_options)
                    client = _clients[shared] = self._client(connection_pool=pool)
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


def window_hits(key: str) -> int | None:
    """The hits ``window_count`` has counted in ``key``'s window, None once the window is gone."""
    value = caches["default"].get(key)
    return value[0] if isinstance(value, tuple) else value  # the database cache keeps a pair
