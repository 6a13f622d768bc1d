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
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("DB_POOL", "1")  # see DATABASES in casino/settings.py

import django
from django.core.handlers.asgi import ASGIHandler

IDLE_THREADS_KEPT = 64  # more idle request threads than this are let go


class PooledThreadASGIHandler(ASGIHandler):
    """Django's ASGI handler, each request's sync code on a reused thread of its own."""

    def __init__(self):
        super().__init__()
        self._idle: list[ThreadPoolExecutor] = []

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


def _application() -> PooledThreadASGIHandler:
    django.setup(set_prefix=False)
    return PooledThreadASGIHandler()


application = _application()
