#!/usr/bin/env python3
"""Standalone verifier of an audit export bundle (forensics/EXPORT_FORMAT.md).

    python verify_bundle.py BUNDLE_DIR [--trust-key KEY ...] [--engine SOURCE_TREE] [--quiet]

Needs only Python 3.11+, ``cryptography`` and ``rfc8785`` (pip install cryptography rfc8785):
no Django, no database, nothing of ours but this file. It checks, and names the first file and
line that is wrong:

- the manifest's Ed25519 signature (RFC 8785 form of the manifest without ``signature``) under
  a key the manifest lists, and, with ``--trust-key`` (a base64 raw public key or a PEM file;
  repeat it for rotated keys), that the manifest and every seal are signed by a pinned key;
- every file's SHA-256, size and line count against the manifest;
- the seals: consecutive, each linked to the previous one's chain hash, its event lists
  matching its batch hash, its header matching its chain hash, its signature valid;
- the events: exactly the sealed ones, in sealed order, each row's SHA-256 equal to the
  digest its seal lists, the readable fields equal to the sealed row;
- the exported chain head's signature, and that it is the last seal when it is in the bundle;
- the shoes: every revealed shuffle hashes (order + salt) to the commitment recorded before its
  first card;
- the rounds: table, number, pinned rule-set and payout-schedule ids, limits, currency, card
  source and shoe equal to those the round's sealed ``tables.round_opened`` records, and the
  pinned documents to those sealed when their versions were created
  (``tables.rule_version_created``); every engine event (seq, type, payload, actor) equal to the
  sealed audit event ``tables.round_event.<type>`` that recorded it, and every such sealed event
  of the round present; a round opened before the bundle's first seal is checked for what the
  bundle seals; each finished round's ledger transaction id and settlement equal to those its
  sealed ``tables.round_settled`` or ``tables.round_voided`` event records (the settlement by its
  digest: the SHA-256 of its lines); and a line for every round of the casino's tables that the
  sealed events show finished within the day;
- the ledger totals: handle, payouts and bonuses re-derived from the sealed money events
  (``ledger.stake_debited``, ``ledger.stake_refunded``, ``ledger.round_settled``) of the
  transactions each line lists, win and hold % from those; and each line's SHA-256 against the
  signed manifest;
- with ``--engine PATH`` (the casino's source tree, for its pure-Python game engine): every
  settled round's payouts, re-derived by folding its engine events under its pinned rules.

Exit status 0 when everything holds, 1 with ``FAILED: <file> line <n>: <why>`` otherwise.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import decimal
import hashlib
import json
import re
import struct
import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

try:
    import rfc8785
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
except ImportError as missing:  # pragma: no cover - a regulator's machine without them
    sys.exit(f"verify_bundle needs `pip install cryptography rfc8785` ({missing})")

BUNDLE_FORMAT = "casino-audit-bundle/1"
DIGEST_COLUMNS = (
    "id", "txid", "occurred_at", "name", "actor_kind", "actor_id", "actor_label", "request_id",
    "operator_id", "casino_id", "table_id", "round_id", "bet_id", "wallet_id", "payload",
    "content_hash",
)  # fmt: skip
INT_COLUMNS = frozenset(
    ("id", "txid", "operator_id", "casino_id", "table_id", "round_id", "bet_id", "wallet_id")
)
FILES = ("seals.jsonl", "events.jsonl", "shoes.jsonl", "rounds.jsonl", "ledger_totals.jsonl")
DIGEST_SIZE = 32
LEGACY_HMAC, ED25519_JCS = 1, 2
_COPY_ESCAPE = re.compile(r"\\(.)")
_COPY_CHARS = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
ROUND_EVENT = "tables.round_event."  # + the engine event's type
ROUND_OPENED = "tables.round_opened"
ROUND_SETTLED = "tables.round_settled"
ROUND_VOIDED = "tables.round_voided"
FINISHED = {ROUND_SETTLED: "settled", ROUND_VOIDED: "voided"}  # the phase each event records
VERSION_CREATED = "tables.rule_version_created"
# What tables.round_opened records of a round that its line repeats (the table: event column).
OPENED_FIELDS = (
    "number", "rule_set_id", "payout_schedule_id", "limits", "currency", "card_source", "shoe_id"
)  # fmt: skip
DOCUMENTS = ("rule_set", "payout_schedule")  # the pinned version documents a line carries
ABSENT = "<absent>"
MONEY_EVENTS = frozenset(("ledger.stake_debited", "ledger.stake_refunded", "ledger.round_settled"))


class Bad(Exception):
    """The first thing that is wrong, with the file and line (0: the file as a whole)."""

    def __init__(self, file: str, line: int, why: str):
        super().__init__(f"{file} line {line}: {why}" if line else f"{file}: {why}")


@dataclass
class Result:
    events: int = 0
    seals: int = 0
    rounds: int = 0
    rounds_rederived: int = 0
    rounds_sealed: int = 0  # rounds whose engine events were all matched to sealed events
    settlements_sealed: int = 0  # rounds whose settlement was matched to its sealed event
    settlements_unsealed: list[int] = field(default_factory=list)  # sealed in a later bundle
    openings_sealed: int = 0  # rounds whose line was matched to their sealed round_opened
    openings_unsealed: list[int] = field(default_factory=list)  # opened before the first seal
    documents_sealed: int = 0  # rounds whose two pinned documents were matched to sealed ones
    versions_unsealed: dict[str, None] = field(default_factory=dict)  # ordered set; earlier bundle
    unlisted_unsure: list[int] = field(default_factory=list)  # finished at the day's edge
    engine_events_unsealed: int = 0  # of rounds opened before the bundle's first seal
    ledger_lines: int = 0
    ledger_rederived: int = 0
    shuffles_verified: int = 0
    legacy_seals: int = 0
    notes: list[str] = field(default_factory=list)


# --- the sealed row (PostgreSQL COPY text format) -------------------------------------------


def _copy_unescape(text: str) -> str | None:
    if text == "\\N":
        return None
    if "\\" not in text:
        return text
    return _COPY_ESCAPE.sub(lambda m: _COPY_CHARS.get(m.group(1), m.group(1)), text)


_DECODE = tuple(
    int if column in INT_COLUMNS else json.loads if column == "payload" else None
    for column in DIGEST_COLUMNS
)


def row_fields(row: str) -> dict:
    """The columns of a sealed row (one line of ``COPY ... TO STDOUT``, text format)."""
    values = row.split("\t")
    if len(values) != len(DIGEST_COLUMNS):
        raise ValueError(f"the row has {len(values)} columns, not {len(DIGEST_COLUMNS)}")
    unescape = _copy_unescape
    return {
        column: value if decode is None or value is None else decode(value)
        for column, decode, value in zip(
            DIGEST_COLUMNS, _DECODE, [unescape(raw) for raw in values], strict=True
        )
    }


# --- keys and signatures --------------------------------------------------------------------


def key_id_of(key: Ed25519PublicKey) -> str:
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def load_public_key(text: str) -> Ed25519PublicKey:
    """A raw 32-byte public key in base64, or a PEM (SubjectPublicKeyInfo), or a file of one."""
    path = Path(text)
    if len(text) < 200 and path.is_file():
        text = path.read_text().strip()
    if text.startswith("-----BEGIN"):
        key = serialization.load_pem_public_key(text.encode("ascii"))
        if not isinstance(key, Ed25519PublicKey):
            raise ValueError("not an Ed25519 public key")
        return key
    return Ed25519PublicKey.from_public_bytes(base64.b64decode(text, validate=True))


def _verify(key: Ed25519PublicKey, signature: str, message: bytes) -> bool:
    try:
        key.verify(bytes.fromhex(signature), message)
    except (InvalidSignature, ValueError, TypeError):
        return False
    return True


class Keys:
    def __init__(self, listed: list, trusted: list[Ed25519PublicKey]):
        self.known: dict[str, Ed25519PublicKey] = {}
        for entry in listed:
            key = load_public_key(entry["public_key"])
            if key_id_of(key) != entry["key_id"]:
                raise ValueError(f"key {entry['key_id']} is not the id of the key listed with it")
            self.known[entry["key_id"]] = key
        self.trusted = {key_id_of(key) for key in trusted}

    def check(self, key_id: str, signature: str, message: bytes) -> str | None:
        """None when valid, else why not."""
        key = self.known.get(key_id)
        if key is None:
            return f"it is signed by key {key_id!r}, which is not one of the bundle's keys"
        if self.trusted and key_id not in self.trusted:
            return f"it is signed by key {key_id}, which is not a key you pinned (--trust-key)"
        if not _verify(key, signature, message):
            return f"its signature does not verify under key {key_id}"
        return None


# --- the checks -----------------------------------------------------------------------------


class _File:
    """A JSON Lines file of the bundle, read line by line; ``finish`` then checks its SHA-256,
    size and line count against the manifest (after the line checks, which name a line)."""

    def __init__(self, bundle: Path, name: str, manifest: dict):
        self.path, self.name, self.expected = bundle / name, name, manifest["files"][name]
        self.sha256, self.size, self.count = hashlib.sha256(), 0, 0

    def lines(self):
        with self.path.open("rb") as handle:
            for number, raw in enumerate(handle, 1):
                self.sha256.update(raw)
                self.size += len(raw)
                self.count = number
                if not raw.endswith(b"\n"):
                    raise Bad(self.name, number, "the line does not end with a newline")
                try:
                    yield number, raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise Bad(self.name, number, "the line is not valid UTF-8") from None

    def finish(self) -> None:
        expected = self.expected
        if self.count != expected["lines"]:
            raise Bad(
                self.name, 0, f"it has {self.count} lines, the manifest says {expected['lines']}"
            )
        if self.size != expected["bytes"] or self.sha256.hexdigest() != expected["sha256"]:
            raise Bad(self.name, 0, "its SHA-256 is not the one the signed manifest records")


def _canonical_json(value) -> bytes:
    """The server's older canonical form (``audit.canonical.canonical_json``, UTF-8): what HMAC
    seal headers and settlement digests are hashed over, not RFC 8785."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _json(name: str, number: int, text: str) -> dict:
    try:
        value = json.loads(text)
    except ValueError as error:
        raise Bad(name, number, f"not valid JSON ({error})") from None
    if not isinstance(value, dict):
        raise Bad(name, number, "not a JSON object")
    return value


def _check_manifest(bundle: Path, trusted: list[Ed25519PublicKey]) -> tuple[dict, Keys]:
    name = "manifest.json"
    try:
        manifest = json.loads((bundle / name).read_text("utf-8"))
    except (OSError, ValueError) as error:
        raise Bad(name, 0, f"cannot read it ({error})") from None
    if manifest.get("format") != BUNDLE_FORMAT:
        raise Bad(name, 0, f"unknown format {manifest.get('format')!r}")
    try:
        keys = Keys(manifest.get("keys", []), trusted)
    except (ValueError, KeyError, TypeError) as error:
        raise Bad(name, 0, f"its key list is invalid ({error})") from None
    unsigned = {k: v for k, v in manifest.items() if k != "signature"}
    why = keys.check(
        manifest.get("key_id", ""), manifest.get("signature", ""), rfc8785.dumps(unsigned)
    )
    if why:
        raise Bad(name, 0, f"the manifest's signature is not valid: {why}")
    head = manifest.get("head") or {}
    head_body = head.get("head") or {}
    why = keys.check(
        head_body.get("key_id", ""), head.get("signature", ""), rfc8785.dumps(head_body)
    )
    if why:
        raise Bad(name, 0, f"the exported chain head's signature is not valid: {why}")
    for file in FILES:
        if file not in manifest.get("files", {}):
            raise Bad(name, 0, f"it lists no {file}")
    return manifest, keys


@dataclass
class _Sealed:
    ids: list[int] = field(default_factory=list)
    digests: list[bytes] = field(default_factory=list)
    seal_of: list[int] = field(default_factory=list)  # seal seq per position
    # What the rounds and ledger totals are checked against, from events already proven sealed:
    # (round id, ("seq", seq) or ("bet", bet ref)) -> _RoundEvent; openings and settlements or
    # voids by round id, versions by (kind, id) and money events by their ledger transaction
    # id -> (events.jsonl line, event); per round, the latest instant it is sealed as still live
    # (its opening or an engine event) and that event's events.jsonl line.
    round_events: dict[tuple, _RoundEvent] = field(default_factory=dict)
    opened: dict[int, tuple[int, dict]] = field(default_factory=dict)
    finished: dict[int, tuple[int, dict]] = field(default_factory=dict)
    versions: dict[tuple[str, int], tuple[int, dict]] = field(default_factory=dict)
    money: dict[int, tuple[int, dict]] = field(default_factory=dict)
    live: dict[int, tuple[datetime, int]] = field(default_factory=dict)


@dataclass
class _RoundEvent:
    line: int  # in events.jsonl
    event_id: int
    seq: int | None
    type: str
    payload: dict
    actor: str  # as the round's event row writes it (see _round_actor)


def _round_actor(fields: dict) -> str:
    """The ``actor`` a round's engine event row holds, from the sealed event that recorded it:
    a bet's is the actor's label; a dealt card's, decision's etc. is ``Actor.describe()`` (label,
    on whose behalf, set off by what), whose parts the event's ``attribution`` seals."""
    label = fields["actor_label"] or ""
    if fields["payload"].get("seq") is None:
        return label
    attribution = fields["payload"].get("attribution") or {}
    behalf, via = attribution.get("on_behalf_of"), attribution.get("via")
    if behalf:
        label += f" for {behalf.get('kind')} {behalf.get('label')}"
    if via:
        label += f" (after {via.get('label')})"
    return label[:200]


def _round_event_key(round_id, seq, payload) -> tuple:
    # Bets have no seq (they are numbered when betting closes), so their bet ref keys them.
    if seq is None:
        return (round_id, ("bet", payload.get("bet_id") if isinstance(payload, dict) else None))
    return (round_id, ("seq", seq))


def _instant(text) -> datetime | None:
    """An ISO 8601 time or one as PostgreSQL prints it (``2026-12-01 10:00:00.12+00``); None
    without its offset, which could not be compared with the others."""
    try:
        at = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    return at if at.tzinfo is not None else None


def _still_live(sealed: _Sealed, round_id: int, number: int, fields: dict) -> None:
    # An opening or engine event is recorded while the round is live: it finished after it.
    at = _instant(fields["occurred_at"])
    if at is not None and (round_id not in sealed.live or at > sealed.live[round_id][0]):
        sealed.live[round_id] = (at, number)


def _index_sealed(sealed: _Sealed, number: int, fields: dict) -> None:
    name, round_id = fields["name"], fields["round_id"]
    payload = fields["payload"]
    if not isinstance(payload, dict):
        return
    if name.startswith(ROUND_EVENT) and round_id is not None:
        event = payload.get("event")
        key = _round_event_key(round_id, payload.get("seq"), event)
        sealed.round_events[key] = _RoundEvent(
            number,
            fields["id"],
            payload.get("seq"),
            name[len(ROUND_EVENT) :],
            event,
            _round_actor(fields),
        )
        _still_live(sealed, round_id, number, fields)
    elif name == ROUND_OPENED and round_id is not None:
        sealed.opened[round_id] = (number, fields)
        _still_live(sealed, round_id, number, fields)
    elif name in FINISHED and round_id is not None:
        sealed.finished[round_id] = (number, fields)
    elif name == VERSION_CREATED:
        sealed.versions[(payload.get("kind"), payload.get("id"))] = (number, fields)
    elif name in MONEY_EVENTS and isinstance(payload.get("transaction_id"), int):
        sealed.money[payload["transaction_id"]] = (number, fields)


def _check_seals(bundle: Path, manifest: dict, keys: Keys, result: Result) -> _Sealed:
    name, sealed = "seals.jsonl", _Sealed()
    chain = manifest["chain"]
    prev_hash, expected_seq = chain["prev_hash"], chain["first_seq"]
    file = _File(bundle, name, manifest)
    for number, text in file.lines():
        seal = _json(name, number, text)
        try:
            header, seq, scheme = seal["header"], seal["seq"], seal["scheme"]
            ids = seal["event_ids"]
            digests = base64.b64decode(seal["event_digests"], validate=True)
        except (KeyError, TypeError, ValueError) as error:
            raise Bad(
                name, number, f"a seal needs header, seq, scheme and event lists ({error})"
            ) from None
        if seq != expected_seq or header.get("seq") != seq:
            raise Bad(name, number, f"seal {expected_seq} was expected here, not {seq}")
        if header.get("prev_hash") != prev_hash:
            raise Bad(name, number, f"seal {seq} is not linked to the previous seal's chain hash")
        count = header.get("count")
        if len(ids) != count or len(digests) != count * DIGEST_SIZE or not count:
            raise Bad(name, number, f"seal {seq}'s event lists do not hold its {count} events")
        if [header["first"][1], header["last"][1]] != [ids[0], ids[-1]]:
            raise Bad(name, number, f"seal {seq}'s first and last events are not its listed ones")
        packed = struct.pack(f">{len(ids)}q", *ids)
        if hashlib.sha256(packed + digests).hexdigest() != header.get("batch_hash"):
            raise Bad(name, number, f"seal {seq}'s event lists do not match its batch hash")
        if scheme == ED25519_JCS and header.get("scheme") == ED25519_JCS:
            canonical = rfc8785.dumps(header)
        elif scheme == LEGACY_HMAC and "scheme" not in header:
            canonical = _canonical_json(header)
        else:
            raise Bad(name, number, f"seal {seq} has an unknown or inconsistent scheme {scheme!r}")
        if hashlib.sha256(canonical).hexdigest() != seal.get("chain_hash"):
            raise Bad(name, number, f"seal {seq}'s header does not match its chain hash")
        if scheme == ED25519_JCS:
            why = keys.check(
                seal.get("key_id", ""),
                seal.get("signature", ""),
                seal["chain_hash"].encode("ascii"),
            )
            if why:
                raise Bad(name, number, f"seal {seq}: {why}")
        else:
            # An HMAC needs the secret; the signed manifest (and a later Ed25519 seal, whose
            # chain hash covers this one) still vouch for it.
            result.legacy_seals += 1
        sealed.ids.extend(ids)
        sealed.digests.extend(
            digests[i : i + DIGEST_SIZE] for i in range(0, len(digests), DIGEST_SIZE)
        )
        sealed.seal_of.extend([seq] * count)
        prev_hash, expected_seq = seal["chain_hash"], seq + 1
        result.seals += 1
    file.finish()
    if result.seals == 0 and chain["events"] == 0:
        return sealed  # a day without events
    if result.seals == 0 or expected_seq - 1 != chain["last_seq"]:
        raise Bad(
            name, 0, f"the seals end at {expected_seq - 1}, the manifest says {chain['last_seq']}"
        )
    head = manifest["head"]["head"]
    if head["seq"] == chain["last_seq"] and head["chain_hash"] != prev_hash:
        raise Bad("manifest.json", 0, "the exported chain head is not the bundle's last seal")
    if head["seq"] < chain["last_seq"]:
        raise Bad("manifest.json", 0, "the exported chain head is older than the bundle's seals")
    return sealed


def _check_events(bundle: Path, manifest: dict, sealed: _Sealed, result: Result) -> None:
    name = "events.jsonl"
    ids, digests, seal_of = sealed.ids, sealed.digests, sealed.seal_of
    total, sha256, position = len(ids), hashlib.sha256, 0
    file = _File(bundle, name, manifest)
    for number, text in file.lines():
        event = _json(name, number, text)
        row = event.pop("row", None)
        if not isinstance(row, str):
            raise Bad(name, number, "the event has no sealed row")
        if position >= total:
            raise Bad(name, number, f"event {event.get('id')} is in no seal of the bundle")
        if sha256(row.encode("utf-8")).digest() != digests[position]:
            raise Bad(name, number, _mismatch(event.get("id"), position, sealed))
        try:
            fields = row_fields(row)
        except ValueError as error:
            raise Bad(name, number, f"the sealed row cannot be read ({error})") from None
        if fields["id"] != ids[position]:
            raise Bad(name, number, f"seal {seal_of[position]} lists event {ids[position]} here")
        if event != fields:
            raise Bad(name, number, _disagreement(event, fields))
        if fields["name"].startswith(("tables.round_", "ledger.", VERSION_CREATED)):
            _index_sealed(sealed, number, fields)
        position += 1
    if position < total:
        raise Bad(
            name,
            0,
            f"it ends before event {ids[position]} of seal {seal_of[position]}: "
            f"{total - position} sealed events are missing",
        )
    file.finish()
    result.events = position


def _disagreement(event: dict, fields: dict) -> str:
    for column in (*DIGEST_COLUMNS, *sorted(set(event) - set(DIGEST_COLUMNS))):
        shown, sealed = event.get(column, "<absent>"), fields.get(column, "<absent>")
        if shown != sealed:
            return f"event {fields['id']}: {column} is {shown!r} but the sealed row says {sealed!r}"
    raise AssertionError("the fields differ but no column does")


def _mismatch(event_id, position: int, sealed: _Sealed) -> str:
    expected, seal = sealed.ids[position], sealed.seal_of[position]
    if event_id == expected:
        return f"event {event_id} was modified: its row is not the one sealed in seal {seal}"
    if event_id in sealed.ids[position + 1 :]:
        return (
            f"event {expected} of seal {seal} is missing here (found event {event_id}, "
            "sealed later: a line was removed or moved)"
        )
    if event_id in sealed.ids[:position]:
        return f"event {event_id} appears again or out of order (seal {seal} lists {expected})"
    return f"event {event_id} is in no seal (seal {seal} lists event {expected} here)"


def _check_shoes(bundle: Path, manifest: dict, result: Result) -> set[int]:
    name, shoe_ids = "shoes.jsonl", set()
    file = _File(bundle, name, manifest)
    for number, text in file.lines():
        shoe = _json(name, number, text)
        shoe_ids.add(shoe.get("shoe_id"))
        for shuffle in shoe.get("shuffles", []):
            order, salt = shuffle.get("revealed_order"), shuffle.get("salt")
            if order is None:
                continue  # not revealed yet (shoe in use) or a reader shoe: nothing to re-hash
            digest = hashlib.sha256(("".join(order) + salt).encode("ascii")).hexdigest()
            if digest != shuffle.get("commitment", "").lower():
                raise Bad(
                    name,
                    number,
                    f"shoe {shoe.get('shoe_id')} shuffle {shuffle.get('number')}: the revealed "
                    "order and salt do not hash to the commitment recorded before the first card",
                )
            if shuffle.get("status") != "verified":
                raise Bad(
                    name,
                    number,
                    f"shoe {shoe.get('shoe_id')}: a matching shuffle is not marked verified",
                )
            result.shuffles_verified += 1
    file.finish()
    return shoe_ids


def _engine(path: Path | None):
    """The game engine (``tables/engine``, pure Python) from the project at ``path``, or None."""
    if path is None:
        return None
    sys.path.insert(0, str(path))
    try:
        from tables import engine
    except ImportError as error:
        raise Bad("--engine", 0, f"cannot import tables.engine from {path} ({error})") from None
    return engine


def _rederive(engine, rnd: dict):
    """The round's settlement re-computed by folding its engine events under its rules."""
    state = engine.fold(
        engine.RuleSet.from_json(rnd["rule_set"]),
        engine.PayoutSchedule.from_json(rnd["payout_schedule"]),
        [engine.event_from_json(event["payload"]) for event in rnd["engine_events"]],
        engine.TableLimits(**rnd["limits"]),
    )
    return engine.settle(state).to_json()


def _sealed_as(line: int, event: dict) -> str:
    return f"sealed event {event['id']} (events.jsonl line {line}: {event['name']})"


def _require_sealed(
    name: str, number: int, prefix: str, found: dict, expected: dict, sealed_as: str
) -> None:
    """Name the first field of ``expected`` (the sealed values) that ``found`` (what the line
    holds) has otherwise, as ``<prefix><field> is <found> but <sealed_as> says <sealed>``."""
    for column, value in expected.items():
        if found.get(column, ABSENT) != value:
            raise Bad(
                name,
                number,
                f"{prefix}{column} is {found.get(column, ABSENT)!r} but {sealed_as} says {value!r}",
            )


def _opens(event: dict, rnd: dict) -> bool:
    """Whether the sealed opening ``event`` is of the round at the line's table with the line's
    number: the round a line whose round_id was changed is about."""
    return (event["table_id"], event["payload"].get("number")) == (
        rnd.get("table_id"),
        rnd.get("number"),
    )


def _opened_like(sealed: _Sealed, rnd: dict) -> tuple[int, dict] | None:
    return next(
        ((line, event) for line, event in sealed.opened.values() if _opens(event, rnd)), None
    )


def _check_opening(name: str, number: int, rnd: dict, sealed: _Sealed, period, result: Result):
    """Tie what the line says the round was opened with (table, number, pinned version ids,
    limits, currency, card source, shoe) to the round's sealed ``tables.round_opened``: the
    engine folds the events under these limits, and the ledger lines are in this currency.
    A round opened within the day has that event in the bundle (it is recorded just after
    ``opened_at``, so it is an event of the day, and the bundle holds every seal with one): a
    line without it is about another round (its round_id was changed) and is a finding. A
    round opened before the day may have it in an earlier bundle: noted."""
    round_id = rnd["round_id"]
    line, event = sealed.opened.get(round_id, (0, None))
    if event is not None:
        payload = event["payload"]
        # An event written before a field was recorded does not vouch for that field.
        expected = {key: payload[key] for key in OPENED_FIELDS if key in payload}
        expected = {"table_id": event["table_id"], **expected}
        _require_sealed(name, number, f"round {round_id}: ", rnd, expected, _sealed_as(line, event))
        result.openings_sealed += 1
        return
    opened_at = _instant(rnd.get("opened_at"))
    if period is not None and opened_at is not None and period[0] <= opened_at < period[1]:
        twin = _opened_like(sealed, rnd)
        raise Bad(
            name,
            number,
            f"round {round_id}: round_id {round_id} has no sealed {ROUND_OPENED} in the bundle, "
            f"though its opened_at {rnd['opened_at']} is within the day"
            + (
                f"; {_sealed_as(*twin)} opens round {twin[1]['round_id']} with this line's "
                f"table_id and number"
                if twin
                else ""
            ),
        )
    result.openings_unsealed.append(round_id)


def _check_documents(name: str, number: int, rnd: dict, sealed: _Sealed, result: Result):
    """Tie the rule-set and payout-schedule documents the line pins (what ``--engine`` folds
    the events under) to those sealed when the versions were created: the event holds the
    whole document, and a version is immutable. A version created before the bundle's first
    seal has that event in an earlier bundle: noted."""
    round_id, matched = rnd["round_id"], 0
    for kind in DOCUMENTS:
        version = rnd.get(f"{kind}_id")
        line, event = sealed.versions.get((kind, version), (0, None))
        if event is None:
            result.versions_unsealed[f"{kind} {version}"] = None
            continue
        document, recorded = rnd.get(kind), event["payload"].get("document") or {}
        if not isinstance(document, dict):
            raise Bad(name, number, f"round {round_id}: {kind} is not a JSON object")
        # A key the line adds is as much a change as one it alters or drops.
        expected = {key: recorded.get(key, ABSENT) for key in sorted({*recorded, *document})}
        _require_sealed(
            name, number, f"round {round_id}: {kind}.", document, expected, _sealed_as(line, event)
        )
        matched += 1
    if matched == len(DOCUMENTS):
        result.documents_sealed += 1


def _check_round_events(name: str, number: int, rnd: dict, sealed: _Sealed, result: Result):
    """Tie the round's engine events to the sealed audit events that recorded them.

    Only the sealed events vouch for a round's line (the manifest's file digest names no line
    and no field). A round whose ``tables.round_opened`` is in the bundle has all its later
    events in it too (the bundle's seals run without a gap to the day's last event, and the
    round finished in the day), so there a missing sealed event is a finding; a round opened
    before the bundle's first seal has its first events in the previous day's bundle."""
    round_id, events = rnd.get("round_id"), rnd.get("engine_events")
    if not isinstance(events, list):
        raise Bad(name, number, f"round {round_id}: engine_events is not a list")
    opened_here, matched, unsealed, last_seq = round_id in sealed.opened, set(), 0, None
    for index, event in enumerate(events):
        where = f"round {round_id}: engine_events[{index}]"
        if not isinstance(event, dict):
            raise Bad(name, number, f"{where} is not a JSON object")
        seq = event.get("seq")
        if seq is not None and not isinstance(seq, int):
            raise Bad(name, number, f"{where}.seq: {seq!r} is not an integer")
        if last_seq is not None and (seq is None or seq <= last_seq):
            raise Bad(
                name, number, f"{where}.seq: {seq!r} is out of fold order (bets first, then seq)"
            )
        last_seq = seq if seq is not None else last_seq
        key = _round_event_key(round_id, seq, event.get("payload"))
        found = sealed.round_events.get(key)
        if found is None:
            if opened_here:
                raise Bad(
                    name,
                    number,
                    f"{where} (seq {seq}, {event.get('type')}) matches no sealed "
                    f"{ROUND_EVENT}* event, though the round was opened within the bundle",
                )
            unsealed += 1
            continue
        if key in matched:
            raise Bad(name, number, f"{where}.seq: seq {seq} appears twice in the round")
        matched.add(key)
        _require_sealed(
            name,
            number,
            f"{where}.",
            event,
            {"type": found.type, "payload": found.payload, "actor": found.actor},
            f"sealed event {found.event_id} (events.jsonl line {found.line})",
        )
    for key, found in sealed.round_events.items():
        if key[0] == round_id and key not in matched:
            raise Bad(
                name,
                number,
                f"round {round_id}: engine_events lacks the event sealed as event "
                f"{found.event_id} (events.jsonl line {found.line}: {ROUND_EVENT}{found.type}, "
                f"seq {found.seq})",
            )
    if unsealed:
        result.engine_events_unsealed += unsealed
    else:
        result.rounds_sealed += 1


SETTLEMENT_TOTALS = ("lines", "bets", "stake", "paid", "bonus")


def _settlement_digest(settlement: dict) -> dict:
    """What the sealed ``tables.round_settled`` keeps of a settlement, computed as the server's
    ``tables.events.settlement_digest``: the lines' SHA-256, their count and totals."""
    lines = settlement.get("lines", [])
    digest = {
        "void": settlement.get("void", False),
        "lines_sha256": hashlib.sha256(_canonical_json(lines)).hexdigest(),
    }
    # Lines an edit left without readable numbers have no totals: their SHA-256 alone tells.
    with contextlib.suppress(KeyError, TypeError):
        digest.update(
            lines=len(lines),
            bets=len({line["bet_id"] for line in lines}),
            stake=sum(line["stake"] for line in lines),
            paid=sum(line["paid"] for line in lines),
            bonus=sum(line["bonus"] for line in lines),
        )
    return digest


def _check_settlement(name: str, number: int, rnd: dict, sealed: _Sealed, result: Result):
    """Tie the round's ledger transaction and settlement to the sealed event that finished it:
    ``tables.round_settled`` (a digest of the settlement) or ``tables.round_voided`` (the whole
    void settlement: stakes returned, outcomes already decided). Otherwise an edited payout or
    transaction id is caught only by the file's digest, which names no line, or by
    ``--engine``, which would blame the casino's payout, not the edit: hence this runs first.
    A finished round whose event is not in the bundle is no finding: the event is recorded
    just after the round's ``finished_at``, so for a round finished as the day ends it may be
    sealed in the next day's bundle."""
    round_id = rnd["round_id"]
    line, event = sealed.finished.get(round_id, (0, None))
    if event is None:
        if rnd.get("phase") in FINISHED.values():
            result.settlements_unsealed.append(round_id)
        return
    payload, settlement = event["payload"], rnd.get("settlement")
    recorded = payload.get("settlement")
    recorded = recorded if isinstance(recorded, dict) else {}
    if isinstance(recorded.get("lines"), list):
        recorded = _settlement_digest(recorded)  # a void, or a settlement before digests
    sealed_in = f"is not the one sealed in event {event['id']} (events.jsonl line {line})"
    if rnd.get("phase") != FINISHED[event["name"]]:
        raise Bad(
            name,
            number,
            f"round {round_id}: phase {rnd.get('phase')!r} {sealed_in}, which records the round "
            f"{FINISHED[event['name']]}",
        )
    if rnd.get("ledger_transaction_id") != payload.get("ledger_transaction_id"):
        raise Bad(
            name,
            number,
            f"round {round_id}: ledger_transaction_id {rnd.get('ledger_transaction_id')!r} "
            f"{sealed_in}, which records {payload.get('ledger_transaction_id')!r}",
        )
    if not isinstance(settlement, dict):
        raise Bad(name, number, f"round {round_id}: settlement is not a JSON object")
    digest = _settlement_digest(settlement)
    if digest["lines_sha256"] != recorded.get("lines_sha256"):
        totals = [
            f"{key} {digest[key]!r} here, {recorded.get(key)!r} sealed"
            for key in SETTLEMENT_TOTALS
            if key in digest and digest[key] != recorded.get(key)
        ]
        raise Bad(
            name,
            number,
            f"round {round_id}: settlement.lines {sealed_in}: they hash to "
            f"{digest['lines_sha256']}, the sealed lines_sha256 is {recorded.get('lines_sha256')}"
            + (f" (the lines' totals differ: {', '.join(totals)})" if totals else ""),
        )
    if digest["void"] != recorded.get("void"):
        raise Bad(
            name,
            number,
            f"round {round_id}: settlement.void {digest['void']!r} {sealed_in}, which records "
            f"{recorded.get('void')!r}",
        )
    result.settlements_sealed += 1


def _check_rounds(
    bundle: Path, manifest: dict, shoe_ids: set[int], result: Result, engine, sealed: _Sealed
):
    file, period = _File(bundle, "rounds.jsonl", manifest), _period(manifest)
    seen: list[tuple[int, dict]] = []  # (line, the fields that tell which round it is)
    for number, text in file.lines():
        rnd = _json(file.name, number, text)
        if not isinstance(rnd.get("round_id"), int) or isinstance(rnd["round_id"], bool):
            raise Bad(file.name, number, f"round_id {rnd.get('round_id')!r} is not an integer")
        if rnd.get("shoe_id") is not None and rnd["shoe_id"] not in shoe_ids:
            raise Bad(
                file.name, number, f"round {rnd.get('round_id')}'s shoe is not in shoes.jsonl"
            )
        seen.append((number, {key: rnd.get(key) for key in RECOGNISED_BY}))
        _check_opening(file.name, number, rnd, sealed, period, result)
        _check_documents(file.name, number, rnd, sealed, result)
        _check_round_events(file.name, number, rnd, sealed, result)
        _check_settlement(file.name, number, rnd, sealed, result)
        if engine is not None and rnd.get("phase") == "settled":
            try:
                derived = _rederive(engine, rnd)
            except Exception as error:  # any engine refusal is a finding
                raise Bad(
                    file.name,
                    number,
                    f"round {rnd.get('round_id')}: the engine refuses its events ({error!r})",
                ) from None
            if derived != rnd.get("settlement"):
                recorded = {
                    line["bet_id"]: line["paid"]
                    for line in (rnd.get("settlement") or {}).get("lines", [])
                }
                computed = {line["bet_id"]: line["paid"] for line in derived["lines"]}
                raise Bad(
                    file.name,
                    number,
                    f"round {rnd.get('round_id')}: the engine pays {computed}, "
                    f"the round records {recorded}",
                )
            result.rounds_rederived += 1
        result.rounds += 1
    _check_unlisted_rounds(manifest, sealed, seen, period, result)
    file.finish()


RECOGNISED_BY = ("round_id", "table_id", "number", "ledger_transaction_id")


def _period(manifest: dict) -> tuple[datetime, datetime] | None:
    period = manifest.get("period") or {}
    start, end = _instant(period.get("start")), _instant(period.get("end"))
    return (start, end) if start and end else None


def _check_unlisted_rounds(
    manifest: dict, sealed: _Sealed, seen: list[tuple[int, dict]], period, result: Result
) -> None:
    """A line for every round of the casino's tables that finished within the day: bundles.py
    selects rounds by ``finished_at``, which no event seals, but it lies between the round's
    last sealed event while live (its opening or an engine event) and the event that
    finished it (recorded just after it). When both are within the day, so is the finish and
    the line is owed: a round without one had its line removed or its round_id changed
    (named by the line with the round's table and number, or its ledger transaction, when
    one has them). When they straddle the day's start or end, the round may be the
    neighbouring day's: noted. The chain is every casino's, so only the casino's tables
    (listed in the signed manifest) count."""
    listed = {rnd["round_id"] for _, rnd in seen}
    unlisted = sorted(
        (line, event)
        for round_id, (line, event) in sealed.finished.items()
        if round_id not in listed
    )
    casino = manifest.get("casino")
    if not unlisted or not casino:
        return
    tables = casino.get("tables")
    if not isinstance(tables, list) or period is None:
        result.notes.append(
            f"{len(unlisted)} rounds finished in the bundle's events have no line, and the "
            "manifest lists no casino tables (a bundle written before they were listed): "
            "whether they are the casino's was not checked"
        )
        return
    start, end = period
    for line, event in unlisted:
        round_id, finished_by = event["round_id"], _instant(event["occurred_at"])
        live = sealed.live.get(round_id)
        if event["table_id"] not in tables or finished_by is None or finished_by < start:
            continue  # another casino's round, or one finished before the day
        if live is not None and live[0] >= end:
            continue  # a round of the next day
        if live is None or live[0] < start or finished_by >= end:
            result.unlisted_unsure.append(round_id)
            continue
        _unlisted_round(sealed, seen, line, event, live)


def _unlisted_round(sealed: _Sealed, seen, line: int, event: dict, live) -> None:
    round_id = event["round_id"]
    opened = sealed.opened.get(round_id, (0, None))[1]
    txn = event["payload"].get("ledger_transaction_id")
    within = f"{_sealed_as(line, event)} finishes round {round_id} within the day"
    for number, rnd in seen:
        if opened is not None and _opens(opened, rnd):
            how = "table_id and number"
        elif txn is not None and rnd["ledger_transaction_id"] == txn:
            how = f"ledger_transaction_id {txn}"
        else:
            continue
        raise Bad(
            "rounds.jsonl",
            number,
            f"round {rnd['round_id']}: round_id is {rnd['round_id']} but {within} with this "
            f"line's {how}, and no line holds round {round_id}",
        )
    raise Bad(
        "events.jsonl",
        line,
        f"{within} (it was live at {live[0].isoformat()}, events.jsonl line {live[1]}), but no "
        f"line of rounds.jsonl holds round {round_id}",
    )


TOTALS = ("handle", "payouts", "bonuses", "win", "hold_pct")


def _hold_pct(win: int, handle: int) -> str | None:
    # As ledger.selectors.hold_pct: to the cent, half-even; none without handle.
    if not handle:
        return None
    value = decimal.Decimal(win) * 100 / decimal.Decimal(handle)
    return str(value.quantize(decimal.Decimal("0.01"), decimal.ROUND_HALF_EVEN))


def _sealed_totals(line: dict, sealed: _Sealed) -> tuple[dict | None, str]:
    """Handle, payouts and bonuses from the sealed money events of the transactions the line
    lists, or None (and why) when a transaction's amounts are not sealed in the bundle: a
    correction's reversal or replacement (its events carry no amounts), or a posting just
    before the day's end whose event was sealed after the bundle's last seal."""
    listed = line.get("transactions")
    if not isinstance(listed, list):
        return None, "it lists no transactions (a bundle written before they were listed)"
    handle = payouts = bonuses = 0
    for txn in listed:
        if not isinstance(txn, int) or isinstance(txn, bool):
            return {"transactions": txn}, ""
        number, event = sealed.money.get(txn, (0, None))
        if event is None:
            return None, f"transaction {txn} has no sealed money event in the bundle"
        payload, name = event["payload"], event["name"]
        where = f"transaction {txn} (sealed as event {event['id']}, events.jsonl line {number})"
        if event["table_id"] != line.get("table"):
            return {"table": event["table_id"], "_why": where}, ""
        amounts = [payload.get(key) for key in ("payout", "bonus", "amount")]
        if name == "ledger.round_settled":
            if payload.get("currency") != line.get("currency"):
                return {"currency": payload.get("currency"), "_why": where}, ""
            amounts[2] = 0
        else:
            amounts[:2] = 0, 0
        if not all(isinstance(amount, int) for amount in amounts):
            return None, f"{where} records no amounts the verifier can read"
        payout, bonus, amount = amounts
        payouts, bonuses = payouts + payout, bonuses + bonus
        handle += amount if name == "ledger.stake_debited" else -amount
    return {"handle": handle, "payouts": payouts, "bonuses": bonuses, "_n": len(listed)}, ""


def _check_ledger_totals(bundle: Path, manifest: dict, sealed: _Sealed, result: Result) -> None:
    file = _File(bundle, "ledger_totals.jsonl", manifest)
    # Per-line digests in the signed manifest name the line the file digest cannot; a bundle
    # written before them has none, and then only the file's digest covers the line.
    line_digests = file.expected.get("line_sha256")
    unrederived: list[str] = []
    for number, text in file.lines():
        line = _json(file.name, number, text)
        what = f"table {line.get('table')} {line.get('currency')}"
        derived, why = _sealed_totals(line, sealed)
        if derived is None:
            unrederived.append(f"line {number} ({what}): {why}")
            derived = {key: line.get(key) for key in TOTALS[:3]}
            source = sums = "the line's own handle, payouts and bonuses"
        else:
            source = f"the sealed money events of its {derived.get('_n')} transactions"
            sums = f"handle, payouts and bonuses from {source}"
        if "transactions" in derived:
            raise Bad(
                file.name,
                number,
                f"{what}: transactions holds {derived['transactions']!r}, not a transaction id",
            )
        for key in ("table", "currency"):
            if key in derived:
                raise Bad(
                    file.name,
                    number,
                    f"{what}: {key} is {line.get(key)!r} but {derived['_why']} says "
                    f"{derived[key]!r}",
                )
        try:
            handle, payouts, bonuses = (int(derived[key]) for key in TOTALS[:3])
        except (TypeError, ValueError):
            raise Bad(
                file.name, number, f"{what}: handle, payouts and bonuses must be integers"
            ) from None
        win = handle - payouts - bonuses
        expected = {"handle": handle, "payouts": payouts, "bonuses": bonuses, "win": win}
        expected["hold_pct"] = _hold_pct(win, handle)
        for key in TOTALS:
            if line.get(key) != expected[key]:
                raise Bad(
                    file.name,
                    number,
                    f"{what}: {key} is {line.get(key)!r} but "
                    f"{source if key in TOTALS[:3] else sums} give {expected[key]!r}",
                )
        if line_digests is not None:
            digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
            if number > len(line_digests) or digest != line_digests[number - 1]:
                raise Bad(file.name, number, "the line is not the one the signed manifest records")
        result.ledger_lines += 1
    file.finish()
    result.ledger_rederived = result.ledger_lines - len(unrederived)
    if unrederived:
        result.notes.append(
            f"{len(unrederived)} ledger total lines were checked by their digest and "
            "arithmetic only, not re-derived from sealed events: " + "; ".join(unrederived[:5])
        )


def verify_bundle(
    bundle: Path, *, trusted: list[Ed25519PublicKey] = (), engine_path: Path | None = None
) -> Result:
    """Check the bundle in ``bundle``; raise ``Bad`` naming the first fault. With
    ``engine_path`` (the project's source tree), every settled round's payouts are also
    re-derived through the game engine."""
    result = Result()
    engine = _engine(engine_path)
    manifest, keys = _check_manifest(bundle, list(trusted))
    sealed = _check_seals(bundle, manifest, keys, result)
    _check_events(bundle, manifest, sealed, result)
    shoe_ids = _check_shoes(bundle, manifest, result)
    _check_rounds(bundle, manifest, shoe_ids, result, engine, sealed)
    _check_ledger_totals(bundle, manifest, sealed, result)
    if result.engine_events_unsealed:
        result.notes.append(
            f"{result.engine_events_unsealed} engine events of rounds opened before the "
            "bundle's first seal are sealed in an earlier bundle: not tied to sealed events here"
        )
    for listed, why in (
        (
            result.settlements_unsealed,
            "finished rounds have their settlement sealed after the bundle's last seal: not "
            "tied to a sealed event here",
        ),
        (
            result.openings_unsealed,
            f"rounds were opened before the bundle's first seal: their {ROUND_OPENED} (table, "
            "number, versions, limits, currency, shoe) is in an earlier bundle, not compared here",
        ),
        (
            result.unlisted_unsure,
            "rounds of the casino's tables have their last live event and the event finishing "
            "them on either side of the day's start or end, and no line: they may have "
            "finished in the neighbouring day, not checked here",
        ),
        (
            list(result.versions_unsealed),
            "rule versions were created before the bundle's first seal: their documents are "
            f"sealed ({VERSION_CREATED}) in an earlier bundle, not compared here",
        ),
    ):
        if listed:
            shown = ", ".join(map(str, listed[:5])) + (", ..." if len(listed) > 5 else "")
            result.notes.append(f"{len(listed)} {why} ({shown})")
    if result.legacy_seals:
        result.notes.append(
            f"{result.legacy_seals} seals predate Ed25519 (HMAC): their chain hashes were "
            "checked, their signatures need the secret; the signed manifest covers them"
        )
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bundle", type=Path, help="the bundle's directory")
    parser.add_argument(
        "--trust-key",
        action="append",
        default=[],
        help="a public key you obtained independently (base64 or PEM, or a file): the "
        "manifest and every seal must be signed by a pinned key; repeat for rotated keys",
    )
    parser.add_argument(
        "--engine",
        type=Path,
        help="the casino's source tree: re-derive every settled round's payouts through its "
        "game engine (tables/engine, pure Python)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only failures")
    args = parser.parse_args(argv)
    try:
        trusted = [load_public_key(text) for text in args.trust_key]
    except (ValueError, OSError) as error:
        parser.error(f"--trust-key: {error}")
    try:
        result = verify_bundle(args.bundle, trusted=trusted, engine_path=args.engine)
    except Bad as bad:
        print(f"FAILED: {bad}", file=sys.stderr)
        return 1
    if not args.quiet:
        print(
            f"OK: {result.events} events in {result.seals} seals, {result.rounds} rounds, "
            f"{result.shuffles_verified} revealed shuffles verified, "
            f"{result.openings_sealed} rounds' openings and {result.documents_sealed} rounds' "
            "rule documents matched to sealed events, "
            f"{result.rounds_sealed} rounds' engine events matched to sealed events, "
            f"{result.settlements_sealed} rounds' settlements matched to sealed events, "
            f"{result.ledger_rederived} of {result.ledger_lines} ledger totals re-derived"
            + (
                f", {result.rounds_rederived} rounds re-derived by the engine"
                if args.engine
                else ""
            )
        )
        for note in result.notes:
            print(f"note: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
