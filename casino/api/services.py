"""Issuing and revoking credentials (the raw secret is returned once and never stored);
summarizing refused ones."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from casino.actors import Actor
from casino.api import events, selectors
from casino.api.credentials import credential_mint
from casino.api.models import ApiKey, DeviceToken
from casino.api.throttling import KEPT_WINDOWS, RefusalWindow, refusals_in
from casino.errors import Conflict


@transaction.atomic
def api_key_issue(*, actor: Actor, operator, label: str, created_by=None) -> tuple[ApiKey, str]:
    raw, prefix, secret_hash = credential_mint(kind="ck")
    api_key = ApiKey.objects.create(
        operator=operator,
        label=label,
        prefix=prefix,
        secret_hash=secret_hash,
        created_by=created_by,
    )
    events.api_key_issued(actor=actor, api_key=api_key)
    return api_key, raw


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
    *, actor: Actor, table, device_id: str, label: str = "", created_by=None
) -> tuple[DeviceToken, str]:
    raw, prefix, secret_hash = credential_mint(kind="dt")
    token = DeviceToken.objects.create(
        table=table,
        device_id=device_id,
        label=label or f"device {device_id}",
        prefix=prefix,
        secret_hash=secret_hash,
        created_by=created_by,
    )
    events.device_token_issued(actor=actor, token=token)
    return token, raw


@transaction.atomic
def device_token_revoke(*, actor: Actor, token: DeviceToken, reason: str) -> DeviceToken:
    token = DeviceToken.objects.select_for_update().get(pk=token.pk)
    if token.revoked_at is not None:
        raise Conflict(f"Device token {token.prefix} was already revoked at {token.revoked_at}.")
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    events.device_token_revoked(actor=actor, token=token, reason=reason)
    return token


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
