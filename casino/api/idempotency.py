"""Idempotency-Key handling that every money-moving POST goes through.

The key, a fingerprint of the request and the response are stored in the same database
transaction as the work:
- a replay (same key, same request) returns the stored response, marked ``Idempotent-Replayed``;
- the same key with a different request is refused with 422;
- a duplicate that arrives while the first is still in flight gets 409 at once (a transaction-
  scoped advisory lock on the key, tried without waiting);
- a failed attempt rolls back with its work and stores nothing, so the client can retry it;
- keys expire after ``IDEMPOTENCY_KEY_TTL_HOURS`` (24 h) and are then purged.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from contextlib import nullcontext
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from audit.canonical import canonical_json
from audit.services import audit_batch_write, audit_events_batched
from casino.api.models import IdempotencyRecord
from casino.api.principals import ApiKeyPrincipal
from casino.errors import Conflict, Unprocessable, ValidationFailed
from casino.rows import execute_prepared_all, model_from_row, model_insert, model_select_sql

HEADER = "Idempotency-Key"
_KEY_PATTERN = re.compile(r"^[\x21-\x7e]{1,255}$")


def _key_parameter(*, required: bool, description: str) -> OpenApiParameter:
    return OpenApiParameter(
        name=HEADER,
        type=OpenApiTypes.STR,
        location=OpenApiParameter.HEADER,
        required=required,
        description=description,
    )


IDEMPOTENCY_PARAMETER = _key_parameter(
    required=True,
    description=(
        "Unique key for this operation (1-255 visible ASCII characters). A retry with the same "
        "key and body returns the original response; kept for 24 hours."
    ),
)
# The dealer's operations (open a round, load a shoe, close betting, post a card, the banker's
# decision): a device that retries after a timeout without a key repeats the operation (a
# card posted twice is dealt to the next hand), so devices should send one; it stays optional
# so that a reader without one still deals.
IDEMPOTENCY_PARAMETER_DEALING = _key_parameter(
    required=False,
    description=(
        "Recommended: a unique key for this operation (1-255 visible ASCII characters). A "
        "retry with the same key and body returns the original response instead of doing it "
        "again (a card posted twice would go to the next hand); kept for 24 hours."
    ),
)


def _scope(request) -> str:
    """Whose keys these are: an operator's (every one of its API keys shares them, so a retry
    through its second key replays), a device's, or a staff user's."""
    user = request.user
    if isinstance(user, ApiKeyPrincipal):
        return f"operator:{user.operator_id}"
    return getattr(user, "throttle_key", None) or f"user:{user.pk}"


def _fingerprint(request) -> str:
    body = canonical_json({"method": request.method, "path": request.path, "data": request.data})
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def _lock_id(scope: str, key: str) -> int:
    digest = hashlib.sha256(f"idempotency:{scope}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


_LOCK_SQL = "SELECT pg_try_advisory_xact_lock(%s)"


def _lock_and_find(scope: str, key: str) -> tuple[bool, IdempotencyRecord | None]:
    """Try the key's advisory lock, and read its record, in one round trip: two prepared
    statements (``execute_prepared_all``). Under READ COMMITTED the read takes its snapshot
    after the lock statement has run, as if sent on its own."""
    sql = model_select_sql(IdempotencyRecord, 'scope = %s AND "key" = %s')
    with connection.cursor() as cursor:
        execute_prepared_all(cursor, [(_LOCK_SQL, [_lock_id(scope, key)]), (sql, [scope, key])])
        locked = cursor.fetchone()[0]
        cursor.nextset()
        return locked, model_from_row(IdempotencyRecord, cursor.fetchone())


class StoredResponse(Response):
    """A response whose body is fixed bytes: the first answer and every replay of it are the
    same bytes (key order, spacing, escapes), whatever the request's Accept header asks of
    the renderer. ``data`` is kept for the code that reads it (metrics, tests)."""

    def __init__(self, data, *, content: bytes, status: int, headers=None):
        super().__init__(data, status=status, headers=headers, content_type="application/json")
        self._content = content

    @property
    def rendered_content(self):
        self["Content-Type"] = "application/json"
        return self._content


def _stored(response: Response) -> StoredResponse:
    content = JSONRenderer().render(response.data)
    headers = {k: v for k, v in response.items() if k.lower() != "content-type"}
    return StoredResponse(
        response.data, content=content, status=response.status_code, headers=headers
    )


def idempotency_cutoff():
    return timezone.now() - timedelta(hours=settings.IDEMPOTENCY_KEY_TTL_HOURS)


def idempotent(
    request,
    *,
    work: Callable[[], Response],
    audit_batched: bool = False,
    key_required: bool = True,
    standing_errors: tuple[type[Exception], ...] = (),
) -> Response:
    """Run ``work`` once per Idempotency-Key, inside one transaction with its record.

    ``audit_batched``: ``work`` runs in an ``audit_events_batched`` block that also writes the
    record, one statement for both (the bet path); only for work that needs no audit event's
    id before it returns. ``key_required=False``: a request without the header just runs
    ``work`` (one with a malformed header is still refused). ``standing_errors``: errors ``work``
    raises after its writes were meant to last (a refused card suspends the round, then
    answers 409): the transaction commits them, stores no record, and the error is raised."""
    key = request.headers.get(HEADER)
    if key is None and not key_required:
        return work()
    key = key or ""
    if not _KEY_PATTERN.match(key):
        rule = "1-255 visible ASCII characters"
        raise ValidationFailed(
            f"The {HEADER} header is {'required' if key_required else 'malformed'}: {rule}.",
            errors={HEADER: [f"required, {rule}" if key_required else rule]},
        )
    scope = _scope(request)
    fingerprint = _fingerprint(request)
    with transaction.atomic():
        locked, record = _lock_and_find(scope, key)
        if not locked:
            raise Conflict(f"A request with this {HEADER} is still being processed; retry later.")
        if record is not None and record.created_at < idempotency_cutoff():
            record.delete()
            record = None
        if record is not None:
            if record.fingerprint != fingerprint:
                raise Unprocessable(
                    f"This {HEADER} was already used for a different request "
                    f"({record.method} {record.path}); use a new key."
                )
            if record.response_content:
                content = record.response_content.encode("utf-8")
                data = json.loads(content)
            else:  # written before the bytes were kept
                data = record.response_body
                content = JSONRenderer().render(data)
            return StoredResponse(
                data,
                content=content,
                status=record.response_status,
                headers={"Idempotent-Replayed": "true"},
            )
        with audit_events_batched() if audit_batched else nullcontext():
            try:
                response = work()
            except standing_errors as exc:
                standing = exc
                response = None
            if response is not None and 200 <= response.status_code < 300:
                response = _stored(response)
                record = IdempotencyRecord(
                    scope=scope,
                    key=key,
                    method=request.method,
                    path=request.path[:255],
                    fingerprint=fingerprint,
                    response_status=response.status_code,
                    response_content=response.rendered_content.decode("utf-8"),
                )
                if audit_batched:
                    audit_batch_write(record)  # with the audit events, as the block ends
                else:
                    model_insert(record)
    if response is None:
        raise standing
    return response


def idempotency_purge_expired() -> int:
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=idempotency_cutoff()).delete()
    return deleted
