"""Real local HTTP endpoints for webhook tests: a receiver and a blackhole."""

from __future__ import annotations

import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver:
    """An HTTP endpoint on 127.0.0.1 that fails its first ``failures`` requests with 500, or
    answers every request with ``status`` (and ``location``, for redirects)."""

    def __init__(self, failures: int = 0, *, status: int = 204, location: str = ""):
        self.failures = failures
        self.status = status
        self.requests: list[dict] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.requests.append(
                    {"headers": dict(self.headers), "body": body, "at": time.monotonic()}
                )
                failing = len(receiver.requests) <= receiver.failures
                self.send_response(500 if failing else receiver.status)
                if location:
                    self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hooks/casino"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


class Blackhole:
    """A TCP server on 127.0.0.1 that accepts every connection and never answers: a dead
    operator endpoint. Leaving the block closes the connections (the hanging requests fail)."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/hooks/casino"
        self.listener.settimeout(0.1)
        self.accepted: list[socket.socket] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)

    def _accept(self):
        while not self._stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                continue
            self.accepted.append(conn)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(5)
        self.listener.close()
        for conn in self.accepted:
            conn.close()
