"""The one JSON parser of the API: it hands views only what the rest of the stack can hold."""

import codecs
import json
import re

from rest_framework import parsers
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.utils.json import strict_constant

# No legitimate input comes near this; Python's own decoder gives up (RecursionError) near
# 1,000 levels and every recursive walk after it (fingerprint, validation) would too.
MAX_DEPTH = 32
# NUL: PostgreSQL refuses it in text and jsonb. A lone surrogate ("\ud800") is valid JSON
# but not Unicode text: it cannot be encoded to UTF-8 (the idempotency fingerprint, the
# database, the logs).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing deep nesting (400 malformed-request), a key given twice in
    one object (which value counts differs between parsers: a proxy may have checked the
    other) and NUL or lone surrogates in any string or key (400 naming where)."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = parsers.get_encoding(parser_context or {})
        try:
            data = json.load(
                codecs.getreader(encoding)(stream),
                parse_constant=strict_constant,
                object_pairs_hook=_object,
            )
        except RecursionError:
            raise ParseError(f"JSON nested more than {MAX_DEPTH} levels deep.") from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        _check(data)
        return data


def _object(pairs: list) -> dict:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise ValueError(f"the key {twice!r} is given more than once in one object")
    return data


def _check(data) -> None:
    """Walks the document without recursion (it may be deeper than the stack allows)."""
    pending = [(data, "", 0)]
    while pending:
        value, path, depth = pending.pop()
        if isinstance(value, str):
            if _UNSTORABLE.search(value):
                _refuse(path, "contains a NUL character or a lone surrogate")
            continue
        if isinstance(value, dict):
            children = value.items()
        elif isinstance(value, list):
            children = enumerate(value)
        else:
            continue
        if depth >= MAX_DEPTH:
            raise ParseError(f"JSON nested more than {MAX_DEPTH} levels deep.")
        for key, child in children:
            if isinstance(key, str):
                if _UNSTORABLE.search(key):
                    _refuse(path, "has a key with a NUL character or a lone surrogate")
                child_path = f"{path}.{key}" if path else key
            else:
                child_path = f"{path}[{key}]"
            pending.append((child, child_path, depth + 1))


def _refuse(path: str, message: str) -> None:
    # The path itself may hold the bad character: the problem names it with it escaped.
    where = path.encode("unicode_escape").decode("ascii")[:200] if path else ""
    raise ValidationError({where: [message]} if where else [f"The JSON body {message}."])
