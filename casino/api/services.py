"""Issuing, rotating, changing and revoking credentials. The raw secret is returned once and
never stored.

Every credential expires: a secret lives at most its kind's lifetime (settings
``API_KEY_LIFETIME_DAYS`` / ``API_DEVICE_TOKEN_LIFETIME_DAYS``) from when it was minted, so a
key is renewed by rotating it, which mints a new secret and keeps the previous one valid for an
overlap (``API_ROTATION_OVERLAP_HOURS`` at most). Also: summarizing refused credentials."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from casino.actors import Actor
from casino.api import events, selectors
from casino.api.credentials import credential_mint, networks_normalize
from casino.api.models import ApiKey, Credential, DeviceToken, Scope
from casino.api.throttling import KEPT_WINDOWS, RefusalWindow, refusals_in
from casino.errors import Conflict, ValidationFailed

# What a new credential may do unless its issuer says otherwise: what its role is for.
API_KEY_SCOPES = (Scope.READ, Scope.MONEY)
DEVICE_TOKEN_SCOPES = (Scope.READ, Scope.PIT)


def credential_lifetime(model: type[Credential]) -> timedelta:
    days = (
        settings.API_KEY_LIFETIME_DAYS
        if model is ApiKey
        else settings.API_DEVICE_TOKEN_LIFETIME_DAYS
    )
    return timedelta(days=days)


def credential_terms(
    *,
    model: type[Credential],
    minted_at: datetime,
    scopes: Iterable[str],
    allowed_networks: Iterable[str],
    expires_at: datetime | None,
    current_expiry: datetime | None = None,
) -> dict:
    """Checked scopes, allow-list and expiry of a credential whose secret was minted at
    ``minted_at`` (no expiry given: the longest allowed; ``current_expiry``, the one it has,
    stands as it is); ValidationFailed names each bad field."""
    errors: dict[str, list[str]] = {}
    scopes = set(scopes)
    if not scopes or not scopes <= set(Scope.values):
        errors["scopes"] = [f"Name one or more of {', '.join(Scope.values)}."]
    try:
        networks = networks_normalize(allowed_networks)
    except ValueError as exc:
        errors["allowed_networks"] = [str(exc)]
    latest = minted_at + credential_lifetime(model)
    if expires_at is None:
        expires_at = latest
    elif expires_at == current_expiry:
        pass
    elif expires_at <= timezone.now():
        errors["expires_at"] = ["Must be in the future."]
    elif expires_at > latest:
        errors["expires_at"] = [
            f"At most {credential_lifetime(model).days} days after the secret was issued "
            f"({latest.isoformat(timespec='seconds')})."
        ]
    if errors:
        raise ValidationFailed(
            "; ".join(f"{field}: {m}" for field, ms in errors.items() for m in ms), errors=errors
        )
    return {
        "scopes": [s for s in Scope.values if s in scopes],
        "allowed_networks": networks,
        "expires_at": expires_at,
    }


@transaction.atomic
def api_key_issue(
    *,
    actor: Actor,
    operator,
    label: str,
    scopes: Iterable[str] | None = None,
    allowed_networks: Iterable[str] = (),
    expires_at: datetime | None = None,
    created_by=None,
) -> tuple[ApiKey, str]:
    terms = credential_terms(
        model=ApiKey,
        minted_at=timezone.now(),
        scopes=API_KEY_SCOPES if scopes is None else scopes,
        allowed_networks=allowed_networks,
        expires_at=expires_at,
    )
    raw, prefix, secret_hash = credential_mint(kind="ck")
    api_key = ApiKey.objects.create(
        operator=operator,
        label=label,
        prefix=prefix,
        secret_hash=secret_hash,
        created_by=created_by,
        **terms,
    )
    events.api_key_issued(actor=actor, api_key=api_key)
    return api_key, raw


@transaction.atomic
def api_key_rotate(
    *, actor: Actor, api_key: ApiKey, overlap: timedelta | None = None, reason: str = ""
) -> tuple[ApiKey, str]:
    api_key = ApiKey.objects.select_for_update().get(pk=api_key.pk)
    raw = _rotate(api_key, kind="ck", overlap=overlap)
    events.api_key_rotated(actor=actor, api_key=api_key, reason=reason)
    return api_key, raw


@transaction.atomic
def api_key_change(
    *,
    actor: Actor,
    api_key: ApiKey,
    scopes: Iterable[str],
    allowed_networks: Iterable[str],
    expires_at: datetime,
) -> ApiKey:
    api_key = ApiKey.objects.select_for_update().get(pk=api_key.pk)
    changes = _change(
        api_key, scopes=scopes, allowed_networks=allowed_networks, expires_at=expires_at
    )
    if changes:
        events.api_key_changed(actor=actor, api_key=api_key, changes=changes)
    return api_key


@transaction.atomic
def api_key_revoke(*, actor: Actor, api_key: ApiKey, reason: str) -> ApiKey:
    api_key = ApiKey.objects.select_for_update().get(pk=api_key.pk)
    if api_key.revoked_at is not None:
        raise Conflict(f"API key {api_key.prefix} was already revoked at {api_key.revoked_at}.")
    api_key.revoked_at = timezone.now()
    api_key.save(update_fields=["revoked_at"])
    events.api_key_revoked(actor=actor, api_key=api_key, reason=reason)
    return api_key


@transaction.atomic
def device_token_issue(
    *,
    actor: Actor,
    table,
    device_id: str,
    label: str = "",
    scopes: Iterable[str] | None = None,
    allowed_networks: Iterable[str] = (),
    expires_at: datetime | None = None,
    created_by=None,
) -> tuple[DeviceToken, str]:
    terms = credential_terms(
        model=DeviceToken,
        minted_at=timezone.now(),
        scopes=DEVICE_TOKEN_SCOPES if scopes is None else scopes,
        allowed_networks=allowed_networks,
        expires_at=expires_at,
    )
    raw, prefix, secret_hash = credential_mint(kind="dt")
    token = DeviceToken.objects.create(
        table=table,
        device_id=device_id,
        label=label or f"device {device_id}",
        prefix=prefix,
        secret_hash=secret_hash,
        created_by=created_by,
        **terms,
    )
    events.device_token_issued(actor=actor, token=token)
    return token, raw


@transaction.atomic
def device_token_rotate(
    *, actor: Actor, token: DeviceToken, overlap: timedelta | None = None, reason: str = ""
) -> tuple[DeviceToken, str]:
    token = DeviceToken.objects.select_for_update().get(pk=token.pk)
    raw = _rotate(token, kind="dt", overlap=overlap)
    events.device_token_rotated(actor=actor, token=token, reason=reason)
    return token, raw


@transaction.atomic
def device_token_change(
    *,
    actor: Actor,
    token: DeviceToken,
    scopes: Iterable[str],
    allowed_networks: Iterable[str],
    expires_at: datetime,
) -> DeviceToken:
    token = DeviceToken.objects.select_for_update().get(pk=token.pk)
    changes = _change(
        token, scopes=scopes, allowed_networks=allowed_networks, expires_at=expires_at
    )
    if changes:
        events.device_token_changed(actor=actor, token=token, changes=changes)
    return token


@transaction.atomic
def device_token_revoke(*, actor: Actor, token: DeviceToken, reason: str) -> DeviceToken:
    token = DeviceToken.objects.select_for_update().get(pk=token.pk)
    if token.revoked_at is not None:
        raise Conflict(f"Device token {token.prefix} was already revoked at {token.revoked_at}.")
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    events.device_token_revoked(actor=actor, token=token, reason=reason)
    return token


def _rotate(credential: Credential, *, kind: str, overlap: timedelta | None) -> str:
    """A new secret under the same prefix (a fresh lifetime); the previous one stays valid for
    the overlap, never beyond its own expiry. A second rotation drops the first's secret."""
    if credential.revoked_at is not None:
        raise Conflict(f"{credential.prefix} is revoked; issue a new credential instead.")
    longest = timedelta(hours=settings.API_ROTATION_OVERLAP_HOURS)
    overlap = longest if overlap is None else overlap
    if not timedelta(0) <= overlap <= longest:
        raise ValidationFailed(
            f"The overlap is between 0 and {settings.API_ROTATION_OVERLAP_HOURS} hours.",
            errors={"overlap_hours": ["out of range"]},
        )
    now = timezone.now()
    raw, _, secret_hash = credential_mint(kind=kind, prefix=credential.prefix)
    credential.previous_secret_hash = credential.secret_hash
    credential.previous_valid_until = min(now + overlap, credential.expires_at)
    credential.secret_hash = secret_hash
    credential.rotated_at = now
    credential.expires_at = now + credential_lifetime(type(credential))
    credential.save(
        update_fields=[
            "previous_secret_hash",
            "previous_valid_until",
            "secret_hash",
            "rotated_at",
            "expires_at",
        ]
    )
    return raw


def _change(credential: Credential, **wanted) -> dict[str, list]:
    """Apply new scopes, allow-list and expiry; the changed fields as {field: [before, after]}."""
    if credential.revoked_at is not None:
        raise Conflict(f"{credential.prefix} is revoked and can no longer be changed.")
    terms = credential_terms(
        model=type(credential),
        minted_at=credential.rotated_at or credential.created_at,
        current_expiry=credential.expires_at,
        **wanted,
    )
    changes = {}
    for field, value in terms.items():
        before = getattr(credential, field)
        if before != value:
            changes[field] = [_plain(before), _plain(value)]
            setattr(credential, field, value)
    if changes:
        credential.save(update_fields=list(changes))
    return changes


def _plain(value):
    return value.isoformat() if isinstance(value, datetime) else value


def credential_refusals_summarize(*, now: datetime | None = None) -> int:
    """One ``credential_refusals`` event per address and closed window that saw more than its
    first, audited refusal (run by the worker every minute). Each window is summarized once;
    a window whose counters expired (the worker was down for KEPT_WINDOWS windows) keeps only
    its first event. Returns the number of summaries written."""
    now = now or timezone.now()
    current = RefusalWindow.at("", now)
    since = current.start - timedelta(seconds=current.seconds * KEPT_WINDOWS)
    written = 0
    for first in selectors.credential_refusals_first(since=since, until=current.start):
        window = RefusalWindow.from_payload(first.payload["window"])
        counts = refusals_in(window)
        if counts is None or sum(counts) < 2:
            continue
        refused, throttled = counts
        if not cache.add(window.key("summarized"), 1, window.seconds * KEPT_WINDOWS * 2):
            continue
        events.credential_refusals(window=window, refused=refused, throttled=throttled)
        written += 1
    return written
