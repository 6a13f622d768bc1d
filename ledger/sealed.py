"""Webhook signing secrets encrypted at rest (Fernet: AES-128-CBC + HMAC-SHA256).

The keys (``settings.LEDGER_WEBHOOK_SECRET_KEYS``, newest first) live outside the database, so
a copy of the database (a backup, a replica, a read-only role) does not give away the secrets
that let anyone forge an operator's webhooks. ``MultiFernet`` encrypts with the first key and
decrypts with any: to rotate, put a new key first, run ``manage.py webhook_secrets_reseal``,
then drop the old key.
"""

from __future__ import annotations

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.core.checks import Error, register
from django.core.exceptions import ImproperlyConfigured


def _fernet(keys: list[str] | None = None) -> MultiFernet:
    keys = settings.LEDGER_WEBHOOK_SECRET_KEYS if keys is None else keys
    if not keys:
        raise ImproperlyConfigured(
            "LEDGER_WEBHOOK_SECRET_KEYS is not set: production needs a key to encrypt webhook "
            "secrets (generate one with `python -c 'from cryptography.fernet import Fernet; "
            "print(Fernet.generate_key().decode())'`)."
        )
    return MultiFernet([Fernet(key) for key in keys])


def seal(secret: str) -> str:
    return _fernet().encrypt(secret.encode()).decode()


def unseal(token: str) -> str:
    """The secret; "" when none was ever set."""
    if not token:
        return ""
    return _fernet().decrypt(token.encode()).decode()


def reseal(value: str, *, keys: list[str] | None = None) -> str:
    """``value`` encrypted under the newest key: a token under any key is re-encrypted, a
    plaintext secret (stored before encryption at rest) is encrypted."""
    fernet = _fernet(keys)
    try:
        return fernet.rotate(value.encode()).decode()
    except InvalidToken:
        return fernet.encrypt(value.encode()).decode()


@register("ledger")
def secret_keys_configured(app_configs, **kwargs):
    try:
        _fernet()
    except (ImproperlyConfigured, ValueError) as exc:
        return [
            Error(
                f"LEDGER_WEBHOOK_SECRET_KEYS is not usable: {exc}",
                hint="Set one or more Fernet keys (newest first) from a secret store.",
                id="ledger.E001",
            )
        ]
    return []
