"""Faults under HTTP load against gunicorn with production settings (real processes):
PostgreSQL unreachable, a web worker SIGKILLed mid-request, 1,000 concurrent bets on one
wallet."""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.faults.helpers import (
    Bettor,
    Gunicorn,
    Proxy,
    database_url,
    money_checks,
    post_bet,
    settle_unknown,
)

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]


def _statuses(bettors, since=None, until=None):
    out = []
    for bettor in bettors:
        out += [
            entry
            for entry in bettor.log
            if (since is None or entry[5] >= since) and (until is None or entry[5] < until)
        ]
    return out


@pytest.mark.parametrize("asgi", [False, True], ids=["sync-workers", "asgi-pooled"])
def test_postgresql_unreachable_under_load_503_then_recovers(betting_world, asgi):
    # Enough slots that the bettors are still betting seconds after the database is back
    # (with 6 tables each, 120 bets, a faster bet path ran them out before the window below).
    # The ASGI server takes its connections from a pool, which must answer 503 while the
    # database is down rather than hold each request for the pool's 10-s wait (and the
    # window below sees no answer at all).
    key, slots, _ = betting_world(tables=12, players=4, funding=10**9)
    proxy = Proxy()
    server = Gunicorn(database_url("127.0.0.1", proxy.port), workers=2, asgi=asgi)
    bettors = [Bettor(server.port, key, player_slots, pause=0.01) for player_slots in slots]
    try:
        for bettor in bettors:
            bettor.start()
        time.sleep(2)
        cut_at = time.monotonic()
        proxy.cut()
        time.sleep(3)
        restored_at = time.monotonic()
        proxy.restore()
        # Recovery is bounded, not instantaneous (a request may sit in its connect timeout):
        # wait up to 20 s for bets to be accepted again, then watch them for 2 s more.
        deadline = restored_at + 20
        while time.monotonic() < deadline and not any(
            e[2] == 201 for e in _statuses(bettors, since=restored_at)
        ):
            time.sleep(0.2)
        recovered_at = time.monotonic()
        time.sleep(2)
        for bettor in bettors:
            bettor.stop.set()
        for bettor in bettors:
            bettor.join(30)

        before = _statuses(bettors, until=cut_at)
        assert before and {e[2] for e in before} == {201}
        # Requests sent while it is down (after the ones in flight at the cut): clean 503
        # problem responses, never a 500 or a dropped connection.
        down = _statuses(bettors, since=cut_at + 0.5, until=restored_at)
        assert down, "no request was answered while the database was down"
        assert {e[2] for e in down} == {503}, {e[2] for e in down}
        assert all(e[4].startswith("application/problem+json") for e in down)
        assert all(e[3]["type"].endswith("/database-unavailable") for e in down)
        # It recovers by itself: bets are accepted again soon after the database is back.
        assert recovered_at < deadline, "bets were not accepted again within 20 s"
        after = _statuses(bettors, since=recovered_at + 0.5)
        assert after, "the bettors ran out of slots before the window after the recovery"
        assert {e[2] for e in after} == {201}, {e[2] for e in after}
        assert {e[2] for e in _statuses(bettors)} <= {201, 503}

        log = [entry for bettor in bettors for entry in bettor.log]
        final = settle_unknown(server.port, key, log)
    finally:
        server.stop()
        proxy.close()
    from tables.models import Bet

    # Every request the client did not get an answer for was retried with its key: exactly
    # one bet per accepted key, none half-written.
    assert set(final.values()) == {201}
    assert Bet.objects.count() == len(final)
    money_checks()


def test_a_web_worker_killed_mid_request_moves_no_money_partially(betting_world):
    key, slots, _ = betting_world(tables=2, players=6, funding=10**9)
    server = Gunicorn(database_url(), workers=2)
    bettors = [Bettor(server.port, key, player_slots) for player_slots in slots]
    killed = 0
    try:
        for bettor in bettors:
            bettor.start()
        for _ in range(4):  # SIGKILL a busy worker every ~0.7 s
            time.sleep(0.7)
            workers = server.workers()
            if workers:
                os.kill(workers[0], signal.SIGKILL)
                killed += 1
        time.sleep(1.5)
        for bettor in bettors:
            bettor.stop.set()
        for bettor in bettors:
            bettor.join(30)
        log = [entry for bettor in bettors for entry in bettor.log]
        lost = sum(1 for e in log if e[2] != 201)
        final = settle_unknown(server.port, key, log)
    finally:
        server.stop()
    from tables.models import Bet

    assert killed == 4
    assert lost >= 1, "no request was in flight when a worker died"
    assert set(final.values()) == {201}
    assert Bet.objects.count() == len(final)
    money_checks()


def test_a_thousand_concurrent_bets_against_one_wallet(betting_world):
    stake, affordable = 100, 137
    key, slots, wallets = betting_world(
        tables=10, players=1, funding=affordable * stake, boxes=100, stake=stake
    )
    slots = slots[0]
    assert len(slots) == 1000
    server = Gunicorn(database_url(), workers=4)
    barrier = threading.Barrier(100)
    outcomes: list[tuple[int, dict | None]] = []
    lock = threading.Lock()

    def place(chunk):
        barrier.wait(30)
        for slot in chunk:
            status, body, _ = post_bet(server.port, key, slot, uuid.uuid4().hex, timeout=120)
            with lock:
                outcomes.append((status, body))

    try:
        with ThreadPoolExecutor(100) as pool:
            list(pool.map(place, [slots[i::100] for i in range(100)]))
    finally:
        server.stop()
    statuses = [status for status, _ in outcomes]
    assert len(statuses) == 1000
    assert statuses.count(201) == affordable, {s: statuses.count(s) for s in set(statuses)}
    refused = [body for status, body in outcomes if status != 201]
    assert {body["type"].rsplit("/", 1)[1] for body in refused} == {"insufficient-funds"}
    wallets[0].refresh_from_db()
    assert wallets[0].balance == 0
    money_checks()
