"""Benchmark: audit chain verification (``audit_chain_verify``), target ≥ 200,000 events/s.

Writes N events (default 200,000; ``BENCH_AUDIT_EVENTS``) in transactions of 1,000 with
bet-sized payloads, seals them, then times a full verification. Baselines from the same run on
the same rows: a plain COPY scan (reading every sealed row, hashing nothing: the I/O floor) and
raw hashlib SHA-256 over the same bytes already in memory (the hashing floor).
Run: ``python -m bench audit_verify``; it creates and drops its own database ``bench_audit``.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ.setdefault("CASINO_ENV", "test")

import django

django.setup()

from django.db import connection, transaction  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402

from bench.report import result  # noqa: E402

N = int(os.environ.get("BENCH_AUDIT_EVENTS", "200000"))
PER_TRANSACTION = 1_000
TARGET = 200_000

INSERT = """
INSERT INTO audit_auditevent (occurred_at, name, actor_kind, actor_id, actor_label, request_id,
    operator_id, casino_id, table_id, round_id, bet_id, wallet_id, payload, content_hash)
SELECT now(), 'bet.placed', 'api_key', '12', 'operator one (ak_3f9c)', md5(g::text),
    1, 1, g %% 40, g / 50, g, g %% 5000,
    jsonb_build_object('amount', 500 + g %% 977, 'currency', 'EUR', 'box', g %% 7,
                       'kind', 'main', 'player_ref', 'player-' || (g %% 5000)),
    encode(sha256(convert_to(g::text, 'UTF8')), 'hex')
FROM generate_series(%s, %s) AS g
"""


def best_of(runs: int, fn):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - started)
    return min(times), value


def main() -> int:
    from audit.digests import BEFORE_FIRST, digest_session, event_lines
    from audit.sealing import audit_chain_seal
    from audit.verification import audit_chain_verify

    connection.settings_dict["TEST"]["NAME"] = "bench_audit"
    old = setup_databases(verbosity=0, interactive=False, keepdb=False)
    try:
        started = time.perf_counter()
        for first in range(1, N + 1, PER_TRANSACTION):
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(INSERT, [first, min(first + PER_TRANSACTION - 1, N)])
        print(f"wrote {N} events in {time.perf_counter() - started:.1f}s")
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE audit_auditevent")

        # Sealing waits for every older writing transaction of the cluster (xids are
        # cluster-wide), so on a shared server it can take a few rounds; time only the work.
        seal_s, seals, deadline = 0.0, [], time.monotonic() + 120
        while sum(seal.event_count for seal in seals) < N:  # (+ the roles' grants at migrate)
            assert time.monotonic() < deadline, "an older transaction stays open"
            took, new = best_of(1, audit_chain_seal)
            seals += new
            seal_s += took if new else 0.0
            time.sleep(0 if new else 0.1)
        print(f"sealed {N} events in {len(seals)} seals in {seal_s:.2f}s")

        verify_s, report = best_of(3, audit_chain_verify)
        assert report.ok and report.events_verified >= N, report
        events = report.events_verified

        def scan():
            with transaction.atomic(), connection.cursor() as cursor:
                digest_session(cursor)
                return event_lines(cursor, after=BEFORE_FIRST)

        scan_s, lines = best_of(3, scan)
        sha256 = hashlib.sha256

        def hash_only():
            return [sha256(line).digest() for line in lines]

        hash_s, _ = best_of(3, hash_only)
    finally:
        teardown_databases(old, verbosity=0)

    rate = events / verify_s
    print(f"verify: {rate:,.0f} events/s ({verify_s:.2f}s for {events} events)")
    print(f"baseline COPY scan, no hashing: {events / scan_s:,.0f} rows/s")
    print(f"baseline hashlib sha256 over the same bytes: {events / hash_s:,.0f} /s")
    result(
        name="audit_verify",
        figure=rate,
        unit="events/s",
        baseline_name="COPY scan of the same rows",
        baseline=events / scan_s,
        target=f">= {TARGET:,} events/s",
        ok=rate >= TARGET,
    )
    result(
        name="audit_verify (hash floor)",
        figure=rate,
        unit="events/s",
        baseline_name="hashlib sha256 over the same bytes",
        baseline=events / hash_s,
        target="(context)",
    )
    return 0 if rate >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())
