"""The ASGI application: what the server (gunicorn with uvicorn workers, casino/serve.py web)
serves. Every view but the table streams is synchronous; the streams are async views.

A request for a sync view takes one hop from the event loop to a thread and one back: the
thread sends ``request_started``, runs Django's whole sync handler (middleware and view, a
``BaseHandler`` loaded in sync mode), renders the response and closes it (``request_finished``:
the database connection goes back to the pool); the loop only reads the body and writes the
answer. Django's own ASGI handler hops five times for such a request (the ``request_started``
receivers, the middleware, back to the loop around the one async-capable middleware, the view,
the response's close), each hop a future, a context copy and a wake-up of the other side:
py-spy of a worker placing bets found the loop's side of those hops using as much of the GIL
as the bet itself (README "Web server" has the before and after).

The health probes (``casino.admission.PROBES``) are answered on the loop itself, through the
same middleware and views, from the readiness a thread of the worker checks every
``HEALTH_CHECK_EVERY_S`` (``casino.health.ReadinessMonitor``): no thread hop, no pool connection,
no round trip, so a busy worker's GIL and threads do not delay them. A probe that carries a
cookie (its session would be read from the database, which the loop must not do) or comes
before the first check takes the thread like any request.

At most ``WEB_THREADS`` requests run their sync part at once (``casino/admission.py``: the rest
wait in the loop, probes don't). The threads: a request borrows an idle single-thread executor
(one thread per request in flight, started once and reused), so a warm loop starts no thread;
the request's context variables are a copy, so nothing one request sets is seen by the next on
that thread.

The table streams (async views) keep Django's async handler, which runs their DRF checks and
snapshot in a thread and streams from the loop. Which paths are theirs is read from the URL
configuration at start-up (every route whose view is a coroutine function).
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import re
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, iscoroutinefunction
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("DB_POOL", "1")  # see DATABASES in casino/settings.py

import django
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.urls import URLPattern, URLResolver, get_resolver, set_script_prefix

from casino import health
from casino.admission import PROBES, admitted

IDLE_THREADS_KEPT = 64  # more idle request threads than this are let go
_DONE = object()


def async_view_paths(resolver: URLResolver | None = None) -> re.Pattern:
    """One pattern matching the paths of every async view (with or without the trailing
    slash, which ``ApiTrailingSlashMiddleware`` adds)."""
    found: list[str] = []

    def walk(patterns, prefix: str) -> None:
        for entry in patterns:
            regex = entry.pattern.regex.pattern.lstrip("^")
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, prefix + regex)
            elif isinstance(entry, URLPattern) and iscoroutinefunction(entry.callback):
                route = regex.removesuffix("\\Z").removesuffix("$").removesuffix("/")
                found.append(prefix + route + "/?")

    walk((resolver or get_resolver()).url_patterns, "")
    if not found:
        return re.compile(r"(?!)")
    alternatives = "|".join(re.sub(r"\(\?P<\w+>", "(?:", p) for p in found)
    return re.compile(f"^/(?:{alternatives})\\Z")


class PooledThreadASGIHandler(ASGIHandler):
    """Sync views: one hop to a reused thread (module docstring); async views: Django's."""

    def __init__(self):
        super().__init__()
        self._idle: list[ThreadPoolExecutor] = []
        self._sync = BaseHandler()  # its own middleware instances, loaded in sync mode
        self._sync.load_middleware(is_async=False)
        self._async_paths = async_view_paths()
        self._readiness = health.ReadinessMonitor(every_s=settings.HEALTH_CHECK_EVERY_S)

    def _borrow(self) -> ThreadPoolExecutor:
        if self._idle:
            return self._idle.pop()
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="casino-request")

    def _give_back(self, executor: ThreadPoolExecutor, *, reusable: bool) -> None:
        # A request cut short may leave sync code running on its thread: not reused.
        if reusable and len(self._idle) < IDLE_THREADS_KEPT:
            self._idle.append(executor)
        else:
            executor.shutdown(wait=False)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        path = scope["path"].removeprefix(scope.get("root_path", "") or "")
        if PROBES.match(path) and (report := self._probe_report(scope)) is not None:
            await self._answer_probe(scope, receive, send, report)
            return
        executor = self._borrow()
        finished = False
        try:
            if self._async_paths.match(path):
                async with ThreadSensitiveContext(executor=executor):
                    await self.handle(scope, receive, send)
            else:
                await self._handle_sync(scope, receive, send, executor, path)
            finished = True
        finally:
            self._give_back(executor, reusable=finished)

    def _probe_report(self, scope) -> dict | None:
        """The readiness to answer this probe with on the loop; None: take a thread."""
        self._readiness.start()
        if any(name == b"cookie" for name, _ in scope["headers"]):
            return None
        return self._readiness.latest()

    async def _answer_probe(self, scope, receive, send, report: dict) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        context = contextvars.copy_context()
        context.run(health.readiness_known.set, report)
        # The probes' views answer a plain body: nothing is left to stream or close.
        start, body, _ = context.run(self._respond, scope, body_file)
        await send(start)
        await send({"type": "http.response.body", "body": body})

    async def _handle_sync(
        self, scope, receive, send, executor: ThreadPoolExecutor, path: str
    ) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        context = contextvars.copy_context()
        loop = asyncio.get_running_loop()

        def in_thread(function, *args):
            return loop.run_in_executor(executor, context.run, function, *args)

        async with admitted(path):  # the path below the script prefix, as the probes' routes
            start, body, response = await in_thread(self._respond, scope, body_file)
            if response is not None:
                # A streaming response (a static file): its iterator is read on the request's
                # thread, in the request's slot. A plain body is sent after the slot is given
                # back: a client slow to read it holds no slot.
                await send(start)
                try:
                    chunks = iter(response)
                    while (part := await in_thread(next, chunks, _DONE)) is not _DONE:
                        for chunk, _ in self.chunk_bytes(part):
                            await send(
                                {"type": "http.response.body", "body": chunk, "more_body": True}
                            )
                    await send({"type": "http.response.body"})
                finally:
                    await in_thread(response.close)
                return
        await send(start)
        await send({"type": "http.response.body", "body": body})

    def _respond(self, scope, body_file):
        """On the request's thread: (the start message, the body, the response if it streams
        and is still to be read and closed)."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        response = None
        try:
            request, response = self.create_request(scope, body_file)
            if request is not None:
                response = self._sync.get_response(request)
        except BaseException:
            signals.request_finished.send(sender=self.__class__)
            body_file.close()
            raise
        try:
            headers = [
                (
                    header.encode("ascii") if isinstance(header, str) else bytes(header),
                    value.encode("latin1") if isinstance(value, str) else bytes(value),
                )
                for header, value in response.items()
            ]
            headers += [
                (b"Set-Cookie", c.output(header="").encode("ascii").strip())
                for c in response.cookies.values()
            ]
            start = {
                "type": "http.response.start",
                "status": response.status_code,
                "headers": headers,
            }
            if response.streaming:
                streaming, response = response, None  # closed by the caller once sent
                return start, b"", streaming
            return start, response.content, None
        finally:
            if response is not None:
                response.close()  # request_finished: the connection goes back to the pool
            body_file.close()


def _application() -> PooledThreadASGIHandler:
    django.setup(set_prefix=False)
    return PooledThreadASGIHandler()


application = _application()
