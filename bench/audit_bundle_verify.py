"""Benchmark: the standalone bundle verifier (forensics/verify_bundle.py) on 1,000,000 events.

Builds a synthetic bundle in the export format (forensics/EXPORT_FORMAT.md) without a database:
bet-sized COPY rows, seals of 50,000 events (RFC 8785 headers, Ed25519 signatures), a signed
manifest. Then times a full verification, next to the floor of the same run: one plain
SHA-256 pass over the same events.jsonl bytes (read in 1 MiB blocks), and SHA-256 per line
(what the seal digests need at the least). ``BENCH_BUNDLE_EVENTS`` changes the size.
Run: ``python -m bench audit_bundle_verify``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rfc8785
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bench.report import result
from forensics import verify_bundle as vb

N = int(os.environ.get("BENCH_BUNDLE_EVENTS", "1000000"))
PER_SEAL = 50_000


def _row(i: int) -> str:
    payload = (
        f'{{"box": {i % 7}, "kind": "main", "amount": {500 + i % 977}, "currency": "EUR", '
        f'"player_ref": "player-{i % 5000}"}}'
    )
    content_hash = "jcs:" + hashlib.sha256(str(i).encode()).hexdigest()
    return "\t".join(
        [str(i), str(1000 + i // 1000), "2026-12-01 10:00:00.123456+00", "bet.placed",
         "api_key", "12", "operator one (ak_3f9c)", f"req-{i:012d}", "1", "1", str(i % 40),
         str(i // 50), str(i), str(i % 5000), payload, content_hash]
    )  # fmt: skip


def _write(path: Path, records) -> dict:
    sha256, size, lines = hashlib.sha256(), 0, 0
    with path.open("wb") as handle:
        for record in records:
            data = (json.dumps(record, separators=(",", ":")) + "\n").encode()
            handle.write(data)
            sha256.update(data)
            size, lines = size + len(data), lines + 1
    return {"sha256": sha256.hexdigest(), "bytes": size, "lines": lines}


def build(bundle: Path) -> None:
    key = Ed25519PrivateKey.generate()
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    key_id = hashlib.sha256(raw).hexdigest()[:16]
    keys = [
        {"key_id": key_id, "algorithm": "Ed25519", "public_key": base64.b64encode(raw).decode()}
    ]
    seals, prev = [], "0" * 64

    def events():
        nonlocal prev
        for start in range(1, N + 1, PER_SEAL):
            ids = list(range(start, min(start + PER_SEAL, N + 1)))
            rows = [_row(i) for i in ids]
            digests = b"".join(hashlib.sha256(r.encode()).digest() for r in rows)
            header = {
                "format": 1, "seq": len(seals) + 1, "sealed_at": "2026-12-01T10:00:01+00:00",
                "horizon_txid": 10**6, "first": [1000 + ids[0] // 1000, ids[0]],
                "last": [1000 + ids[-1] // 1000, ids[-1]], "count": len(ids),
                "batch_hash": hashlib.sha256(
                    struct.pack(f">{len(ids)}q", *ids) + digests
                ).hexdigest(),
                "prev_hash": prev, "scheme": 2,
            }  # fmt: skip
            prev = hashlib.sha256(rfc8785.dumps(header)).hexdigest()
            seals.append(
                {
                    "seq": header["seq"],
                    "scheme": 2,
                    "header": header,
                    "chain_hash": prev,
                    "key_id": key_id,
                    "signature": key.sign(prev.encode()).hex(),
                    "event_ids": ids,
                    "event_digests": base64.b64encode(digests).decode(),
                }
            )
            for row in rows:
                yield {**vb.row_fields(row), "row": row}

    files = {"events.jsonl": _write(bundle / "events.jsonl", events())}
    files["seals.jsonl"] = _write(bundle / "seals.jsonl", seals)
    for name in ("shoes.jsonl", "rounds.jsonl", "ledger_totals.jsonl"):
        files[name] = _write(bundle / name, [])
    head = {"format": 2, "seq": len(seals), "chain_hash": prev, "key_id": key_id}
    manifest = {
        "format": vb.BUNDLE_FORMAT,
        "chain": {"first_seq": 1, "last_seq": len(seals), "prev_hash": "0" * 64, "events": N},
        "head": {"head": head, "signature": key.sign(rfc8785.dumps(head)).hex()},
        "files": files,
        "keys": keys,
        "key_id": key_id,
    }
    manifest["signature"] = key.sign(rfc8785.dumps(manifest)).hex()
    (bundle / "manifest.json").write_text(json.dumps(manifest))


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="bench-bundle-") as directory:
        bundle = Path(directory)
        started = time.perf_counter()
        build(bundle)
        size = (bundle / "events.jsonl").stat().st_size
        print(f"built a bundle of {N:,} events ({size / 1e6:,.0f} MB) in "
              f"{time.perf_counter() - started:.1f}s")  # fmt: skip

        started = time.perf_counter()
        outcome = vb.verify_bundle(bundle)
        verify_s = time.perf_counter() - started
        assert outcome.events == N, outcome

        started = time.perf_counter()
        sha256 = hashlib.sha256()
        with (bundle / "events.jsonl").open("rb") as handle:
            while block := handle.read(1 << 20):
                sha256.update(block)
        plain_s = time.perf_counter() - started

        started = time.perf_counter()
        with (bundle / "events.jsonl").open("rb") as handle:
            for line in handle:
                hashlib.sha256(line).digest()
        per_line_s = time.perf_counter() - started

    rate = N / verify_s
    print(f"verify_bundle: {rate:,.0f} events/s ({verify_s:.1f}s for {N:,} events)")
    print(f"plain sha256 over the same bytes: {N / plain_s:,.0f} events/s ({plain_s:.2f}s)")
    print(f"sha256 per line of the same file: {N / per_line_s:,.0f} events/s ({per_line_s:.2f}s)")
    result(
        name="audit_bundle_verify",
        figure=rate,
        unit="events/s",
        baseline_name="plain sha256 pass over the same events.jsonl bytes",
        baseline=N / plain_s,
        target="(context: a gaming day's bundle in seconds)",
    )
    result(
        name="audit_bundle_verify (per-line floor)",
        figure=rate,
        unit="events/s",
        baseline_name="sha256 per line of the same file",
        baseline=N / per_line_s,
        target="(context)",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
