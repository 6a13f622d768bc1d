"""``make demo``: seed the demo casino, run the web server and a real worker, until Ctrl-C.

``manage.py demo --credentials`` prints the logins, the API key and the URLs of the demo
started last (from its credentials file) without starting anything.
"""

import logging
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from casino.demo.credentials import as_text, credentials_path, credentials_read, credentials_write
from casino.demo.players import players_start
from casino.demo.seed import demo_audit_verify, demo_seed
from casino.metrics import multiprocess_dir_clear
from casino.serve import web_command


class Command(BaseCommand):
    help = "Seed the demo casino and serve it (web + Celery workers) until interrupted."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("DEMO_HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("DEMO_PORT", "8000")))
        parser.add_argument(
            "--seconds", type=float, default=0, help="stop after this many seconds (0: never)"
        )
        parser.add_argument(
            "--no-players", action="store_true", help="serve the tables without simulated play"
        )
        parser.add_argument(
            "--access-log",
            action="store_true",
            help="print the web server's access log and the servers' INFO lines (a line or "
            "more per request); by default they log warnings and errors only",
        )
        parser.add_argument(
            "--credentials",
            action="store_true",
            help="print the logins, API key and URLs of the last demo started, and exit",
        )

    def handle(self, *args, host, port, seconds, no_players, access_log, credentials, **options):
        if credentials:
            self._print_credentials()
            return
        base = f"http://{host}:{port}"
        seeded = demo_seed()
        document = seeded.document(base)
        report = demo_audit_verify()
        # The scraper's token for /api/v1/metrics/ (printed with the URLs); a fresh metrics
        # directory, so the counters are this run's.
        metrics_token = os.environ.get("METRICS_TOKEN") or secrets.token_urlsafe(24)
        document["metrics_token"] = metrics_token
        path = credentials_write(document)
        multiprocess_dir_clear()
        # Quiet by default, so the banner stays on screen: the simulated players make a dozen
        # requests a second, and at INFO the servers log each bet (and this process the
        # players' refusals). An explicit LOG_LEVEL wins.
        log_level = os.environ.get("LOG_LEVEL") or ("INFO" if access_log else "WARNING")
        logging.getLogger().setLevel(log_level)
        env = {
            **os.environ,
            "DATABASE_URL": settings.DATABASE_URL,
            "METRICS_TOKEN": metrics_token,
            "LOG_LEVEL": log_level,
        }
        python = sys.executable
        # Each server in a process group of its own: Ctrl-C in the terminal reaches this
        # command alone, which stops them with SIGTERM, each cleanly (interrupted together,
        # gunicorn warned about its workers and the players logged the refused connections).
        alone = {"env": env, "process_group": 0}
        processes = [
            subprocess.Popen(  # noqa: S603
                [
                    *web_command(bind=f"{host}:{port}", workers=2),
                    *(["--access-logfile", "-"] if access_log else []),
                ],
                **alone,
            ),
            subprocess.Popen(  # noqa: S603
                [
                    python,
                    "-m",
                    "casino.serve",
                    "worker",
                    "--quiet",  # no start-up banner over the demo's own
                    "--beat",
                    "--pool=solo",
                    "--loglevel=WARNING",
                    "--schedule",
                    str(settings.DATA_DIR / "celerybeat-schedule"),
                ],
                **alone,
            ),
            # Webhook deliveries on their own queue and worker: an operator's slow endpoint
            # occupies these threads (a few per operator at most), never settlement's worker.
            subprocess.Popen(  # noqa: S603
                [
                    python,
                    "-m",
                    "casino.serve",
                    "webhooks",
                    "--quiet",  # no start-up banner (celery prints it on a terminal)
                    "--concurrency=8",
                    "--loglevel=WARNING",
                ],
                **alone,
            ),
        ]
        verified = (
            f"verified ({report.events_verified} events"
            + (f", {report.events_pending} awaiting their seal)" if report.events_pending else ")")
            if report.ok
            else f"VERIFICATION FAILED: {report.problem}"
        )
        lines = [
            "",
            "Demo casino is running.",
            as_text(document),
            f"  Audit chain: {verified}",
            f"Logins, API key and URLs are in {path} (mode 0600);",
            f"print them again with: {_python()} manage.py demo --credentials",
            "Press Ctrl-C to stop.",
            "",
        ]
        stop = threading.Event()

        def request_stop(signum, frame):
            stop.set()

        # A closed terminal (SIGHUP) stops the servers too: they no longer share its signals.
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, request_stop)
        started = time.monotonic()
        try:
            healthy = self._wait_healthy(base, stop)
            # Printed once the server answers, so the processes' start-up lines come before it.
            self.stdout.write("\n".join(lines))
            if healthy and not no_players:
                players_start(base=base, credentials=seeded, stop=stop)
            while not stop.is_set():
                if any(p.poll() is not None for p in processes):
                    self.stderr.write("a demo process exited; stopping the demo")
                    break
                if seconds and time.monotonic() - started > seconds:
                    break
                time.sleep(0.5)
        finally:
            stop.set()
            for process in processes:
                if process.poll() is None:
                    process.send_signal(signal.SIGTERM)
            for process in processes:
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()
            self.stdout.write("Demo stopped.")

    def _print_credentials(self) -> None:
        path = credentials_path()
        data = credentials_read(path)
        if data is None:
            raise CommandError(f"No demo credentials in {path}: start the demo with `make demo`.")
        self.stdout.write(f"Demo credentials ({path}):\n{as_text(data)}")

    def _wait_healthy(self, base: str, stop: threading.Event) -> bool:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not stop.is_set():
            try:
                with urllib.request.urlopen(f"{base}/api/v1/health/", timeout=2) as response:  # noqa: S310
                    if response.status == 200:
                        return True
            except OSError:
                pass
            stop.wait(0.5)
        self.stderr.write("the web server did not become healthy within 60 s")
        return False


def _python() -> str:
    """This interpreter as a user would type it here (``.venv/bin/python`` under make)."""
    try:
        return str(Path(sys.executable).relative_to(Path.cwd()))
    except ValueError:
        return sys.executable
