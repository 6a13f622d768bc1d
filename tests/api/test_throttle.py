"""The per-credential rate limit, on both shared caches: the database table (the embedded
default) and Redis (production's ``CACHE_URL``; here the machine's Redis, a database of this
test's own)."""

import threading
import time

import pytest
from django.core.cache import caches

from casino.api import roles
from casino.api.throttling import PerCredentialThrottle
from casino.cache import window_count
from conftest import redis_test_url

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["database", "redis"])
def shared_cache(request, settings):
    if request.param == "redis":
        location = redis_test_url()
        settings.CACHES = {
            **settings.CACHES,
            "default": {"BACKEND": "casino.cache.RedisCache", "LOCATION": location},
        }
    cache = caches["default"]
    cache.clear()
    yield request.param
    cache.clear()


@pytest.fixture
def three_a_minute(monkeypatch):
    # DRF binds the rates to the class when it is defined; a setting override is not seen.
    monkeypatch.setattr(PerCredentialThrottle, "THROTTLE_RATES", {"credential": "3/min"})


def test_a_credential_past_its_rate_gets_a_429_problem_with_retry_after(
    shared_cache, three_a_minute, client_for
):
    client = client_for(roles.OPERATOR_INTEGRATION)
    statuses = [client.get("/api/v1/me/") for _ in range(5)]
    assert [r.status_code for r in statuses] == [200, 200, 200, 429, 429]
    refused = statuses[3]
    assert refused["Content-Type"] == "application/problem+json"
    assert refused.json()["type"].endswith("/throttled")
    assert 0 < int(refused["Retry-After"]) <= 60
    # another credential has its own window
    assert client_for(roles.DEALER_DEVICE).get("/api/v1/me/").status_code == 200


def test_the_window_opens_at_the_first_hit_and_closes_after_its_length(shared_cache):
    assert [window_count("w", 1)[0] for _ in range(3)] == [1, 2, 3]
    _, left = window_count("w", 1)
    assert 0 < left <= 1
    time.sleep(left + 0.05)
    count, left = window_count("w", 1)
    assert count == 1 and 0.9 < left <= 1


def test_the_counter_stays_one_small_value_however_many_hits(shared_cache):
    for _ in range(500):
        window_count("busy", 60)
    stored = caches["default"].get("busy")
    hits = stored if shared_cache == "redis" else stored[0]
    assert hits == 500  # one number, not a log of 500 times
    assert window_count("busy", 60)[0] == 501


def test_one_redis_client_per_process_whatever_the_request_context(settings):
    """Django keeps a cache backend per context (per request under ASGI): they all share one
    client and one connection pool, so a request does not open a connection to Redis."""
    settings.CACHES = {
        **settings.CACHES,
        "default": {"BACKEND": "casino.cache.RedisCache", "LOCATION": redis_test_url()},
    }
    backends = []
    for _ in range(2):  # a new thread starts with a context of its own, as a request does
        thread = threading.Thread(target=lambda: backends.append(caches["default"]))
        thread.start()
        thread.join()
    first, second = backends
    assert first is not second
    client = first._cache.get_client()
    assert second._cache.get_client(write=True) is client
    first.set("k", 1, 5)
    assert second.get("k") == 1
    assert len(client.connection_pool._available_connections) <= 1


def test_a_burst_past_the_pools_connections_waits_for_one_instead_of_failing(settings):
    """A thousand streams closing at once each release their slot from a thread of their own:
    with every connection of the process's pool busy, a call waits for one to come back."""
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "casino.cache.RedisCache",
            "LOCATION": redis_test_url(),
            "OPTIONS": {**settings.REDIS_CACHE_OPTIONS, "max_connections": 3},
        },
    }
    backend = caches["default"]
    pool = backend._cache.get_client(write=True).connection_pool
    busy = [pool.get_connection() for _ in range(3)]
    threading.Timer(0.3, pool.release, [busy.pop()]).start()
    started = time.monotonic()
    backend.set("burst", 1, 5)  # no free connection until the timer gives one back
    assert time.monotonic() - started >= 0.25
    assert backend.get("burst") == 1
    for connection in busy:
        pool.release(connection)
