"""``make demo``: seed the demo casino, run the web server and a real worker, until Ctrl-C."""

import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request

from django.conf import settings
from django.core.management.base import BaseCommand

from casino.demo.players import players_start
from casino.demo.seed import demo_seed
from casino.server import server_command


class Command(BaseCommand):
    help = "Seed the demo casino and serve it (web + Celery worker) until interrupted."

    def add_arguments(self, parser):
        parser.add_argument("--host", default=os.environ.get("DEMO_HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("DEMO_PORT", "8000")))
        parser.add_argument(
            "--seconds", type=float, default=0, help="stop after this many seconds (0: never)"
        )
        parser.add_argument(
            "--no-players", action="store_true", help="serve the tables without simulated play"
        )

    def handle(self, *args, host, port, seconds, no_players, **options):
        credentials = demo_seed()
        env = {**os.environ, "DATABASE_URL": settings.DATABASE_URL}
        python = sys.executable
        processes = [
            subprocess.Popen(  # noqa: S603
                [*server_command(bind=f"{host}:{port}", workers=2), "--access-logfile", "-"],
                env=env,
            ),
            subprocess.Popen(  # noqa: S603
                [
                    python,
                    "-m",
                    "celery",
                    "-A",
                    "casino",
                    "worker",
                    "--beat",
                    "--pool=solo",
                    "--loglevel=WARNING",
                    "--without-mingle",
                    "--without-gossip",
                    "--schedule",
                    str(settings.DATA_DIR / "celerybeat-schedule"),
                ],
                env=env,
            ),
        ]
        base = f"http://{host}:{port}"
        lines = [
            "",
            "Demo casino is running.",
            f"  Admin (pit console):  {base}/admin/",
            f"  API docs (Swagger):   {base}/api/v1/docs/",
            f"  OpenAPI schema:       {base}/api/v1/schema/",
            f"  Health:               {base}/api/v1/health/",
            "  Staff logins (username / password):",
            *(f"    {user:<8} {password}" for user, password in credentials.staff.items()),
            f"  Operator '{credentials.operator_code}' API key (shown once):",
            f"    {credentials.api_key}",
            f"    try: curl -H 'Authorization: Bearer {credentials.api_key}' {base}/api/v1/me/",
            f"  Live tables ({len(credentials.device_tokens)}, one per preset, simulated players):",
            f"    {base}/api/v1/tables/   and the stream {base}/api/v1/tables/<id>/events/",
            "Press Ctrl-C to stop.",
            "",
        ]
        self.stdout.write("\n".join(lines))
        stop = threading.Event()

        def request_stop(signum, frame):
            stop.set()

        signal.signal(signal.SIGINT, request_stop)
        signal.signal(signal.SIGTERM, request_stop)
        started = time.monotonic()
        try:
            if not no_players and self._wait_healthy(base, stop):
                players_start(base=base, credentials=credentials, stop=stop)
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
        self.stderr.write("the web server did not become healthy; no simulated play")
        return False
