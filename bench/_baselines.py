"""Baselines measured in the same run as the benchmarks they sit next to."""

from __future__ import annotations

import time

from django.db import connection, transaction


def plain_rows_insert(n_rows: int) -> float:
    """Seconds to insert ``n_rows`` leg-shaped rows with one ``executemany`` into an
    index-free, trigger-free temporary table: what writing as many rows costs at the least."""
    rows = [(1, index, 100, "EUR", "payout", f"b{index}") for index in range(n_rows)]
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMP TABLE IF NOT EXISTS bench_plain (t bigint, a bigint, amount bigint, "
            "currency text, kind text, bet_ref text)"
        )
        cursor.execute("TRUNCATE bench_plain")
    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.executemany("INSERT INTO bench_plain VALUES (%s, %s, %s, %s, %s, %s)", rows)
    return time.perf_counter() - started
