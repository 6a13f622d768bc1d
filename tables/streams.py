"""The live stream of a table: Server-Sent Events of its round events, served by the ASGI server
without a worker or a database connection per subscriber (architecture §4, "Viewers hold no
worker").

- Order and resumption: an event's id is its stream key ``<txid>-<id>`` (``RoundEvent.txid``);
  events go out in key order, and only once every transaction with a smaller txid has finished
  (``selectors.round_events_after``), so an event that commits late is never skipped.
- Opening a stream is a DRF view run in a thread (the same authentication, role and scope rules
  as every endpoint); it answers with a snapshot of the table's current round and the key it is
  current to, takes a slot of the credential's stream cap, and returns its database connection
  before the first byte is streamed.
- Waking on commit: a transaction that writes round events NOTIFYs ``<table> <txid> <id>``
  right after its commit (``services._common.stream_wake``). One ``Hub`` per process LISTENs
  on its own connection and, on a notification, reads the table's new events once (a second
  connection) and hands the same encoded frames to every subscriber's queue.
- A subscriber registers with the hub first, then catches up from its key (``Last-Event-ID`` or
  the snapshot's) with a query of its own, then follows the hub's batches, dropping what it has
  already sent: nothing is missed or repeated across the boundary.
- Bursts are coalesced: a hub read is one batch, written to each socket in one chunk; every
  event keeps its own id.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import uuid

import psycopg
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.http import StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from psycopg.conninfo import make_conninfo
from rest_framework import serializers
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.utils.encoders import JSONEncoder
from rest_framework.views import APIView

from casino.admission import admitted
from casino.api.permissions import request_scope
from tables import round_view, selectors
from tables.errors import TooManyStreams
from tables.serializers import RoundViewSerializer

logger = logging.getLogger(__name__)

CHANNEL = "tables_round_events"
STREAM_ID = r"^\d{1,19}-\d{1,19}$"
CATCH_UP_PAGE = 500
QUEUE_MAX = 1000  # batches a subscriber may lag behind before it is cut off (it resumes)
SLOT_MARGIN_SECONDS = 30
RETRY_MIN, RETRY_MAX = 0.01, 0.2  # seconds between reads of a table held back (see _fetch)

Key = tuple[int, int]

# The hub's reads (on its own connection, in autocommit: only finished transactions' rows).
_AFTER_SQL = f"""
SELECT txid, id, round_id, seq, type, public FROM tables_roundevent
WHERE table_id = %s AND (txid, id) > (%s, %s) AND {selectors.STREAM_FINISHED}
ORDER BY txid, id LIMIT %s
"""


def frame(*, txid: int, pk: int, round_id: int, seq: int | None, type: str, public) -> bytes:
    body = {"round_id": round_id, "seq": seq, **public}
    return f"id: {txid}-{pk}\nevent: {type}\ndata: {json.dumps(body)}\n\n".encode()


def _row_frame(e) -> bytes:
    return frame(txid=e.txid, pk=e.pk, round_id=e.round_id, seq=e.seq, type=e.type, public=e.public)


def _key(value) -> Key:
    return (int(value[0]), int(value[1])) if value else (0, 0)


def _release_connections() -> None:
    """Hand this thread's database connections back (to the pool under the ASGI server) so an
    open stream holds none. Inside a transaction (the test client's) they stay."""
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close()


# --- the per-process hub -------------------------------------------------------------------


class _Feed:
    """One table's position in this process and the queues of its subscribers."""

    def __init__(self):
        self.key: Key | None = None  # None until the hub has read the table's head
        self.wanted: Key = (0, 0)  # the newest committed key known
        self.ready = asyncio.Event()
        self.queues: set[asyncio.Queue] = set()
        self.retry_delay = RETRY_MIN


class Hub:
    """LISTENs once per process and fans the tables' new events out to their subscribers."""

    def __init__(self, conninfo: str):
        self.conninfo = conninfo
        self.loop = asyncio.get_running_loop()
        self.feeds: dict[int, _Feed] = {}
        self._listening = asyncio.Event()
        self._pending: set[int] = set()
        self._wake = asyncio.Event()
        self._reader: psycopg.AsyncConnection | None = None
        self._tasks = [
            self.loop.create_task(self._listen(), name="tables-stream-listen"),
            self.loop.create_task(self._dispatch(), name="tables-stream-dispatch"),
        ]

    async def subscribe(self, table_id: int) -> asyncio.Queue:
        """A queue of batches ``[(key, frame), ...]`` of the table's events after the feed's
        key at the time of the call (``None``: the subscriber fell too far behind)."""
        queue: asyncio.Queue = asyncio.Queue()
        feed = self.feeds.get(table_id)
        if feed is None:
            feed = self.feeds[table_id] = _Feed()
            feed.queues.add(queue)
            try:
                # LISTEN first: every commit after the head is read below is notified.
                await asyncio.wait_for(self._listening.wait(), 10)
                [(horizon,)] = await self._read(selectors.STREAM_HORIZON_SQL, None)
                [(head, newest)] = await self._read(
                    selectors.STREAM_HEAD_SQL, (table_id, horizon, table_id)
                )
            except BaseException:
                self.unsubscribe(table_id, queue)
                raise
            feed.key = _key(head)
            feed.wanted = max(feed.wanted, _key(newest), feed.key)
            feed.ready.set()
            self._request(table_id)
        else:
            feed.queues.add(queue)
            try:
                await asyncio.wait_for(feed.ready.wait(), 15)
            except BaseException:
                self.unsubscribe(table_id, queue)
                raise
        return queue

    def unsubscribe(self, table_id: int, queue: asyncio.Queue) -> None:
        feed = self.feeds.get(table_id)
        if feed is not None:
            feed.queues.discard(queue)
            if not feed.queues:
                del self.feeds[table_id]

    def _request(self, table_id: int) -> None:
        self._pending.add(table_id)
        self._wake.set()

    async def _read(self, sql: str, params) -> list[tuple]:
        """One query on the hub's reading connection (reconnected when lost)."""
        if self._reader is None or self._reader.closed:
            self._reader = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        try:
            cursor = await self._reader.execute(sql, params)
            return await cursor.fetchall()
        except psycopg.OperationalError:
            await self._reader.close()
            raise

    async def _listen(self) -> None:
        delay = 0.2
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    delay = 0.2
                    for table_id in self.feeds:  # anything committed while not listening
                        self._request(table_id)
                    async for note in conn.notifies():
                        table_id, txid, pk = (int(x) for x in note.payload.split())
                        feed = self.feeds.get(table_id)
                        if feed is not None:
                            feed.wanted = max(feed.wanted, (txid, pk))
                            self._request(table_id)
            except (psycopg.Error, OSError) as exc:
                logger.warning("table stream listener: %s; reconnecting", exc, exc_info=True)
            self._listening.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    async def _dispatch(self) -> None:
        while True:
            await self._wake.wait()
            # Let a burst of commits gather: one read and one write per subscriber for all.
            await asyncio.sleep(settings.TABLES_STREAM_COALESCE_MS / 1000)
            self._wake.clear()
            while self._pending:
                table_id = self._pending.pop()
                feed = self.feeds.get(table_id)
                if feed is None or feed.key is None:
                    continue
                try:
                    await self._fetch(table_id, feed)
                except (psycopg.Error, OSError) as exc:
                    logger.warning("table stream read: %s; retrying", exc, exc_info=True)
                    self.loop.call_later(1.0, self._request, table_id)

    async def _fetch(self, table_id: int, feed: _Feed) -> None:
        """Read the table's events after the feed's key, once for all its subscribers."""
        before = feed.key
        while True:
            [(horizon,)] = await self._read(selectors.STREAM_HORIZON_SQL, None)
            rows = await self._read(_AFTER_SQL, (table_id, *feed.key, horizon, CATCH_UP_PAGE))
            if rows:
                batch = [
                    ((txid, pk), frame(txid=txid, pk=pk, round_id=r, seq=s, type=t, public=p))
                    for txid, pk, r, s, t, p in rows
                ]
                feed.key = batch[-1][0]
                feed.wanted = max(feed.wanted, feed.key)
                for queue in list(feed.queues):
                    if queue.qsize() >= QUEUE_MAX:  # too slow: cut off, it resumes by id
                        feed.queues.discard(queue)
                        queue.put_nowait(None)
                    else:
                        queue.put_nowait(batch)
            if len(rows) < CATCH_UP_PAGE:
                break
        if feed.key < feed.wanted:
            # Committed but held back behind an older transaction that has not finished (and
            # may write no event, or roll back, so may never notify): look again shortly.
            stuck = feed.key == before
            feed.retry_delay = min(feed.retry_delay * 2, RETRY_MAX) if stuck else RETRY_MIN
            self.loop.call_later(feed.retry_delay, self._request, table_id)


_hub: Hub | None = None


def _conninfo() -> str:
    """What Django connects with, for the hub's own connections. A URL's query string lands in
    OPTIONS (the embedded default's ``?host=`` socket directory, ``sslmode``, ...): passed on
    like HOST and PORT, or the hub would connect elsewhere, or without the TLS asked for."""
    db = settings.DATABASES["default"]
    libpq = {option.keyword.decode() for option in psycopg.pq.Conninfo.get_defaults()}
    params = {key: value for key, value in db.get("OPTIONS", {}).items() if key in libpq}
    for key, setting in (
        ("dbname", "NAME"), ("user", "USER"), ("password", "PASSWORD"), ("host", "HOST"),
        ("port", "PORT"),
    ):  # fmt: skip
        if db.get(setting):
            params[key] = db[setting]
    params["application_name"] = "casino-table-streams"
    return make_conninfo(**{key: value for key, value in params.items() if value is not None})


def hub() -> Hub:
    """This process's hub, started by the first subscriber."""
    global _hub
    loop = asyncio.get_running_loop()
    if _hub is None or _hub.loop is not loop:
        _hub = Hub(_conninfo())
    return _hub


# --- one subscriber ------------------------------------------------------------------------


def _slot_acquire(ident: str, seconds: int) -> str:
    """One of the credential's stream slots, held in the shared cache until the stream ends
    (or, if its process dies, until it would have ended)."""
    keys = [f"tables-stream:{ident}:{i}" for i in range(settings.TABLES_STREAMS_PER_CREDENTIAL)]
    taken = cache.get_many(keys)
    for key in keys:
        if key not in taken and cache.add(key, uuid.uuid4().hex, seconds + SLOT_MARGIN_SECONDS):
            return key
    raise TooManyStreams(
        f"This credential already has {len(keys)} table streams open; close one first."
    )


def _slot_release(slot: str) -> None:
    try:
        cache.delete(slot)
    finally:
        _release_connections()


def _catch_up(table_id: int, after: Key) -> list[tuple[Key, bytes]]:
    try:
        rows = selectors.round_events_after(table_id=table_id, after=after, limit=CATCH_UP_PAGE)
        return [((e.txid, e.pk), _row_frame(e)) for e in rows]
    finally:
        _release_connections()


async def _events(*, table_id: int, start: Key, snapshot: bytes | None, seconds: int, slot: str):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    queue = None
    try:
        yield b"retry: 2000\n\n" + (snapshot or b"")
        if seconds > 0:
            queue = await hub().subscribe(table_id)
        last = start
        while True:
            batch = await sync_to_async(_catch_up)(table_id, last)
            if batch:
                last = batch[-1][0]
                yield b"".join(f for _, f in batch)
            if len(batch) < CATCH_UP_PAGE:
                break
        while queue is not None:
            remaining = deadline - loop.time()
            if remaining <= 0:
                break
            quiet = min(remaining, settings.TABLES_STREAM_HEARTBEAT_SECONDS)
            try:
                async with asyncio.timeout(quiet):
                    batch = await queue.get()
            except TimeoutError:
                if loop.time() < deadline:
                    yield b": heartbeat\n\n"
                continue
            if batch is None:
                break
            while not queue.empty():  # coalesce what has queued up meanwhile
                more = queue.get_nowait()
                if more is None:
                    queue = None
                    break
                batch = batch + more
            fresh = [f for key, f in batch if key > last]
            if fresh:
                last = batch[-1][0]
                yield b"".join(fresh)
    finally:
        if queue is not None:
            hub().unsubscribe(table_id, queue)
        await sync_to_async(_slot_release)(slot)


class EventStreamRenderer(BaseRenderer):
    media_type = "text/event-stream"
    format = "event-stream"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return json.dumps(data).encode()  # only problem bodies reach a renderer


class TableEventsView(APIView):
    """Server-Sent Events: the table's round events as they happen (bets, cards shown, turns,
    phases). A new stream starts with a ``snapshot`` event: the table's current round as
    ``GET /rounds/{id}/`` shows it to the caller (``null`` before the first round), whose id is
    the key the snapshot is current to; the events after it follow (an engine event whose
    ``seq`` the snapshot already counts may follow it: skip it by ``seq``). With
    ``Last-Event-ID`` (or ``last_event_id``) the stream resumes after that event instead,
    exactly (a malformed id, or one past the table's newest event, starts with a snapshot).
    Comment lines are sent as heartbeats when the table is quiet; the stream ends after
    ``wait`` seconds and the client reconnects with the last id. A credential may hold
    ``TABLES_STREAMS_PER_CREDENTIAL`` streams at once (429 ``too-many-streams``)."""

    required_permissions = {"GET": "tables.view_table"}
    renderer_classes = [JSONRenderer, EventStreamRenderer]

    class QuerySerializer(serializers.Serializer):
        last_event_id = serializers.RegexField(
            STREAM_ID, required=False, help_text="the id of the last event received"
        )
        wait = serializers.IntegerField(min_value=0, max_value=3600, required=False)

    @classmethod
    def as_view(cls, **initkwargs):
        """An async view: the DRF view opens the stream in a thread and returns its connection;
        the events are then sent from the event loop."""
        view = super().as_view(**initkwargs)

        def open_stream(request, *args, **kwargs):
            try:
                return view(request, *args, **kwargs)
            finally:
                _release_connections()

        async def stream_view(request, *args, **kwargs):
            async with admitted(request.path_info):  # the opening's sync work takes a slot
                return await sync_to_async(open_stream)(request, *args, **kwargs)

        stream_view.cls = view.cls
        stream_view.initkwargs = view.initkwargs
        stream_view.csrf_exempt = True
        return stream_view

    @extend_schema(
        parameters=[QuerySerializer],
        responses={(200, "text/event-stream"): OpenApiTypes.STR},
    )
    def get(self, request, pk: int):
        query = self.QuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        table = selectors.table_get(
            pk=pk, table_id=request_scope(request).table_id, sandbox=request_scope(request).sandbox
        )
        seconds = query.validated_data.get("wait", settings.TABLES_STREAM_SECONDS)
        last = query.validated_data.get("last_event_id") or request.headers.get("Last-Event-ID", "")
        user = request.user
        ident = getattr(user, "throttle_key", None) or f"user:{user.pk}"
        slot = _slot_acquire(ident, seconds)
        try:
            resume = _key(last.split("-")) if re.match(STREAM_ID, last) else None
            # A key past the table's newest event names nothing given out (a forged id, or
            # another table's): resumed from, nothing would ever come; start from now instead.
            if resume is not None and resume <= (
                selectors.round_events_head(table_id=table.pk) or (0, 0)
            ):
                start, snapshot = resume, None
            else:
                start, snapshot = self._snapshot(table, request_scope(request).operator_id)
        except BaseException:
            cache.delete(slot)
            raise
        response = StreamingHttpResponse(
            _events(table_id=table.pk, start=start, snapshot=snapshot, seconds=seconds, slot=slot),
            content_type="text/event-stream",
        )
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"
        return response

    def _snapshot(self, table, operator_id: int | None) -> tuple[Key, bytes]:
        # The key first: the round read after it reflects at least every event up to it.
        start = selectors.round_events_head(table_id=table.pk) or (0, 0)
        rnd = selectors.round_current(table=table)
        # As GET rounds/{id}/ shows it to the caller: other operators' players anonymous.
        state = None if rnd is None else round_view.round_view(rnd, operator_id=operator_id)
        data = None if state is None else RoundViewSerializer(state).data
        body = json.dumps(data, cls=JSONEncoder)
        return start, f"id: {start[0]}-{start[1]}\nevent: snapshot\ndata: {body}\n\n".encode()
