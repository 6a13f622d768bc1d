"""Rows of the bet path without the ORM's per-statement SQL compilation.

The ORM compiles a statement's SQL every time: ~0.5 ms of CPU for a one-row lookup or insert,
several times what the round trip itself costs a worker. The statements here are built once
per process from the model's own metadata and executed as they are:

- ``model_first``: rows become model instances through Django's own converters (JSON, dates)
  and ``Model.from_db``, the objects a queryset returns (no select_related: read related rows
  by id);
- ``model_insert`` / ``model_update``: the values are prepared by each field as
  ``Model.save`` would (defaults, ``auto_now(_add)``, JSON); an insert leaves the columns with
  a database default to the database and sets the new primary keys on the objects. No
  ``pre_save``/``post_save`` signals are sent: use them for models nothing listens to;
- ``model_remember`` / ``model_update_changed``: write back only the columns that changed
  since the row was read (under its lock);
- ``Along``: a caller's statement another function sends first in its own round trip (a bet's
  INSERT with its stake's posting).

They run as prepared statements (``execute_prepared``): PostgreSQL plans each once per
connection instead of on every execution, where planning cost a bet's small statements more
than running them (EXPLAIN ANALYZE: 0.2 ms planning against 0.15 ms execution).
"""

from __future__ import annotations

import hashlib
import re
import weakref
from collections.abc import Iterable, Mapping, Sequence
from functools import cache, partial
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

from django.db import connection, models
from django.db.models import NOT_PROVIDED, Model
from django.db.models.sql import Query

M = TypeVar("M", bound=Model)

_PLACEHOLDER = re.compile(r"%\((\w+)\)s|%s|%%")
# Per database connection (a new connection starts with none): the statements prepared on it.
_prepared: WeakKeyDictionary[Any, set[str]] = WeakKeyDictionary()
_unsure: WeakKeyDictionary[Any, set[str]] = WeakKeyDictionary()


@cache
def _preparing(sql: str) -> tuple[str, str, tuple[str, ...] | None, int]:
    """The statement's name, its body with ``$n`` parameters, the names of its ``%(name)s``
    parameters in ``$n`` order (None: positional ``%s``), and their count."""
    names: list[str] = []
    count = 0

    def number(match: re.Match) -> str:
        nonlocal count
        if match.group(0) == "%%":
            return "%%"  # still a psycopg template: PREPARE is sent with the EXECUTE's values
        if match.group(1) is None:
            count += 1
            return f"${count}"
        if match.group(1) not in names:
            names.append(match.group(1))
        return f"${names.index(match.group(1)) + 1}"

    body = _PLACEHOLDER.sub(number, sql)
    name = "rows_" + hashlib.sha256(sql.encode()).hexdigest()[:20]
    return name, body, (tuple(names) if names else None), len(names) or count


def execute_prepared(cursor, sql: str, params: Sequence | Mapping[str, Any]) -> None:
    """``cursor.execute(sql, params)`` as a prepared statement of the connection: prepared in
    the same round trip the first time the connection runs it, then only executed. For
    statements run again and again with few parameters (not a many-row INSERT: each shape
    would stay prepared). Needs client-side binding (Django's default with psycopg 3)."""
    execute_prepared_all(cursor, [(sql, params)])


def execute_prepared_all(cursor, statements: Sequence[tuple[str, Sequence | Mapping]]) -> None:
    """``execute_prepared`` of several statements in one round trip, run one after the other
    (each its own statement: under READ COMMITTED each takes its snapshot when it starts).
    The cursor is on the first one's result; ``cursor.nextset()`` moves to the next."""
    prepares, executes, values, preparing = [], [], [], []
    done = _prepared.setdefault(cursor.connection, set())
    for sql, params in statements:
        name, body, names, count = _preparing(sql)
        row = [params[n] for n in names] if names is not None else list(params)
        if len(row) != count:
            raise ValueError(f"{count} parameters expected, {len(row)} given")
        if name not in done and name in _unsure.get(cursor.connection, ()):
            # It failed the first time: prepared or not, depending on which part failed (a
            # PREPARE stays when its transaction rolls back).
            cursor.execute("SELECT 1 FROM pg_prepared_statements WHERE name = %s", [name])
            if cursor.fetchone():
                done.add(name)
        if name not in done and name not in preparing:
            prepares.append(f"PREPARE {name} AS {body}")
            preparing.append(name)
        executes.append(f"EXECUTE {name}" + (f"({', '.join(['%s'] * count)})" if count else ""))
        values.extend(row)
    try:
        cursor.execute("; ".join([*prepares, *executes]), values)
    except Exception:
        _unsure.setdefault(cursor.connection, set()).update(preparing)
        raise
    for _ in preparing:  # past the PREPAREs' (empty) results, sent first
        cursor.nextset()
    done.update(preparing)


@cache
def model_select_sql(
    model: type[Model], where: str, *, lock: str = "", fields: tuple[str, ...] | None = None
) -> str:
    """``SELECT <every column of model> FROM <its table> WHERE <where> [<lock>]`` (built once
    per process); ``fields``: only these (attribute names; the others are deferred, as by
    ``QuerySet.only``: read them with ``model_first(..., fields=)`` alike)."""
    columns = ", ".join(connection.ops.quote_name(f.column) for f in _selected(model, fields))
    table = connection.ops.quote_name(model._meta.db_table)
    return f"SELECT {columns} FROM {table} WHERE {where} {lock}".rstrip()


def model_first(
    model: type[M], sql: str, params: list, *, fields: tuple[str, ...] | None = None
) -> M | None:
    """The first row of ``sql`` (a ``model_select_sql`` statement, of the same ``fields``) as
    a ``model``, or None."""
    with connection.cursor() as cursor:
        execute_prepared(cursor, sql, params)
        row = cursor.fetchone()
    return model_from_row(model, row, fields=fields)


def model_from_row(
    model: type[M], row: tuple | None, *, fields: tuple[str, ...] | None = None
) -> M | None:
    """A row of a ``model_select_sql`` statement as a ``model`` (None for no row)."""
    if row is None:
        return None
    attnames, converters = _loading(model, fields)
    if converters:
        row = list(row)
        for index, convert in converters:
            row[index] = convert(row[index])
    return model.from_db(connection.alias, attnames, row)


def _selected(model: type[Model], fields: tuple[str, ...] | None) -> list:
    concrete = model._meta.concrete_fields
    return list(concrete) if fields is None else [f for f in concrete if f.attname in fields]


@cache
def _loading(model: type[Model], selected: tuple[str, ...] | None = None):
    """The attribute names of ``model``'s (``selected``) columns and, per column that needs
    them, the converters a queryset would apply (Django's, found once)."""
    fields = _selected(model, selected)
    compiler = Query(model).get_compiler(connection=connection)
    table = model._meta.db_table
    found = compiler.get_converters([f.get_col(table) for f in fields])
    converters = []
    for index, (functions, expression) in sorted(found.items()):
        converters.append((index, _chain(functions, expression)))
    return [f.attname for f in fields], converters


def _chain(functions, expression):
    def convert(value):
        for function in functions:
            value = function(value, expression, connection)
        return value

    return convert


def model_insert(*objs: Model, also: Sequence[tuple[str, list]] = ()) -> None:
    """Insert ``objs`` (all of one model) with one statement; sets their primary keys.
    ``also``: other data-modifying statements ``(sql, params)`` (an UPDATE, another model's
    ``model_insert_sql``) run by the same statement as ``WITH`` clauses, saving round trips;
    they must not touch the new rows, and what they return is not read."""
    sql, params = model_insert_sql(*objs, also=also)
    with connection.cursor() as cursor:
        if len(objs) <= 4:
            execute_prepared(cursor, sql, params)
        else:
            cursor.execute(sql, params)
        model_inserted(objs, cursor.fetchall())


def model_inserted(objs: Sequence[Model], rows: Sequence[tuple]) -> None:
    """Set what ``model_insert_sql``'s statement returned (the primary keys) on ``objs``."""
    _, _, _, returned = _inserting(type(objs[0]))
    for obj, values in zip(objs, rows, strict=True):
        for attname, value in zip(returned, values, strict=True):
            setattr(obj, attname, value)
        obj._state.adding = False
        obj._state.db = connection.alias


class Along:
    """A caller's statement that another function sends in the same round trip as its own:
    first (a bet's INSERT sent with its stake's posting) or, with ``after``, second (a bet's box
    lock sent after its wallet's, the lock order); ``rows`` holds what it returned once sent.
    ``run`` sends it alone."""

    def __init__(self, sql: str, params: Sequence | Mapping, *, after: bool = False):
        self.sql, self.params, self.after = sql, params, after
        self.rows: list[tuple] | None = None

    def send_with(self, cursor, statement: tuple[str, Sequence | Mapping]) -> list[tuple]:
        """Send this statement and ``statement`` in one round trip; keep this one's rows and
        return ``statement``'s."""
        mine = (self.sql, self.params)
        execute_prepared_all(cursor, [statement, mine] if self.after else [mine, statement])
        first = cursor.fetchall()
        cursor.nextset()
        second = cursor.fetchall()
        self.rows, theirs = (second, first) if self.after else (first, second)
        return theirs

    def run(self) -> None:
        with connection.cursor() as cursor:
            execute_prepared(cursor, self.sql, self.params)
            self.rows = cursor.fetchall()


def model_insert_sql(*objs: Model, also: Sequence[tuple[str, list]] = ()) -> tuple[str, list]:
    """The INSERT of ``objs`` (all of one model) as ``model_insert`` runs it: (sql, params)."""
    model = type(objs[0])
    fields, columns, returning, _ = _inserting(model)
    row = f"({', '.join(['%s'] * len(fields))})"
    params = [prep(obj) for obj in objs for prep in _savers(model, fields, True)]
    sql = f"{columns} {', '.join([row] * len(objs))} {returning}"
    if also:
        clauses = ", ".join(f"_also{n} AS ({clause})" for n, (clause, _) in enumerate(also))
        sql = f"WITH {clauses} {sql}"
        params = [*(p for _, clause_params in also for p in clause_params), *params]
    return sql, params


_INTEGERS = (
    models.IntegerField, models.BigIntegerField, models.SmallIntegerField,
    models.PositiveIntegerField, models.PositiveBigIntegerField, models.PositiveSmallIntegerField,
    models.AutoField, models.BigAutoField, models.SmallAutoField,
)  # fmt: skip
_PLAIN = {
    **dict.fromkeys(_INTEGERS, int),
    models.CharField: str,
    models.TextField: str,
    models.BooleanField: bool,
}


@cache
def _savers(model: type[Model], fields: Sequence, add: bool) -> list:
    """Per field, its value of an object prepared as ``Model.save`` prepares it. A field of a
    plain kind (exactly an integer, text or boolean field, or a key to an integer key) takes
    a value of its own Python type, or None, as it is, which is all its preparation would do
    to it: that preparation was ~5 % of a bet's CPU in the web worker under cProfile."""
    savers = []
    for f in fields:
        kind = type(f.target_field) if isinstance(f, models.ForeignKey) else type(f)
        plain = _PLAIN.get(kind)
        if plain is not None and type(f).pre_save is models.Field.pre_save:
            # the type the backend sends such a value as (psycopg's Int4 for an integer field)
            sent = type(f.get_db_prep_save(plain(), connection))
            savers.append(_plain_saver(f, plain, sent))
        else:
            savers.append(partial(_saved, f, add))
    return savers


def _saved(field, add: bool, obj: Model):
    return field.get_db_prep_save(field.pre_save(obj, add), connection)


def _plain_saver(field, plain: type, sent: type):
    attname = field.attname

    def prepared(obj: Model):
        value = getattr(obj, attname)
        if value is None:
            return None
        if type(value) is plain:
            return value if sent is plain else sent(value)
        return field.get_db_prep_save(value, connection)

    return prepared


@cache
def _inserting(model: type[Model]) -> tuple[Sequence, str, str, list[str]]:
    """The fields written, ``INSERT INTO ... VALUES``, ``RETURNING ...`` and what it returns
    (the generated key and the columns the database fills)."""
    quote = connection.ops.quote_name
    written, returned = [], []
    for f in model._meta.concrete_fields:
        generated = f is model._meta.auto_field or f.db_default is not NOT_PROVIDED
        (returned if generated else written).append(f)
    columns = ", ".join(quote(f.column) for f in written)
    into = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES"
    returning = "RETURNING " + ", ".join(quote(f.column) for f in returned)
    return tuple(written), into, returning, [f.attname for f in returned]


def model_update(obj: Model, attnames: Sequence[str]) -> None:
    """Write these columns of ``obj``'s row (``save(update_fields=attnames)``)."""
    fields, sql = _updating(type(obj), tuple(attnames))
    params = [prep(obj) for prep in _savers(type(obj), tuple(fields), False)]
    with connection.cursor() as cursor:
        execute_prepared(cursor, sql, [*params, obj.pk])


@cache
def _updating(model: type[Model], attnames: tuple[str, ...]) -> tuple[list, str]:
    quote = connection.ops.quote_name
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    fields = [by_attname[name] for name in attnames]
    columns = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    table, pk = quote(model._meta.db_table), quote(model._meta.pk.column)
    return fields, f"UPDATE {table} SET {columns} WHERE {pk} = %s"


# The remembered column values, per instance by identity (a Model's == compares primary keys,
# and two instances of one row are two readings): dropped when the instance is.
_remembered: dict[int, dict[str, Any]] = {}


def model_remember(obj: Model, attnames: Iterable[str]) -> None:
    """Note ``obj``'s current values of these columns (as read under its row lock: nobody else
    changes them) for ``model_update_changed``."""
    key = id(obj)
    if key not in _remembered:
        weakref.finalize(obj, _remembered.pop, key, None)
    _remembered[key] = {name: getattr(obj, name) for name in attnames}


def model_remembered(obj: Model) -> bool:
    return id(obj) in _remembered


def model_update_changed(obj: Model, *, always: Sequence[str] = ()) -> None:
    """``model_update`` of ``always`` and of the remembered columns whose value changed (fewer
    bytes than the whole row, by statements built once); remembers the values written."""
    remembered = _remembered[id(obj)]
    changed = [name for name, value in remembered.items() if getattr(obj, name) != value]
    model_update(obj, [*always, *changed])
    model_remember(obj, remembered)
