"""Large JSON documents stored as PostgreSQL ``json`` (the text as written), not ``jsonb``.

A 10,000-bet round's settlement record and its operators' ``round.settled`` payloads are
megabytes written once and read whole: ``jsonb`` pays to parse them into its binary form on
every write (~70 ms each at 10,000 bets, bench/settle.py) for key lookups nobody makes on them.
``json`` keeps the text; the migrations also ask for lz4 TOAST compression where the server has
it (``lz4_column_sql``), which compresses megabytes ~3x faster than the default pglz.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import models
from psycopg.types.json import Json


class JSONText(models.JSONField):
    """A ``JSONField`` in a ``json`` column: compact text in, the parsed document out."""

    def db_type(self, connection) -> str:
        return "json"

    def from_db_value(self, value, expression, connection):
        # psycopg parses ``json`` itself (Django only registers a text loader for jsonb).
        if isinstance(value, str):
            return json.loads(value)
        return value

    def get_db_prep_value(self, value, connection, prepared=False):
        if not prepared:
            value = self.get_prep_value(value)
        if value is None:
            return None
        return Json(value, dumps=self._dumps)

    def _dumps(self, value: Any) -> str:
        return json.dumps(value, cls=self.encoder, separators=(",", ":"))


def lz4_column_sql(table: str, column: str) -> str:
    """SQL asking for lz4 compression of one column, a no-op on a server built without it."""
    return f"""
        DO $$ BEGIN
            ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION lz4;
        EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN NULL;
        END $$;
    """
