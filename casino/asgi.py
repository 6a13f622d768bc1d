"""The ASGI application: what the server (gunicorn with uvicorn workers, casino/serve.py web)
serves. Sync views run in a thread per request; the table streams are async views.

Django's own handler gives every request a new thread (a ``ThreadSensitiveContext`` with an
executor of its own) and starts another to join it at the end: two ``Thread.start()`` per
request, each blocking the event loop until the new thread has run and taken the GIL. With
1,000 stream subscribers and 16 betting clients (bench/streams.py) that was ~25 % of a
sampling profile of a worker's event-loop thread, the loop that fans the streams out. Here a
request borrows an idle single-thread executor instead (one thread per request in flight, as
before, started once and reused; ``ThreadSensitiveContext(executor=...)``, asgiref 3.13), so
a warm loop starts no thread.

Django's ASGI handler runs a sync view with a sync middleware (all of ours) between two thread
hops: from the loop to the request's thread for the middleware, back to the loop
(``async_to_sync``) for the core of its async chain, and to the thread again for the view
(py-spy of a worker placing bets: the executor's submit and wake-ups ~10 % of the samples
holding the GIL). Here a request for a sync view runs the whole sync chain, middleware and
view, in one hop to its thread; only async views (the table streams) take the async chain.
Which a path is, is found by resolving it once (remembered per path); a path that does not
resolve as it came (e.g. without its trailing slash) takes the sync chain, which serves an
async view too (by ``async_to_sync``), only less cheaply.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache

from asgiref.sync import ThreadSensitiveContext, iscoroutinefunction, sync_to_async

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("DB_POOL", "1")  # see DATABASES in casino/settings.py

import django
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.urls import Resolver404, get_resolver

IDLE_THREADS_KEPT = 64  # more idle request threads than this are let go


class PooledThreadASGIHandler(ASGIHandler):
    """Django's ASGI handler, each request's sync code on a reused thread of its own."""

    def __init__(self):
        super().__init__()
        self._idle: list[ThreadPoolExecutor] = []
        self._sync = BaseHandler()  # its own middleware instances and lists, in sync mode
        self._sync.load_middleware(is_async=False)

    async def get_response_async(self, request):
        if _async_view(request.path_info):
            return await super().get_response_async(request)
        return await sync_to_async(self._sync.get_response, thread_sensitive=True)(request)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = (
            self._idle.pop()
            if self._idle
            else ThreadPoolExecutor(max_workers=1, thread_name_prefix="casino-request")
        )
        finished = False
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
            finished = True
        finally:
            # A request cut short may leave sync code running on its thread: not reused.
            if finished and len(self._idle) < IDLE_THREADS_KEPT:
                self._idle.append(executor)
            else:
                executor.shutdown(wait=False)


@lru_cache(maxsize=8192)
def _async_view(path: str) -> bool:
    try:
        return iscoroutinefunction(get_resolver().resolve(path).func)
    except Resolver404:
        return False


def _application() -> PooledThreadASGIHandler:
    django.setup(set_prefix=False)
    return PooledThreadASGIHandler()


application = _application()
