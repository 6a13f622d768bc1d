"""The processes of a deployment, one entry point each (the Dockerfile, compose.yaml, ``make
demo`` and the tests start them the same way):

    python -m casino.serve migrate          # one-shot: migrations (owner role if configured)
    python -m casino.serve web [gunicorn options]
    python -m casino.serve worker [celery worker options]      # the main queue
    python -m casino.serve webhooks [celery worker options]    # webhook deliveries' queue
    python -m casino.serve beat [celery beat options]

Each replaces itself with the real server (exec), so signals from the orchestrator reach
gunicorn or Celery directly. Options after the name are passed on and win over the defaults.
"""

from __future__ import annotations

import os
import sys


def _env(name: str, default: str) -> str:
    return os.environ.get(name) or default


def web_command(*, bind: str, workers: int = 2, log_level: str = "warning") -> list[str]:
    """The web server as ``make demo``, the benchmarks and the live-server tests start it."""
    return [
        sys.executable, "-m", "casino.serve", "web",
        "--bind", bind, "--workers", str(workers), "--log-level", log_level,
    ]  # fmt: skip


def command(name: str, extra: list[str]) -> list[str]:
    python = sys.executable
    if name == "migrate":
        database = ["--database", "owner"] if os.environ.get("MIGRATION_DATABASE_URL") else []
        return [python, "-m", "casino.serve", "_migrate", *database, *extra]
    if name == "web":
        return [
            python, "-m", "gunicorn", "casino.asgi:application",
            "--config", "python:casino.gunicorn_conf",
            *extra,
        ]  # fmt: skip
    # --quiet (no start-up banner) is an option of celery itself, not of its subcommands.
    quiet = ["--quiet"] if "--quiet" in extra else []
    extra = [arg for arg in extra if arg != "--quiet"]
    celery = [python, "-m", "celery", *quiet, "-A", "casino"]
    if name == "worker":
        queue = _env("CELERY_QUEUE", "casino")
        return [
            *celery, "worker", "-Q", queue, "-n", f"{queue}@%h",
            f"--concurrency={_env('WORKER_CONCURRENCY', '2')}",
            "--without-mingle", "--without-gossip", *extra,
        ]  # fmt: skip
    if name == "webhooks":
        queue = _env("LEDGER_WEBHOOK_QUEUE", "webhooks")
        return [
            *celery, "worker", "-Q", queue, "-n", f"{queue}@%h", "--pool=threads",
            f"--concurrency={_env('WEBHOOK_CONCURRENCY', '8')}",
            "--without-mingle", "--without-gossip", *extra,
        ]  # fmt: skip
    if name == "beat":
        from django.conf import settings

        schedule = str(settings.DATA_DIR / "celerybeat-schedule")
        return [*celery, "beat", "--schedule", schedule, *extra]
    raise SystemExit(f"usage: python -m casino.serve migrate|web|worker|webhooks|beat: {name!r}")


def _migrate(extra: list[str]) -> None:
    from django.core.management import call_command

    call_command("migrate", *extra, interactive=False)


def main(argv: list[str]) -> None:
    if not argv:
        raise SystemExit(__doc__)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    import django

    django.setup()
    name, extra = argv[0], argv[1:]
    if name == "_migrate":
        _migrate(extra)
        return
    args = command(name, extra)
    os.execv(args[0], args)  # noqa: S606


if __name__ == "__main__":
    main(sys.argv[1:])
