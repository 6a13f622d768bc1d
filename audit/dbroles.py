"""Two database roles: an owner that runs migrations, an application role that cannot rewrite.

``casino_owner`` owns the schema and every object in it, so only it can run DDL (migrations).
``casino_app`` gets DML on ordinary tables but only INSERT and SELECT on the append-only ones
(no UPDATE, DELETE or TRUNCATE), and default privileges carry that to tables created later.
Append-only tables are recognised by their ``casino_refuse_change`` triggers (casino/dbsql.py),
so the audit log, ledger legs and any later evidence table are covered without a list to keep.
Every statement is idempotent: run ``db_roles_setup`` after each deployment's migrations.
"""

from __future__ import annotations

from psycopg import sql

APPEND_ONLY_TABLES = """
    SELECT DISTINCT rel.relname FROM pg_trigger AS trg
    JOIN pg_class AS rel ON rel.oid = trg.tgrelid
    WHERE trg.tgfoid = 'casino_refuse_change'::regproc
      AND rel.relnamespace = current_schema()::regnamespace
    ORDER BY 1
"""
# Objects of the schema whose owner must change: tables, views, free-standing sequences (an
# identity or serial sequence follows its table) and functions (trigger functions included).
FOREIGN_OWNED_OBJECTS = """
    SELECT 'TABLE', rel.relname FROM pg_class AS rel
    WHERE rel.relnamespace = current_schema()::regnamespace AND rel.relkind IN ('r', 'p')
      AND pg_get_userbyid(rel.relowner) <> %(owner)s
    UNION ALL
    SELECT 'VIEW', rel.relname FROM pg_class AS rel
    WHERE rel.relnamespace = current_schema()::regnamespace AND rel.relkind IN ('v', 'm')
      AND pg_get_userbyid(rel.relowner) <> %(owner)s
    UNION ALL
    SELECT 'SEQUENCE', rel.relname FROM pg_class AS rel
    WHERE rel.relnamespace = current_schema()::regnamespace AND rel.relkind = 'S'
      AND pg_get_userbyid(rel.relowner) <> %(owner)s
      AND NOT EXISTS (SELECT 1 FROM pg_depend AS dep WHERE dep.objid = rel.oid
                      AND dep.classid = 'pg_class'::regclass AND dep.deptype IN ('a', 'i'))
    UNION ALL
    SELECT 'FUNCTION', pro.oid::regprocedure::text FROM pg_proc AS pro
    WHERE pro.pronamespace = current_schema()::regnamespace
      AND pg_get_userbyid(pro.proowner) <> %(owner)s
      AND NOT EXISTS (SELECT 1 FROM pg_depend AS dep WHERE dep.objid = pro.oid
                      AND dep.deptype = 'e')
"""


def append_only_tables(cursor) -> list[str]:
    cursor.execute(APPEND_ONLY_TABLES)
    return [name for (name,) in cursor.fetchall()]


def role_create_sql(cursor, *, role: str, password: str | None) -> list[sql.Composable]:
    cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
    verb = "ALTER" if cursor.fetchone() else "CREATE"
    statement = sql.SQL(verb + " ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE").format(
        sql.Identifier(role)
    )
    if password:
        statement = sql.SQL("{} PASSWORD {}").format(statement, sql.Literal(password))
    return [statement]


def ownership_sql(cursor, *, owner: str) -> list[sql.Composable]:
    """Give the database, the schema and everything in it to ``owner``."""
    cursor.execute("SELECT current_database(), current_schema()")
    database, schema = cursor.fetchone()
    statements: list[sql.Composable] = [
        sql.SQL("ALTER DATABASE {} OWNER TO {}").format(
            sql.Identifier(database), sql.Identifier(owner)
        ),
        sql.SQL("ALTER SCHEMA {} OWNER TO {}").format(
            sql.Identifier(schema), sql.Identifier(owner)
        ),
        sql.SQL("REVOKE CREATE ON SCHEMA {} FROM PUBLIC").format(sql.Identifier(schema)),
    ]
    cursor.execute(FOREIGN_OWNED_OBJECTS, {"owner": owner})
    for kind, name in cursor.fetchall():
        target = sql.SQL(name) if kind == "FUNCTION" else sql.Identifier(name)
        statements.append(
            sql.SQL("ALTER {} {} OWNER TO {}").format(sql.SQL(kind), target, sql.Identifier(owner))
        )
    return statements


def app_grants_sql(cursor, *, app: str, owner: str) -> list[sql.Composable]:
    """DML for ``app`` everywhere except UPDATE/DELETE/TRUNCATE on append-only tables."""
    cursor.execute("SELECT current_database(), current_schema()")
    database, schema = cursor.fetchone()
    app_id, owner_id, schema_id = map(sql.Identifier, (app, owner, schema))
    statements = [
        sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(sql.Identifier(database), app_id),
        sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(schema_id, app_id),
        sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {} TO {}").format(
            schema_id, app_id
        ),
        sql.SQL("REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA {} FROM {}").format(
            schema_id, app_id
        ),
        sql.SQL("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {} TO {}").format(
            schema_id, app_id
        ),
        sql.SQL(
            "ALTER DEFAULT PRIVILEGES FOR ROLE {} IN SCHEMA {} "
            "GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {}"
        ).format(owner_id, schema_id, app_id),
        sql.SQL(
            "ALTER DEFAULT PRIVILEGES FOR ROLE {} IN SCHEMA {} "
            "GRANT USAGE, SELECT ON SEQUENCES TO {}"
        ).format(owner_id, schema_id, app_id),
    ]
    statements += [
        sql.SQL("REVOKE UPDATE, DELETE, TRUNCATE ON {} FROM {}").format(sql.Identifier(t), app_id)
        for t in append_only_tables(cursor)
    ]
    return statements


def db_roles_setup(
    cursor,
    *,
    owner: str,
    app: str,
    owner_password: str | None = None,
    app_password: str | None = None,
    execute: bool = True,
) -> list[str]:
    """Create or update both roles, hand the schema to ``owner`` and grant ``app``.

    Needs a superuser (or a role with CREATEROLE that owns the database). Returns the SQL run
    (or, with ``execute=False``, the SQL that would run).
    """
    statements = [
        *role_create_sql(cursor, role=owner, password=owner_password),
        *role_create_sql(cursor, role=app, password=app_password),
    ]
    if execute:
        _run(cursor, statements)
    tail = [*ownership_sql(cursor, owner=owner), *app_grants_sql(cursor, app=app, owner=owner)]
    if execute:
        _run(cursor, tail)
    return [_text(cursor, s) for s in statements + tail]


def _run(cursor, statements: list[sql.Composable]) -> None:
    for statement in statements:
        cursor.execute(_text(cursor, statement))


def _text(cursor, statement: sql.Composable) -> str:
    return statement.as_string(cursor.connection)
