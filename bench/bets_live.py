"""Benchmark: bets on a hot table, the cost of a bet as its round fills, and what a bet costs
PostgreSQL, through the HTTP API (the product's ASGI server, production settings, as
``bench/bets_http.py``).

Three figures, each next to a baseline measured in the same run (architecture §4, issue #13):

- Hot table: 16 clients place their bets behind on ONE round (7 boxes, a controlling bet on
  each placed at set-up, every client's 8 players bet behind on every box: 896 bets behind),
  next to the same clients placing the same bets on 16 separate tables (one round each).
  ``BENCH_PAIRS`` (3) such pairs of runs, each on rounds of its own, in alternating order
  (separate-hot, hot-separate, ...), the rates over all of them. Target: the hot rounds at
  >= 0.9 x the separate tables' rate.
- Flat cost: one client places 5,000 bets behind on one round (7 boxes x 715 players); the
  p50 latency of its last 100 bets next to that of its first 100. Target: <= 1.2 x.
- Database cost: the CPU time of the PostgreSQL backends serving the bets (``/proc``,
  ``bench/_pgcpu.py``) per accepted bet, over the hot and separate runs, on a warm server
  (after a warm-up run of as many bets on other tables, in which every worker's pool opens
  its connections), next to the CPU per transaction of pgbench's backends (``pgbench -c 16
  -j 2 -T 10``, TPC-B-like, scale 16) in the same run. The figure from the server's start,
  warm-up included, is printed beside it. Target: at most half of the 4.5-5.2 ms a bet cost
  before (issue #13).

Environment as ``bench/bets_http.py`` (``BENCH_DATABASE_URL``, ``BENCH_BROKER_URL``,
``BENCH_WORKERS``), and ``BENCH_FLAT_BETS`` (5000); ``BENCH_PORT`` defaults to 8791 here.
Run: ``python -m bench bets_live``; it creates and drops ``bench_bets_<port>`` and
``bench_pgbench_<port>``.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("BENCH_PORT", "8791")

# isort: off
from bench import bets_http as http  # first: it sets Django up
from bench._pgcpu import BackendCpu
from bench.report import result
from django.db import connection
from django.test.utils import setup_databases, teardown_databases

# isort: on

CLIENTS = http.CLIENTS
PLAYERS = 8  # per client: 8 x 7 boxes = 56 bets behind each
FLAT_BETS = int(os.environ.get("BENCH_FLAT_BETS", "5000"))
BOXES = 7
STAKE = http.STAKE
DATABASE = f"bench_bets_{http.PORT}"
# Hot and separate runs in pairs, in alternating order (a few seconds each: one run alone
# swung by +-15 % with the VM's speed from one run to the next).
PAIRS = int(os.environ.get("BENCH_PAIRS", "3"))


def _world() -> dict:
    """Rounds with their controlling bets placed, players with money, API keys; and per run
    the clients' slots (round id, player id, box, behind)."""
    from casino.actors import Actor
    from casino.api.services import api_key_issue
    from ledger.models import Operator, Player
    from ledger.services import wallet_deposit, wallet_open
    from tables import engine as eng
    from tables import services
    from tables.models import Casino

    actor = Actor.system("bench.bets_live")
    crown = eng.PRESETS["crown"]
    doc = {
        **crown.rules.to_json(), "name": "bench-live", "boxes": BOXES,
        "bets_per_box": FLAT_BETS // BOXES + 2, "max_boxes_per_player": BOXES,
    }  # fmt: skip
    rule_set = services.rule_set_version_create(actor=actor, name="bench-live", document=doc)
    schedule = services.payout_schedule_version_create(
        actor=actor, name="bench-live", document=crown.payouts.to_json()
    )
    casino, _ = Casino.objects.get_or_create(code="main", defaults={"name": "Main casino"})

    def operator(code: str) -> tuple[Operator, str]:
        op = Operator.objects.create(code=code, name=code)
        return op, api_key_issue(actor=actor, operator=op, label=code)[1]

    def players(op: Operator, n: int) -> list[Player]:
        made = []
        for p in range(n):
            player = Player.objects.create(operator=op, external_ref=f"{op.code}-{p}")
            wallet, _ = wallet_open(actor=actor, player=player, currency="EUR")
            wallet_deposit(actor=actor, wallet=wallet, amount=10**10)
            made.append(player)
        return made

    house_op, _ = operator("bench-house")
    [house] = players(house_op, 1)
    tables = 0

    def round_with_controllers() -> int:
        nonlocal tables
        tables += 1
        table = services.table_create(
            actor=actor, casino=casino, code=f"live-{tables}", name=f"Live {tables}",
            rule_set=rule_set, payout_schedule=schedule, card_source="card_reader",
            min_bet=STAKE, betting_seconds=3600,
        )  # fmt: skip
        services.table_open(actor=actor, table_id=table.pk)
        rnd = services.round_open(actor=actor, table_id=table.pk)
        for box in range(1, BOXES + 1):
            services.bet_place(actor=actor, round_id=rnd.pk, player=house, box=box, stake=STAKE)
        return rnd.pk

    hot = [round_with_controllers() for _ in range(PAIRS)]
    clients = []
    for c in range(CLIENTS):
        op, key = operator(f"bench-op-{c}")
        ids = [p.pk for p in players(op, PLAYERS)]
        own = [round_with_controllers() for _ in range(PAIRS)]
        warm = round_with_controllers()
        behind = [(box, p) for p in ids for box in range(1, BOXES + 1)]
        runs = {"key": key, "warm": [(warm, p, box, True) for box, p in behind]}
        for n in range(PAIRS):
            runs[f"separate {n + 1}"] = [(own[n], p, box, True) for box, p in behind]
            runs[f"hot {n + 1}"] = [(hot[n], p, box, True) for box, p in behind]
        clients.append(runs)
    op, key = operator("bench-flat")
    flat_round = round_with_controllers()
    ids = [p.pk for p in players(op, -(-FLAT_BETS // BOXES))]
    flat = [(flat_round, p, box, True) for p in ids for box in range(1, BOXES + 1)]
    return {"clients": clients, "flat": {"key": key, "slots": flat[:FLAT_BETS]}}


def _run(clients: list[dict], run: str) -> dict:
    """Every client places all its bets of ``run``; the rate over the wall time of the run."""
    start_at = time.monotonic() + 0.3
    threads = [http.Client(c["key"], c[run], start_at, start_at, start_at + 3600) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - start_at
    latencies = sorted(x for t in threads for x in t.latencies)
    accepted = sum(t.accepted for t in threads)
    errors = [e for t in threads for e in t.errors][:5]
    rate = accepted / elapsed
    print(
        f"{run}: {accepted} bets in {elapsed:.1f} s = {rate:.0f}/s, p50 "
        f"{http._percentile(latencies, 0.5) * 1000:.1f} ms, p99 "
        f"{http._percentile(latencies, 0.99) * 1000:.1f} ms; errors {errors}",
        flush=True,
    )
    return {"rate": rate, "accepted": accepted, "errors": errors, "elapsed": elapsed}


def _total(runs: list[dict]) -> dict:
    accepted = sum(r["accepted"] for r in runs)
    return {
        "rate": accepted / sum(r["elapsed"] for r in runs),
        "accepted": accepted,
        "errors": [e for r in runs for e in r["errors"]][:5],
    }


def _pgbench(database_url: str) -> tuple[float, float]:
    """(tps, backend CPU seconds per transaction) of pgbench on a scratch database."""
    parts = urlsplit(database_url)
    env = {**os.environ, "PGUSER": parts.username or "", "PGPASSWORD": parts.password or ""}
    base = [f"--host={parts.hostname}"] + ([f"--port={parts.port}"] if parts.port else [])
    name = f"bench_pgbench_{http.PORT}"
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cursor.execute(f'CREATE DATABASE "{name}"')
    try:
        binary = http._pgbench_binary()
        subprocess.run(  # noqa: S603
            [binary, *base, "-i", "-q", "-s", "16", name], env=env, check=True,
            capture_output=True,
        )  # fmt: skip
        with BackendCpu(name) as cpu:
            run = subprocess.run(  # noqa: S603
                [binary, *base, "-c", "16", "-j", "2", "-T", "10", name], env=env,
                check=True, capture_output=True, text=True,
            )  # fmt: skip
        tps = float(re.search(r"tps = ([\d.]+)", run.stdout).group(1))
        done = int(re.search(r"number of transactions actually processed: (\d+)", run.stdout)[1])
        print(f"pgbench: {tps:.0f} tps, backends' CPU {cpu.seconds:.2f} s for {done} transactions")
        return tps, cpu.seconds / done
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> int:
    connection.settings_dict["TEST"]["NAME"] = DATABASE
    old = setup_databases(verbosity=0, interactive=False, keepdb=False)
    server = None
    try:
        started = time.perf_counter()
        world = _world()
        print(f"set-up in {time.perf_counter() - started:.0f} s", flush=True)
        connection.close()
        server = http._server(http._url_with_db(os.environ["DATABASE_URL"], DATABASE))
        with BackendCpu(DATABASE) as cold_cpu:
            # A warm-up as long as a measured run: every worker's pool opens its connections
            # (a backend's start and first statements cost tens of ms), as a server that has
            # been up for a while has; pgbench's figure amortises its 16 start-ups over
            # tens of thousands of transactions.
            warm = _run(world["clients"], "warm")
            with BackendCpu(DATABASE) as cpu:
                runs = {"separate": [], "hot": []}
                for n in range(1, PAIRS + 1):
                    for kind in ("separate", "hot") if n % 2 else ("hot", "separate"):
                        runs[kind].append(_run(world["clients"], f"{kind} {n}"))
            separate, hot = _total(runs["separate"]), _total(runs["hot"])
            print(
                f"over the {PAIRS} pairs: separate {separate['rate']:.0f}/s, "
                f"hot {hot['rate']:.0f}/s ({hot['rate'] / separate['rate']:.2f} x)",
                flush=True,
            )
        flat_client = http.Client(world["flat"]["key"], world["flat"]["slots"], 0, 0, 1e12)
        flat_client.run()
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)
        server = None
        bets = separate["accepted"] + hot["accepted"]
        per_bet = cpu.seconds / bets
        first = sorted(flat_client.latencies[:100])
        last = sorted(flat_client.latencies[-100:])
        first_p50, last_p50 = first[50] * 1000, last[50] * 1000
        print(
            f"flat: {flat_client.accepted} bets on one round; p50 first 100 {first_p50:.1f} ms, "
            f"last 100 {last_p50:.1f} ms; errors {flat_client.errors[:3]}",
            flush=True,
        )
        cold_bets = bets + warm["accepted"]
        cold_per_bet = cold_cpu.seconds / cold_bets
        print(
            f"bets: backends' CPU {cpu.seconds:.2f} s for {bets} bets on a warm server "
            f"({per_bet * 1000:.2f} ms each); from the server's start, warm-up included: "
            f"{cold_cpu.seconds:.2f} s for {cold_bets} bets ({cold_per_bet * 1000:.2f} ms each)",
            flush=True,
        )
        _, pg_per_txn = _pgbench(os.environ["DATABASE_URL"])
        complete = not (warm["errors"] or separate["errors"] or hot["errors"] or flat_client.errors)
        ok_hot = hot["rate"] >= 0.9 * separate["rate"]
        ok_flat = flat_client.accepted == FLAT_BETS and last_p50 <= 1.2 * first_p50
        ok_cpu = per_bet * 1000 <= 2.25
        result(
            name=(
                f"hot table: {CLIENTS} clients on one round, {hot['accepted'] // PAIRS} bets "
                f"behind ({PAIRS} rounds)"
            ),
            figure=hot["rate"], unit="bets/s",
            baseline_name=f"the same clients and bets on {CLIENTS} separate tables, bets/s",
            baseline=separate["rate"], target=">= 0.9 x", ok=ok_hot and complete,
        )  # fmt: skip
        result(
            name=f"flat cost: one client, {FLAT_BETS} bets on one round, p50 of the last 100",
            figure=last_p50, unit="ms", baseline_name="p50 of the first 100, ms",
            baseline=first_p50, target="<= 1.2 x", ok=ok_flat,
        )  # fmt: skip
        result(
            name="PostgreSQL backend CPU per accepted bet (HTTP, hot and separate runs, warm)",
            figure=per_bet * 1000, unit="ms",
            baseline_name="pgbench backend CPU per TPC-B-like transaction, ms",
            baseline=pg_per_txn * 1000, target="<= 2.25 ms (half of 4.5)", ok=ok_cpu,
        )  # fmt: skip
        return 0 if ok_hot and ok_flat and ok_cpu and complete else 1
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGKILL)
        connection.close()
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    sys.exit(main())
