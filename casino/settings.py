"""Settings, read from the environment (see README "Configuration").

CASINO_ENV chooses the safety posture: ``production`` (the default) refuses to start without
an explicit SECRET_KEY and DATABASE_URL; ``development`` and ``test`` (set by ``make demo`` and
``make test``) fall back to the embedded PostgreSQL and the serverless Celery broker.
"""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from casino.env import env_bool, env_int, env_list, env_str
from casino.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(env_str("CASINO_DATA_DIR", str(BASE_DIR / ".data")))

CASINO_ENV = env_str("CASINO_ENV", "production")
if CASINO_ENV not in {"production", "development", "test"}:
    raise ImproperlyConfigured(
        f"CASINO_ENV={CASINO_ENV!r}: expected production, development or test"
    )
PRODUCTION = CASINO_ENV == "production"

DEBUG = env_bool("DEBUG", False)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Production (CASINO_ENV=production, the default) needs an "
            "explicit secret; for a local demo use `make demo`, which sets CASINO_ENV=development."
        )
    SECRET_KEY = "insecure-development-key-never-used-in-production"  # noqa: S105
# Former keys, still accepted for what they signed or sealed (sessions, API cursors such as
# the events feed's stored `next` link) while a new SECRET_KEY takes over.
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS", [])

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", [] if PRODUCTION else ["localhost", "127.0.0.1", "testserver"]
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # Django's admin with the console's MFA-only site (casino/staff/site.py).
    "casino.staff.apps.ConsoleAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "axes",
    "csp",
    "casino.staff.apps.StaffConfig",
    "drf_spectacular_sidecar",  # Swagger UI's files, served by us (no CDN)
    "casino.api",
    "casino.demo",
    "casino.console",
    "casino.retention.apps.RetentionConfig",
    "casino.sandbox",
    "audit.apps.AuditConfig",
    "forensics.apps.ForensicsConfig",
    "ledger.apps.LedgerConfig",
    "tables.apps.TablesConfig",
]

MIDDLEWARE = [
    "casino.tracing.TracingMiddleware",  # a no-op unless OTEL_ENABLED
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # API paths with or without the trailing slash (no 301s under /api/).
    "casino.api.middleware.ApiTrailingSlashMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    # Idle timeout and absolute lifetime of staff sessions (casino/staff/sessions.py).
    "casino.staff.sessions.StaffSessionMiddleware",
    # Attributes permission changes made in a request to its user (audit/context.py).
    "audit.context.AuditContextMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "casino.api.middleware.DatabaseUnavailableMiddleware",
    # Observability (README "Operating it"): log context, then per-route metrics.
    "casino.logs.RequestLogContextMiddleware",
    "casino.metrics.MetricsMiddleware",
    # Last, as django-axes requires: turns a lockout into its response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "casino.urls"
WSGI_APPLICATION = "casino.wsgi.application"
ASGI_APPLICATION = "casino.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------------------
# https://github.com/jazzband/dj-database-url — PostgreSQL only (psycopg 3).
DATABASE_URL = env_str("DATABASE_URL")
if not DATABASE_URL:
    if PRODUCTION:
        raise ImproperlyConfigured(
            "DATABASE_URL is not set. Production needs a PostgreSQL URL; the embedded "
            "PostgreSQL is only for CASINO_ENV=development or test."
        )
    from casino.embedded import ensure_database_url

    DATABASE_URL = ensure_database_url()
_conn_max_age = env_int("DB_CONN_MAX_AGE", 60, minimum=0)
_connect_timeout = env_int("DB_CONNECT_TIMEOUT", 5, minimum=1)
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=_conn_max_age)}
if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured("DATABASE_URL must point at PostgreSQL (postgres://...).")
DATABASES["default"].setdefault("OPTIONS", {})
DATABASES["default"]["OPTIONS"].setdefault("connect_timeout", _connect_timeout)
# A process frozen inside a transaction (stopped, swapping, a debugger) would keep its row
# locks, e.g. a box's during betting, until it died: past this, PostgreSQL ends its session and
# the locks go with it (0: never). Not by default under the test runner, whose own connection
# holds each test's transaction open while the test waits on servers and workers.
_idle_s = env_int("DB_IDLE_IN_TRANSACTION_TIMEOUT_S", 0 if CASINO_ENV == "test" else 30, minimum=0)
DATABASES["default"]["OPTIONS"]["options"] = " ".join(
    filter(None, [
        DATABASES["default"]["OPTIONS"].get("options"),
        f"-c idle_in_transaction_session_timeout={_idle_s * 1000}",
    ])
)  # fmt: skip
DATABASES["default"]["TEST"] = {"NAME": env_str("TEST_DATABASE_NAME")}
# A persistent connection the server dropped (a database restart) is replaced before the
# request uses it, instead of failing that request.
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# Under the ASGI server (casino/asgi.py sets DB_POOL) Django runs each request's sync code in a
# thread of its own, so a persistent connection per thread would be a new connection per
# request: a psycopg pool per process instead, a connection lent for each request (Django
# checks it before lending it, as CONN_HEALTH_CHECKS does).
if env_bool("DB_POOL"):
    # Django's backend with a pool that answers 503 at once while the database is down
    # instead of after DB_POOL_TIMEOUT (casino/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "casino.postgresql"
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": env_int("DB_POOL_MIN", 2, minimum=0),
        "max_size": env_int("DB_POOL_MAX", 20, minimum=1),
        "timeout": env_int("DB_POOL_TIMEOUT", 10, minimum=1),
    }
# Requests whose sync part one web worker runs at once under the ASGI server; the rest wait in
# its event loop (casino/admission.py says why; 0: no bound).
WEB_THREADS = env_int("WEB_THREADS", 2, minimum=0)
# Optional owner role for migrations (README "Database roles"): `manage.py migrate --database
# owner`, while DATABASE_URL connects as the application role with INSERT+SELECT on audit tables.
MIGRATION_DATABASE_URL = env_str("MIGRATION_DATABASE_URL")
if MIGRATION_DATABASE_URL:
    DATABASES["owner"] = {
        **dj_database_url.parse(MIGRATION_DATABASE_URL, conn_max_age=0),
        "TEST": {"MIRROR": "default"},
    }
# Optional streaming replica for reads that may be a few seconds stale (casino/replica.py):
# reports, replays, the audit browser, table accounting. Tests create no database on it: the
# standby replays the test database the primary's test run creates.
DATABASE_REPLICA_URL = env_str("DATABASE_REPLICA_URL")
DATABASE_REPLICA_MAX_LAG_S = env_int("DATABASE_REPLICA_MAX_LAG_S", 5, minimum=0)
DATABASE_REPLICA_CHECK_EVERY_S = env_int("DATABASE_REPLICA_CHECK_EVERY_S", 2, minimum=1)
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = {
        **dj_database_url.parse(DATABASE_REPLICA_URL, conn_max_age=_conn_max_age),
        "CONN_HEALTH_CHECKS": True,
        "TEST": {"MIRROR": "default"},
    }
    DATABASES["replica"].setdefault("OPTIONS", {})
    DATABASES["replica"]["OPTIONS"].setdefault("connect_timeout", _connect_timeout)
DATABASE_ROUTERS = ["casino.replica.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache: throttle counters and credential-refusal windows, shared by every process --------
# CACHE_URL=redis://host:6379/0 uses Django's Redis backend; without it the cache is a table
# of the database (created by `migrate`, see casino/api/apps.py), which needs no server.
# "process" is each process's own memory, for what may be stale for a few seconds.
CACHE_URL = env_str("CACHE_URL", "")
# A burst of calls (a thousand streams closing at once, each releasing its slot from a thread
# of its own) waits up to ``timeout`` s for one of the process's connections to Redis instead
# of failing with "Too many connections" (bench/streams.py found it).
REDIS_CACHE_OPTIONS = {
    "pool_class": "redis.BlockingConnectionPool",
    "max_connections": env_int("CACHE_MAX_CONNECTIONS", 100, minimum=1),
    "timeout": 5,
}
if CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    _shared_cache = {
        "BACKEND": "casino.cache.RedisCache",  # one client per process
        "LOCATION": CACHE_URL,
        "OPTIONS": REDIS_CACHE_OPTIONS,
    }
elif not CACHE_URL:
    _shared_cache = {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "casino_cache",
        # Culling (past MAX_ENTRIES) drops live counters too: keep it for abnormal growth.
        "OPTIONS": {"MAX_ENTRIES": 10_000},
    }
else:
    raise ImproperlyConfigured(
        f"CACHE_URL={CACHE_URL!r}: expected redis://, rediss://, unix:// or nothing."
    )
CACHES = {
    "default": _shared_cache,
    "process": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(DATA_DIR / "static")))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Serve admin assets straight from the apps when collectstatic has not run (demo, tests).
WHITENOISE_USE_FINDERS = not PRODUCTION

SESSION_COOKIE_SECURE = PRODUCTION
CSRF_COOKIE_SECURE = PRODUCTION
SECURE_CONTENT_TYPE_NOSNIFF = True
# Behind a TLS-terminating proxy that sets X-Forwarded-Proto (and strips it from clients).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", PRODUCTION)
# Load balancers probe health over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^api/v1/health/$"]
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if PRODUCTION else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", PRODUCTION)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", PRODUCTION)

# --- Content-Security-Policy (django-csp) ---------------------------------------------------
# Scripts and styles come from our own static files; the few inline ones carry the request's
# nonce (``request.csp_nonce``). No frames, plugins or foreign form targets.
from csp.constants import NONCE, NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# --- Staff accounts (casino/staff) ---------------------------------------------------------
# Pit console alerts (casino/console/selectors.py): this many failed staff logins, or refused
# API credentials, within CONSOLE_AUTH_BURST_MINUTES; lockouts show for STAFF_LOCKOUT_MINUTES.
CONSOLE_AUTH_BURST_MINUTES = env_int("CONSOLE_AUTH_BURST_MINUTES", 5, minimum=1)
CONSOLE_FAILED_LOGIN_BURST = env_int("CONSOLE_FAILED_LOGIN_BURST", 5, minimum=1)
CONSOLE_REFUSED_CREDENTIAL_BURST = env_int("CONSOLE_REFUSED_CREDENTIAL_BURST", 20, minimum=1)
# Every console/API staff session passed a second factor (TOTP, backup code or a device
# remembered for STAFF_MFA_REMEMBER_DAYS; 0 disables remembering).
STAFF_MFA_REMEMBER_DAYS = env_int("STAFF_MFA_REMEMBER_DAYS", 7)
OTP_TOTP_ISSUER = env_str("OTP_TOTP_ISSUER", "Casino pit console")
STAFF_IDLE_TIMEOUT_MINUTES = env_int("STAFF_IDLE_TIMEOUT_MINUTES", 15, minimum=1)
STAFF_SESSION_MAX_HOURS = env_int("STAFF_SESSION_MAX_HOURS", 12, minimum=1)
SESSION_COOKIE_AGE = STAFF_SESSION_MAX_HOURS * 3600
# Lockout (django-axes): STAFF_LOCKOUT_FAILURES failed logins (password or second factor) of
# a username lock it out for STAFF_LOCKOUT_MINUTES, doubled per earlier lockout that day.
STAFF_LOCKOUT_FAILURES = env_int("STAFF_LOCKOUT_FAILURES", 10, minimum=1)
STAFF_LOCKOUT_MINUTES = env_int("STAFF_LOCKOUT_MINUTES", 30, minimum=1)
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = STAFF_LOCKOUT_FAILURES
AXES_COOLOFF_TIME = "casino.staff.lockout.cool_off"
# Per username only. Locking out client addresses as well (axes.W006) would, behind the TLS
# proxy that every client's requests come through, lock the whole pit out after anyone's ten
# failures; bursts of failures across usernames are shown as pit console alerts instead.
AXES_LOCKOUT_PARAMETERS = ["username"]
SILENCED_SYSTEM_CHECKS = ["axes.W006"]
AXES_USERNAME_CALLABLE = "casino.staff.lockout.login_username"
AXES_RESET_ON_SUCCESS = True
# Our login refuses a locked-out username before checking anything: attempts during a
# lockout neither extend it nor count.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_TEMPLATE = "staff/locked_out.html"
# The console shows only audited admins (tests/console); lockouts are in the audit log.
AXES_ENABLE_ADMIN = False
# The largest request body (file uploads aside) before a 413: an API body is a few hundred
# bytes; 1 MiB leaves the admin's forms ample room.
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

# --- Celery -------------------------------------------------------------------------------
# With no CELERY_BROKER_URL a real worker runs on kombu's filesystem transport, which needs
# no server: https://docs.celeryq.dev/projects/kombu/en/stable/reference/kombu.transport.filesystem.html
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
if not CELERY_BROKER_URL:
    if PRODUCTION:
        raise ImproperlyConfigured("CELERY_BROKER_URL is not set (RabbitMQ or Redis URL).")
    _queue_dir = DATA_DIR / "broker"
    for _sub in ("queue", "processed", "control"):
        (_queue_dir / _sub).mkdir(parents=True, exist_ok=True)
    # A host name, which the transport ignores: without one kombu warns "No hostname was
    # supplied" in every process that connects (the demo's first lines).
    # kombu's filesystem transport with whole-message writes (casino/brokerfs.py, registered
    # for the filesystem:// scheme by casino/celery.py).
    CELERY_BROKER_URL = "filesystem://localhost/"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue_dir / "queue"),
        "data_folder_out": str(_queue_dir / "queue"),
        "processed_folder": str(_queue_dir / "processed"),
        "control_folder": str(_queue_dir / "control"),
        "store_processed": False,
    }
    # The filesystem transport has no fanout exchange for remote control.
    CELERY_WORKER_ENABLE_REMOTE_CONTROL = False
elif CELERY_BROKER_URL.startswith(("amqp://", "amqps://", "pyamqp://")):
    # Publisher confirms: a publish returns once RabbitMQ holds the message. Without them a
    # process that published nothing for a while (the broker has closed its connection for
    # missed heartbeats) writes its next message into a dead socket and loses it silently;
    # with them the missing confirm raises, and kombu reconnects and publishes again.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"confirm_publish": True}
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "casino")
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Timers travel as ETA messages in the same queue as settlements, and a worker holds an ETA
# message unacknowledged until it is due: with a window of 1 a settlement queued behind a
# betting-close or decision timer waited for that timer's due time (10 s and more, measured in
# tests/faults/test_settlement_faults.py). A window of 4 lets settlements pass held timers;
# acks_late still returns everything a dead worker held to the queue.
CELERY_WORKER_PREFETCH_MULTIPLIER = 4
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_TIMEOUT = env_int("CELERY_BROKER_CONNECTION_TIMEOUT", 4, minimum=1)
CELERY_TASK_ALWAYS_EAGER = False
CELERY_BEAT_SCHEDULE = {
    "idempotency-purge": {"task": "api.idempotency_purge_expired", "schedule": 3600.0},
    "credential-refusals-summarize": {
        "task": "api.credential_refusals_summarize",
        "schedule": 60.0,
    },
    # Sealing lag bounds how long an event is unsealed; a full verification walks everything.
    "audit-seal": {"task": "audit.seal", "schedule": env_int("AUDIT_SEAL_EVERY_S", 10, minimum=1)},
    "audit-verify": {
        "task": "audit.verify",
        "schedule": env_int("AUDIT_VERIFY_EVERY_S", 3600, minimum=1),
    },
}

# --- API platform -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "casino.api.authentication.ApiKeyAuthentication",
        "casino.api.authentication.DeviceTokenAuthentication",
        "casino.api.authentication.StaffTokenAuthentication",
        "casino.api.authentication.VerifiedSessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "casino.api.permissions.RolePermission",
        "casino.api.scopes.ScopePermission",
    ],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["casino.api.parsers.JSONParser"],
    "DEFAULT_PAGINATION_CLASS": "casino.api.pagination.CursorPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["casino.api.filters.StrictFilterBackend"],
    "DEFAULT_THROTTLE_CLASSES": ["casino.api.throttling.PerCredentialThrottle"],
    "DEFAULT_THROTTLE_RATES": {"credential": env_str("API_THROTTLE_RATE", "6000/min")},
    "EXCEPTION_HANDLER": "casino.api.problems.problem_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "casino.api.schema.AutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
if DEBUG:
    REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"].append(
        "rest_framework.renderers.BrowsableAPIRenderer"
    )

SPECTACULAR_SETTINGS = {
    "TITLE": "Casino table management API",
    "DESCRIPTION": (
        "Live-dealer Pontoon tables, wallets and the audit trail. Errors are RFC 9457 problem "
        "details (application/problem+json). Money is integer minor units plus a currency."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    # The schema and docs are public: they describe the API, they hold no data.
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    # Swagger UI from drf-spectacular-sidecar's static files: works on an isolated network.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several models have a "kind" choice field; name each enum after its model.
    "ENUM_NAME_OVERRIDES": {
        "DisputeNoteKindEnum": "audit.models.DisputeNote.Kind",
        "LegKindEnum": "ledger.models.Leg.Kind",
        "VoidRequestStatusEnum": "tables.models.VoidRequest.Status",
        "CardSourceEnum": "tables.models.Table.CardSource",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "casino.api.schema.add_problem_responses",
    ],
}

IDEMPOTENCY_KEY_TTL_HOURS = 24
# Refused bearer credentials per client address and window answered 401 (then 429); only the
# first of each window is audited at once, the rest in one summary (casino/api/throttling.py).
API_REFUSAL_THROTTLE_RATE = env_str("API_REFUSAL_THROTTLE_RATE", "20/min")

# Credentials (casino/api/services.py): a lifetime is both the default expiry of a new or
# rotated key/token and the longest an issuer may choose; a rotation keeps the previous secret
# valid for the overlap (at most this long) so clients switch without downtime.
API_KEY_LIFETIME_DAYS = env_int("API_KEY_LIFETIME_DAYS", 365)
# A staff member's personal API token lives hours, like the console session it is minted from.
API_STAFF_TOKEN_LIFETIME_HOURS = env_int("API_STAFF_TOKEN_LIFETIME_HOURS", 12)
API_DEVICE_TOKEN_LIFETIME_DAYS = env_int("API_DEVICE_TOKEN_LIFETIME_DAYS", 90)
API_ROTATION_OVERLAP_HOURS = env_int("API_ROTATION_OVERLAP_HOURS", 24)

# --- Audit --------------------------------------------------------------------------------
# Ed25519 private keys that sign audit seals, exported chain heads and export bundles (base64
# 32-byte seeds separated by commas, or PEM blocks); the first signs, the others still verify.
# AUDIT_PUBLIC_KEYS adds the public keys of retired keys (their private halves destroyed). Keep
# the private keys outside the database: a role that can rewrite audit tables must not be able
# to re-sign them. Outside production a key is derived from SECRET_KEY; production without one
# fails the `audit` system check.
AUDIT_SIGNING_KEYS = env_str("AUDIT_SIGNING_KEYS")
AUDIT_PUBLIC_KEYS = env_str("AUDIT_PUBLIC_KEYS")
# The HMAC key of seals written before the Ed25519 scheme: only needed to verify those.
AUDIT_SIGNING_KEY = env_str("AUDIT_SIGNING_KEY")
if not PRODUCTION:
    import base64 as _base64
    import hashlib as _hashlib
    import hmac as _hmac

    if not AUDIT_SIGNING_KEYS:
        AUDIT_SIGNING_KEYS = _base64.b64encode(
            _hmac.new(SECRET_KEY.encode(), b"casino.audit.ed25519", _hashlib.sha256).digest()
        ).decode()
    if not AUDIT_SIGNING_KEY:
        AUDIT_SIGNING_KEY = _hmac.new(
            SECRET_KEY.encode(), b"casino.audit.signing", _hashlib.sha256
        ).hexdigest()
# The regulator's daily export (forensics/bundles.py): where `audit.export_day` writes bundles,
# once a casino's gaming day has closed and its last events are sealed. Hourly, since each
# casino's gaming day ends at its own local day start; an exported day is not written again.
AUDIT_EXPORT_DIR = env_str("AUDIT_EXPORT_DIR", str(DATA_DIR / "audit-exports"))
CELERY_BEAT_SCHEDULE["audit-export-day"] = {
    "task": "audit.export_day",
    "schedule": crontab(minute=env_int("AUDIT_EXPORT_MINUTE", 30)),
}

# --- Retention: monthly partitions of the append-only tables (casino/retention) ------------
# Months of partitions kept ready ahead of the current one (created daily by beat), and where
# ``manage.py partitions detach`` moves a detached month (README "Retention").
RETENTION_MONTHS_AHEAD = env_int("RETENTION_MONTHS_AHEAD", 3)
CELERY_BEAT_SCHEDULE["retention-partitions-ensure"] = {
    "task": "retention.partitions_ensure",
    "schedule": crontab(hour=1, minute=15),
}

# Structured JSON logs on stderr (casino/logs.py); LOG_FORMAT=console for a terminal.
LOGGING = logging_config(level=env_str("LOG_LEVEL", "INFO"), fmt=env_str("LOG_FORMAT", "json"))

# --- Ledger: operator webhooks (ledger/webhooks.py) ---------------------------------------
LEDGER_WEBHOOK_BACKOFF_SECONDS = env_int("LEDGER_WEBHOOK_BACKOFF_SECONDS", 1, minimum=0)
LEDGER_WEBHOOK_MAX_ATTEMPTS = env_int("LEDGER_WEBHOOK_MAX_ATTEMPTS", 12, minimum=1)
# Deliveries run on a queue of their own (a worker with a thread pool: `make demo` starts one),
# so an operator's slow endpoint never holds up settlement on the main queue.
LEDGER_WEBHOOK_QUEUE = env_str("LEDGER_WEBHOOK_QUEUE", "webhooks")
LEDGER_WEBHOOK_CONNECT_TIMEOUT = env_int("LEDGER_WEBHOOK_CONNECT_TIMEOUT", 3, minimum=1)
LEDGER_WEBHOOK_READ_TIMEOUT = env_int("LEDGER_WEBHOOK_READ_TIMEOUT", 5, minimum=1)
# Per operator: deliveries in flight at once, and the circuit breaker (opens after this many
# consecutive failed attempts, for the cool-off; then one probe decides).
LEDGER_WEBHOOK_MAX_IN_FLIGHT = env_int("LEDGER_WEBHOOK_MAX_IN_FLIGHT", 4, minimum=1)
LEDGER_WEBHOOK_CIRCUIT_FAILURES = env_int("LEDGER_WEBHOOK_CIRCUIT_FAILURES", 5, minimum=1)
LEDGER_WEBHOOK_CIRCUIT_COOLOFF_SECONDS = env_int("LEDGER_WEBHOOK_CIRCUIT_COOLOFF_SECONDS", 30)
# Egress allow-list (ledger/egress.py): webhook targets must be public addresses; these hosts
# or networks (e.g. "127.0.0.1", "10.1.0.0/16", "hooks.internal") are allowed anyway.
LEDGER_WEBHOOK_ALLOWED_HOSTS = env_list("LEDGER_WEBHOOK_ALLOWED_HOSTS", [])
# Webhook signing secrets are stored encrypted (Fernet, ledger/sealed.py). Comma-separated
# Fernet keys, newest first (older ones still decrypt: rotation). Required in production;
# elsewhere derived from SECRET_KEY.
LEDGER_WEBHOOK_SECRET_KEYS = env_list("LEDGER_WEBHOOK_SECRET_KEYS", [])
if not LEDGER_WEBHOOK_SECRET_KEYS and not PRODUCTION:
    import base64 as _base64
    import hashlib as _hashlib
    import hmac as _hmac

    _derived = _hmac.new(SECRET_KEY.encode(), b"casino.webhook.secrets", _hashlib.sha256)
    LEDGER_WEBHOOK_SECRET_KEYS = [_base64.urlsafe_b64encode(_derived.digest()).decode()]
CELERY_BEAT_SCHEDULE["ledger-operator-events-sweep"] = {
    "task": "ledger.operator_events_sweep",
    "schedule": 30.0,
}

# --- Tables: timers and settlement safety net (tables/services/timers.py timers_sweep) ---
CELERY_BEAT_SCHEDULE["tables-timers-sweep"] = {
    "task": "tables.timers_sweep",
    "schedule": env_int("TABLES_TIMERS_SWEEP_EVERY_S", 5, minimum=1),
}
# --- Sandbox: the sandbox dealer's pass over sandbox tables (casino/sandbox/services.py) ---
SANDBOX_DRIVE_EVERY_S = env_int("SANDBOX_DRIVE_EVERY_S", 1, minimum=1)
CELERY_BEAT_SCHEDULE["sandbox-tables-drive"] = {
    "task": "sandbox.tables_drive",
    "schedule": SANDBOX_DRIVE_EVERY_S,
    # A pass the worker could not start in time is dropped: the next one does its work.
    "options": {"expires": max(SANDBOX_DRIVE_EVERY_S * 2, 2)},
}
# Server-Sent Events of a table (tables/streams.py): seconds a stream stays open before the
# client reconnects with Last-Event-ID (0 under test so the API fuzzer never waits), seconds
# between heartbeats, and the streams one credential may hold open at once (across processes,
# counted in the cache).
TABLES_STREAM_SECONDS = env_int(
    "TABLES_STREAM_SECONDS", 0 if CASINO_ENV == "test" else 300, minimum=0
)
TABLES_STREAM_HEARTBEAT_SECONDS = env_int("TABLES_STREAM_HEARTBEAT_SECONDS", 15, minimum=1)
TABLES_STREAMS_PER_CREDENTIAL = env_int("TABLES_STREAMS_PER_CREDENTIAL", 20, minimum=1)
# How long a table's stream reader lets commits gather before one read and one write per
# subscriber for all of them (README "Live streams": with 1,000 subscribers, 20 ms spent the
# web workers' CPU on writes of one or two events each, at the bets' expense).
TABLES_STREAM_COALESCE_MS = env_int("TABLES_STREAM_COALESCE_MS", 100, minimum=0)
# A void request holds its round (tables/services/voids.py); nobody deciding within this many
# seconds expires it and the round carries on.
TABLES_VOID_REQUEST_EXPIRES_S = env_int("TABLES_VOID_REQUEST_EXPIRES_S", 600)

# --- Operations: metrics, health, tracing (README "Operating it") --------------------------
# Bearer token of the Prometheus scraper for /api/v1/metrics/ and /api/v1/health/detail/
# (staff superusers may read them too; nobody else). Empty: no token accepted.
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
# prometheus_client's multiprocess mode: every web and worker process of a node writes its
# counters to files here and a scrape sums them. It must be set before prometheus_client is
# imported, hence here; under test each test process gets a fresh directory that the workers
# it starts inherit through the environment.
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    if CASINO_ENV == "test":
        _metrics_dir = tempfile.mkdtemp(prefix="casino-metrics-")
        atexit.register(shutil.rmtree, _metrics_dir, ignore_errors=True)
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = _metrics_dir
    else:
        (DATA_DIR / "metrics").mkdir(parents=True, exist_ok=True)
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = str(DATA_DIR / "metrics")
PROMETHEUS_MULTIPROC_DIR = os.environ["PROMETHEUS_MULTIPROC_DIR"]
# Heartbeats (casino/health.py): how often workers and beat write theirs, and the age past
# which the detailed health reports one as down; seal lag and settling thresholds likewise.
# Readiness connects to the broker at most this often per process (casino/health.py); a web
# worker checks its readiness this often for the probes it answers (casino/asgi.py).
HEALTH_BROKER_CHECK_EVERY_S = env_int("HEALTH_BROKER_CHECK_EVERY_S", 1, minimum=0)
HEALTH_CHECK_EVERY_S = env_int("HEALTH_CHECK_EVERY_S", 1, minimum=1)
HEALTH_HEARTBEAT_EVERY_S = env_int("HEALTH_HEARTBEAT_EVERY_S", 15, minimum=1)
HEALTH_HEARTBEAT_MAX_AGE_S = env_int("HEALTH_HEARTBEAT_MAX_AGE_S", 60, minimum=1)
HEALTH_SEAL_LAG_MAX_S = env_int("HEALTH_SEAL_LAG_MAX_S", 120)
HEALTH_SETTLING_MAX_S = env_int("HEALTH_SETTLING_MAX_S", 60)
CELERY_BEAT_SCHEDULE["casino-heartbeat"] = {
    "task": "casino.heartbeat",
    "schedule": float(HEALTH_HEARTBEAT_EVERY_S),
}
# Celery logs through the LOGGING above (JSON, with the request id) instead of its own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# OpenTelemetry tracing (casino/tracing.py), off by default; needs requirements-otel.txt.
OTEL_ENABLED = env_bool("OTEL_ENABLED", False)
OTEL_EXPORTER = env_str("OTEL_EXPORTER", "console")  # console | otlp (needs the OTLP exporter)
OTEL_SERVICE_NAME = env_str("OTEL_SERVICE_NAME", "casino")
