"""Canonical JSON: the one byte representation that audit hashes and signatures cover.

``jcs`` is RFC 8785 (JSON Canonicalization Scheme, the ``rfc8785`` package): what anyone can
reproduce with any conforming implementation, and what everything written since the Ed25519
scheme is hashed and signed over. ``canonical_json`` (sorted keys, compact, ``ensure_ascii``
off) is the older form: rows hashed with it keep verifying with it. The two agree on strings,
integers and key order for every BMP key, and differ on floats (``1.0`` vs ``1``, ``1e+16`` vs
``10000000000000000``), integers beyond 2**53 (RFC 8785 refuses them) and keys outside the BMP
(code point vs UTF-16 order): hence a scheme recorded with every hash, never a guess.
"""

import hashlib
import json
from typing import Any

import rfc8785

# An event's content hash under RFC 8785 carries this prefix; a bare 64-hex hash is the older
# ``canonical_json`` form (events written before, or content RFC 8785 cannot represent).
JCS_HASH_PREFIX = "jcs:"


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def jcs(value: Any) -> bytes:
    """RFC 8785 canonical bytes (UTF-8); raises ``rfc8785.CanonicalizationError``."""
    return rfc8785.dumps(value)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def content_hash(value: Any) -> str:
    """A self-describing content hash: RFC 8785 when it can represent the value (``jcs:`` +
    SHA-256), else the SHA-256 of ``canonical_json`` (e.g. an integer beyond 2**53)."""
    try:
        return JCS_HASH_PREFIX + hashlib.sha256(jcs(value)).hexdigest()
    except rfc8785.CanonicalizationError:
        return sha256_hex(canonical_json(value))


def content_hash_matches(value: Any, recorded: str) -> bool:
    """Whether ``recorded`` is the content hash of ``value`` under the scheme it names."""
    if recorded.startswith(JCS_HASH_PREFIX):
        try:
            return recorded == JCS_HASH_PREFIX + hashlib.sha256(jcs(value)).hexdigest()
        except rfc8785.CanonicalizationError:
            return False
    return recorded == sha256_hex(canonical_json(value))
