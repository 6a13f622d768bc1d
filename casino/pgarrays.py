"""Array parameters for set-based SQL (``unnest(%s::bigint[], …)``), as PostgreSQL literals.

psycopg's client-side binding quotes a Python list element by element in Python (~17 ms per
20,000 integers, ~22 ms per 20,000 strings); a settlement passes a dozen such arrays. Built
with one ``str.join`` and passed as one string parameter cast by the statement (``::bigint[]``,
``::text[]``), the same array costs ~2-4 ms. The server parses it exactly like the quoted form.
"""

from __future__ import annotations

from collections.abc import Iterable


def int_array(values: Iterable[int | None]) -> str:
    """``{1,2,NULL}``: cast it with ``::bigint[]``."""
    return "{" + ",".join("NULL" if v is None else str(int(v)) for v in values) + "}"


def text_array(values: Iterable[str | None]) -> str:
    """``{"a","b\\"c",NULL}``: every element quoted, backslash and double quote escaped; cast
    it with ``::text[]``."""
    values = list(values)
    if not values:
        return "{}"
    if None not in values:
        plain = "".join(values)
        if '"' not in plain and "\\" not in plain:  # the usual case: nothing to escape
            return '{"' + '","'.join(values) + '"}'
    return (
        "{"
        + ",".join(
            "NULL" if v is None else '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
            for v in values
        )
        + "}"
    )
