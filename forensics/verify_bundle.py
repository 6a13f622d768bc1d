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
- with ``--engine PATH`` (the casino's source tree, for its pure-Python game engine): every
  settled round's payouts, re-derived by folding its engine events under its pinned rules.

Exit status 0 when everything holds, 1 with ``FAILED: <file> line <n>: <why>`` otherwise.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import re
import struct
import sys
from dataclasses import dataclass, field
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
            canonical = json.dumps(
                header, sort_keys=True, separators=(",", ":"), ensure_ascii=False
            ).encode("utf-8")
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


def _check_rounds(bundle: Path, manifest: dict, shoe_ids: set[int], result: Result, engine):
    file = _File(bundle, "rounds.jsonl", manifest)
    for number, text in file.lines():
        rnd = _json(file.name, number, text)
        if rnd.get("shoe_id") is not None and rnd["shoe_id"] not in shoe_ids:
            raise Bad(
                file.name, number, f"round {rnd.get('round_id')}'s shoe is not in shoes.jsonl"
            )
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
    file.finish()
    totals = _File(bundle, "ledger_totals.jsonl", manifest)
    for number, text in totals.lines():
        _json(totals.name, number, text)
    totals.finish()


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
    _check_rounds(bundle, manifest, shoe_ids, result, engine)
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
            f"{result.shuffles_verified} revealed shuffles verified"
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
