"""casino/asgi.py: a request for a sync view takes one hop to a thread (request_started, the
whole sync handler, the response's close) and one back; async views (the table streams) take
Django's async handler."""

import asyncio
import io
import json
import os
import threading
import time

import pytest
from asgiref.testing import ApplicationCommunicator
from django.core import signals
from django.db import connections
from django.http import HttpResponse, StreamingHttpResponse
from django.urls import reverse

from casino.admission import PROBES
from casino.health import ReadinessMonitor


def _import_asgi():
    """casino.asgi sets DB_POOL in the environment for the server's settings; imported here,
    that would leak into every server a later test starts (the WSGI servers of
    tests/faults/ would then wait on a connection pool while the database is down)."""
    saved = os.environ.get("DB_POOL")
    try:
        from casino import asgi
    finally:
        if saved is None:
            os.environ.pop("DB_POOL", None)
        else:
            os.environ["DB_POOL"] = saved
    return asgi


asgi = _import_asgi()


def test_only_the_stream_routes_take_the_async_handler():
    paths = asgi.application._async_paths
    assert paths.match("/api/v1/tables/7/events/")
    assert paths.match("/api/v1/tables/7/events")  # the middleware adds the slash later
    for path in (
        "/api/v1/rounds/7/bets/", "/api/v1/health/", "/api/v1/tables/7/",
        "/api/v1/tables/x/events/", "/api/v1/tables/7/events/more/", "/no/such/path/",
        "/admin/",
    ):  # fmt: skip
        assert not paths.match(path), path


async def _request(path: str, *, method: str = "GET", body: bytes = b"", headers=()) -> tuple:
    """(status, headers, body, the loop's thread) of one request through the ASGI
    application, on the running loop."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 1), "server": ("testserver", 80),
    }  # fmt: skip
    communicator = ApplicationCommunicator(asgi.application, scope)
    await communicator.send_input({"type": "http.request", "body": body})
    start = await communicator.receive_output(30)
    content = b""
    while True:
        message = await communicator.receive_output(30)
        content += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait(30)  # the request's thread goes back to the idle ones
    return start["status"], start["headers"], content, threading.get_ident()


def _on_a_loop_of_its_own(coroutine):
    """Run ``coroutine`` on an event loop of its own in a thread of its own (whatever loop
    the test process has running)."""
    out = {}
    thread = threading.Thread(target=lambda: out.update(result=asyncio.run(coroutine)))
    thread.start()
    thread.join(60)
    return out["result"]


def _serve(path: str, **options) -> tuple:
    return _on_a_loop_of_its_own(_request(path, **options))


def _named(headers) -> dict[bytes, bytes]:
    return {name.lower(): value for name, value in headers}


@pytest.fixture
def recorded(monkeypatch):
    """The threads that ran request_started, the sync handler and request_finished."""
    seen: list[tuple[str, int]] = []

    def started(**kwargs):
        seen.append(("started", threading.get_ident()))

    def finished(**kwargs):
        seen.append(("finished", threading.get_ident()))

    chain = asgi.application._sync.get_response

    def handler(request):
        seen.append(("handler", threading.get_ident()))
        return chain(request)

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    monkeypatch.setattr(asgi.application._sync, "get_response", handler)
    yield seen
    signals.request_started.disconnect(started)
    signals.request_finished.disconnect(finished)
    for executor in asgi.application._idle:  # the request threads' connections to the test DB
        executor.submit(connections.close_all).result()


@pytest.mark.django_db(transaction=True)
def test_a_sync_view_runs_in_one_hop_to_its_thread(recorded):
    status, headers, body, loop_thread = _serve("/api/v1/health/detail/")
    assert status == 401 and json.loads(body)["type"].endswith("/not-authenticated")
    assert _named(headers)[b"content-type"] == b"application/problem+json"
    assert [name for name, _ in recorded] == ["started", "handler", "finished"]
    assert len({thread for _, thread in recorded}) == 1
    assert recorded[0][1] != loop_thread

    recorded.clear()
    status, headers, body, _ = _serve("/api/v1/no-such-thing/")
    assert status == 404 and _named(headers)[b"content-type"] == b"application/problem+json"
    assert json.loads(body)["detail"] == "No endpoint at /api/v1/no-such-thing/."
    assert [name for name, _ in recorded] == ["started", "handler", "finished"]


@pytest.mark.django_db(transaction=True)
def test_a_post_body_and_the_problem_for_it_pass_through(recorded):
    status, headers, body, _ = _serve(
        "/api/v1/rounds/1/bets/",
        method="POST",
        body=b'{"player_id": 1, "box": 1, "stake": 100}',
        headers=[(b"content-type", b"application/json")],
    )
    assert status == 401, body
    assert json.loads(body)["type"].endswith("/not-authenticated")
    assert _named(headers)[b"www-authenticate"].startswith(b"Bearer")


@pytest.mark.django_db(transaction=True)
def test_cookies_and_a_streaming_response_are_sent_from_the_requests_thread(recorded, monkeypatch):
    chunks_read_on: list[int] = []

    def chunks():
        for part in (b"first,", b"second"):
            chunks_read_on.append(threading.get_ident())
            yield part

    def streaming(request):
        recorded.append(("handler", threading.get_ident()))
        response = StreamingHttpResponse(chunks(), content_type="text/plain")
        response.set_cookie("flavour", "plain")
        return response

    monkeypatch.setattr(asgi.application._sync, "get_response", streaming)
    status, headers, body, _ = _serve("/anything/")
    assert status == 200 and body == b"first,second"
    assert (b"Set-Cookie", b"flavour=plain; Path=/") in headers
    handler_thread = recorded[1][1]
    assert set(chunks_read_on) == {handler_thread}
    # Closed (request_finished) once sent, on the same thread.
    assert recorded[-1] == ("finished", handler_thread)


def test_a_failure_outside_the_handler_still_finishes_the_request(recorded, monkeypatch):
    def broken(request):
        raise RuntimeError("boom")

    monkeypatch.setattr(asgi.application._sync, "get_response", broken)
    with pytest.raises(RuntimeError):
        asgi.application._respond(
            {"type": "http", "method": "GET", "path": "/x/", "query_string": b"",
             "headers": [], "root_path": ""},
            io.BytesIO(),
        )  # fmt: skip
    assert [name for name, _ in recorded] == ["started", "finished"]


def test_a_plain_response_is_rendered_and_closed_in_the_hop(recorded, monkeypatch):
    monkeypatch.setattr(asgi.application._sync, "get_response", lambda request: HttpResponse(b"ok"))
    start, body, streaming = asgi.application._respond(
        {"type": "http", "method": "GET", "path": "/x/", "query_string": b"",
         "headers": [], "root_path": ""},
        io.BytesIO(),
    )  # fmt: skip
    assert start["status"] == 200 and body == b"ok" and streaming is None
    assert [name for name, _ in recorded] == ["started", "finished"]


def test_past_web_threads_a_request_waits_in_the_loop_and_a_probe_does_not(monkeypatch, settings):
    """``WEB_THREADS`` requests run their sync part at once; the next waits, holding no thread,
    until one finishes; the health probes answer meanwhile (casino/admission.py)."""
    settings.WEB_THREADS = 1
    release = threading.Event()
    entered: list[str] = []

    def handler(request):
        entered.append(request.path)
        if request.path.startswith("/slow/"):
            release.wait(10)
        return HttpResponse(b"ok")

    monkeypatch.setattr(asgi.application._sync, "get_response", handler)

    async def scenario():
        first = asyncio.create_task(_request("/slow/1/"))
        while entered != ["/slow/1/"]:
            await asyncio.sleep(0.01)
        second = asyncio.create_task(_request("/slow/2/"))
        await asyncio.sleep(0.3)
        waiting = list(entered)
        probes = [(await _request(path))[0] for path in ("/api/v1/health/", "/api/v1/health/live/")]
        release.set()
        done = [(await first)[0], (await second)[0]]
        return waiting, probes, done

    waiting, probes, done = _on_a_loop_of_its_own(scenario())
    assert waiting == ["/slow/1/"]  # the second waits for the first's slot
    assert probes == [200, 200] and done == [200, 200]
    assert entered == ["/slow/1/", "/api/v1/health/", "/api/v1/health/live/", "/slow/2/"]


def test_the_probes_are_exactly_the_liveness_and_readiness_routes():
    for name in ("health", "health-live", "health-ready"):
        path = reverse(name)
        assert PROBES.match(path) and PROBES.match(path.rstrip("/")), path
    for path in (reverse("health-detail"), reverse("metrics"), "/api/v1/healthz/", "/health/"):
        assert not PROBES.match(path), path


def _report(status: str) -> dict:
    part = {"ok": status == "ok"}
    return {"status": status, "database": {"ok": True}, "broker": part, "cache": {"ok": True}}


@pytest.fixture(autouse=True)
def readiness(monkeypatch):
    """The application's readiness monitor, checking a report the test sets (no database,
    broker or cache touched) every 20 ms, once the test opens the gate; stopped after the test
    (the application's own would check on, for the rest of the test session)."""
    current = {"report": _report("ok"), "gate": threading.Event()}

    def check():
        current["gate"].wait(10)
        return current["report"]

    monitor = ReadinessMonitor(every_s=0.02, check=check)
    monkeypatch.setattr(asgi.application, "_readiness", monitor)
    yield current
    current["gate"].set()
    monitor.stop()


def _until(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


@pytest.mark.django_db(transaction=True)
def test_a_probe_is_answered_on_the_loop_from_the_workers_readiness(recorded, readiness):
    """Through the same middleware and view as on a thread, with the report the worker's
    monitor checked; before its first check, and with a cookie, on a thread."""
    monitor = asgi.application._readiness
    status, _, body, loop_thread = _serve("/api/v1/health/")
    assert status == 200 and json.loads(body)["status"] == "ok"
    assert recorded[0][1] != loop_thread  # no report yet: checked on the thread
    readiness["gate"].set()
    _until(lambda: monitor.latest() is not None)

    for path in ("/api/v1/health/", "/api/v1/health/ready/", "/api/v1/health/live/"):
        recorded.clear()
        status, on_loop, body, loop_thread = _serve(path)
        assert status == 200 and json.loads(body)["status"] == "ok", (path, body)
        assert [name for name, _ in recorded] == ["started", "handler", "finished"]
        assert {thread for _, thread in recorded} == {loop_thread}, path

    readiness["report"] = _report("unavailable")
    _until(lambda: monitor.latest()["status"] == "unavailable")
    status, _, body, _ = _serve("/api/v1/health/")
    assert status == 503
    assert json.loads(body) == {
        "status": "unavailable", "database": {"ok": True}, "broker": {"ok": False},
        "cache": {"ok": True},
    }  # fmt: skip
    status, _, body, _ = _serve("/api/v1/health/ready/")
    assert status == 503 and json.loads(body)["broker"] == {"ok": False}

    # A cookie may be a session's, read from the database: the probe takes a thread, and
    # gets the same middleware's headers.
    readiness["report"] = _report("ok")
    _until(lambda: monitor.latest()["status"] == "ok")
    recorded.clear()
    status, on_thread, _, loop_thread = _serve(
        "/api/v1/health/live/", headers=[(b"cookie", b"flavour=plain")]
    )
    assert status == 200 and recorded[0][1] != loop_thread
    assert {name for name, _ in on_thread} == {name for name, _ in on_loop}
    assert b"x-content-type-options" in _named(on_loop)


def test_an_overdue_or_failing_check_makes_the_worker_unavailable(caplog):
    now = {"t": 100.0}
    calls = []

    def check():
        calls.append(now["t"])
        if len(calls) > 1:
            raise RuntimeError("the check itself broke")
        return _report("ok")

    monitor = ReadinessMonitor(every_s=0.02, check=check, clock=lambda: now["t"])
    assert monitor.latest() is None
    monitor.start()
    _until(lambda: len(calls) >= 3)  # a failing check is logged and tried again
    monitor.stop()
    assert monitor.latest()["status"] == "ok"
    assert "the readiness check failed" in caplog.text
    now["t"] += 0.02 + ReadinessMonitor.OVERDUE_S + 0.01
    overdue = monitor.latest()
    assert overdue["status"] == "unavailable"
    assert overdue["database"] == {"ok": False, "error": "CheckOverdue"}
