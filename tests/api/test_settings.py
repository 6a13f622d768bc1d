import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _check(env: dict) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "CASINO_ENV", "DEBUG"}}
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_without_secret_key_is_a_clear_startup_error():
    result = _check({"CASINO_ENV": "production", "CELERY_BROKER_URL": "memory://"})
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_production_with_secret_key_starts_with_debug_off():
    code = "from django.conf import settings; print(settings.DEBUG, settings.ALLOWED_HOSTS)"
    from django.conf import settings

    env = {
        "CASINO_ENV": "production",
        "SECRET_KEY": "x" * 50,
        "CELERY_BROKER_URL": "memory://",
        "DATABASE_URL": settings.DATABASE_URL,
    }
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG"}}
    result = subprocess.run(  # noqa: S603
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env={**clean, **env, "DJANGO_SETTINGS_MODULE": "casino.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False []"


def test_unknown_environment_and_bad_boolean_are_named():
    result = _check({"CASINO_ENV": "staging"})
    assert "CASINO_ENV='staging'" in result.stderr
    result = _check({"CASINO_ENV": "development", "DEBUG": "maybe"})
    assert "DEBUG='maybe' is not a boolean" in result.stderr


def test_a_negative_bound_is_a_named_startup_error():
    """A negative ``WEB_THREADS`` would fail every request at its first use (a semaphore
    below zero): refused when the settings load instead."""
    result = _settings_value({"WEB_THREADS": "-1"}, "settings.WEB_THREADS")
    assert result.returncode != 0
    assert "WEB_THREADS='-1' is below its minimum, 0" in result.stderr
    assert _settings_value({"WEB_THREADS": "0"}, "settings.WEB_THREADS").stdout.strip() == "0"
    # 0 would re-check readiness in a loop without pause.
    result = _settings_value({"HEALTH_CHECK_EVERY_S": "0"}, "settings.HEALTH_CHECK_EVERY_S")
    assert "HEALTH_CHECK_EVERY_S='0' is below its minimum, 1" in result.stderr


@pytest.mark.parametrize(
    ("name", "value", "minimum"),
    [
        ("HEALTH_HEARTBEAT_EVERY_S", "0", 1),  # a heartbeat thread writing without pause
        ("DB_POOL_MAX", "0", 1),  # a pool that can lend nothing (read with DB_POOL on)
        ("LEDGER_WEBHOOK_MAX_IN_FLIGHT", "0", 1),  # no delivery could ever start
        ("STAFF_LOCKOUT_FAILURES", "-3", 1),
    ],
)
def test_every_count_and_interval_has_a_floor(name, value, minimum):
    result = _settings_value({name: value, "DB_POOL": "1"}, "settings.DATABASES")
    assert result.returncode != 0
    assert f"{name}={value!r} is below its minimum, {minimum}" in result.stderr


def _settings_value(env: dict, expression: str) -> subprocess.CompletedProcess:
    code = f"import django; django.setup(); from django.conf import settings; print({expression})"
    return subprocess.run(  # noqa: S603
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, **env, "DJANGO_SETTINGS_MODULE": "casino.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cache_url_chooses_the_shared_cache():
    expression = "settings.CACHES['default']['BACKEND'].rsplit('.', 1)[1]"
    redis = _settings_value({"CACHE_URL": "redis://127.0.0.1:6379/0"}, expression)
    assert redis.stdout.strip() == "RedisCache", redis.stderr
    embedded = _settings_value({"CACHE_URL": ""}, expression)
    assert embedded.stdout.strip() == "DatabaseCache", embedded.stderr
    wrong = _settings_value({"CACHE_URL": "memcached://x"}, expression)
    assert "CACHE_URL='memcached://x'" in wrong.stderr


def test_the_database_cache_table_exists_after_migrate(db):
    """`migrate` (here: the test database's) creates it: nothing to run by hand."""
    from django.core.cache import cache

    cache.set("probe", 1)
    assert cache.get("probe") == 1


def test_former_secret_keys_are_read_from_the_environment():
    expression = "settings.SECRET_KEY_FALLBACKS"
    listed = _settings_value({"SECRET_KEY_FALLBACKS": "old-one, older-one"}, expression)
    assert listed.stdout.strip() == "['old-one', 'older-one']", listed.stderr
    assert _settings_value({}, expression).stdout.strip() == "[]"
