"""casino/asgi.py: a request for a sync view runs its whole middleware chain and the view in
one hop to its thread; async views (the table streams) take Django's async chain."""

import asyncio
import json
import threading

import pytest
from asgiref.testing import ApplicationCommunicator
from django.db import connections

from casino import asgi


def test_only_the_async_views_take_the_async_chain():
    assert asgi._async_view("/api/v1/tables/7/events/")
    assert not asgi._async_view("/api/v1/rounds/7/bets/")
    assert not asgi._async_view("/api/v1/health/")
    assert not asgi._async_view("/no/such/path/")
    assert not asgi._async_view("/api/v1/tables/7/events")  # fixed by the middleware, later


async def _get(path: str) -> tuple[int, dict, bytes]:
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": [(b"host", b"testserver")], "client": ("127.0.0.1", 1),
        "server": ("testserver", 80),
    }  # fmt: skip
    communicator = ApplicationCommunicator(asgi.application, scope)
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(30)
    body = b""
    while True:
        message = await communicator.receive_output(30)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait(30)  # the request's thread goes back to the idle ones
    return start["status"], {k.lower(): v for k, v in start["headers"]}, body


@pytest.mark.django_db(transaction=True)
def test_a_sync_view_is_served_by_the_sync_chain_in_one_thread(monkeypatch):
    threads = []
    chain = asgi.application._sync.get_response

    def recorded(request):
        threads.append(threading.get_ident())
        response = chain(request)
        threads.append(threading.get_ident())
        return response

    monkeypatch.setattr(asgi.application._sync, "get_response", recorded)
    status, _, body = asyncio.run(_get("/api/v1/health/"))
    assert status == 200 and json.loads(body)["status"] == "ok"
    assert len(threads) == 2 and threads[0] == threads[1] != threading.get_ident()
    status, headers, body = asyncio.run(_get("/api/v1/no-such-thing/"))
    assert status == 404 and headers[b"content-type"] == b"application/problem+json"
    assert len(threads) == 4
    for executor in asgi.application._idle:  # the request threads keep their connections
        executor.submit(connections.close_all).result()
