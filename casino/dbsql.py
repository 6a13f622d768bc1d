"""SQL that migrations share: append-only protection for tables that must never change.

UPDATE, DELETE and TRUNCATE on a protected table are refused by triggers, whoever issues them,
always loudly (an exception, never a silently skipped row). The one exception is TRUNCATE by a
superuser that sets ``casino.maintenance = on`` for its session (the test suite's flush between
tests does): a superuser can drop these triggers anyway, so the switch grants nothing new. No
setting turns an UPDATE or DELETE of a protected row into anything but an error: there is no
maintenance procedure that rewrites history, only new rows (corrections, reversals) that
record what changed, by whom and why. The application's own role (README, "Database roles")
is no superuser and lacks UPDATE, DELETE and TRUNCATE privileges on these tables in the first
place: making a table append-only also revokes those privileges from every role but its owner,
so default privileges granted to the application role never reach a table created later.
"""

from datetime import UTC, date, datetime, timedelta


def month_bounds(month: date) -> tuple[datetime, datetime]:
    """The UTC instants a month partition covers (``TIME_PARTITIONED``): its first, and the
    first of the month after."""
    after = (month.replace(day=1) + timedelta(days=32)).replace(day=1)
    return (
        datetime(month.year, month.month, 1, tzinfo=UTC),
        datetime(after.year, after.month, 1, tzinfo=UTC),
    )


REFUSE_CHANGE_FUNCTION = """
CREATE OR REPLACE FUNCTION casino_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' AND current_setting('casino.maintenance', true) = 'on'
       AND (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RETURN NULL;  -- a statement trigger: the TRUNCATE goes ahead
    END IF;
    RAISE EXCEPTION 'append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END
$$;
"""
DROP_REFUSE_CHANGE_FUNCTION = "DROP FUNCTION IF EXISTS casino_refuse_change() CASCADE;"


def append_only_sql(table: str) -> str:
    return f"""
    {REFUSE_CHANGE_FUNCTION}
    CREATE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table}
        FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();
    CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}
        FOR EACH STATEMENT EXECUTE FUNCTION casino_refuse_change();
    {revoke_change_privileges_sql(table)}
    """


def revoke_change_privileges_sql(table: str) -> str:
    """Take UPDATE, DELETE and TRUNCATE on ``table`` from every role except its owner."""
    return f"""
    DO $$
    DECLARE grantee_name text;
    BEGIN
        FOR grantee_name IN
            SELECT DISTINCT CASE WHEN acl.grantee = 0 THEN 'PUBLIC'
                                 ELSE quote_ident(pg_get_userbyid(acl.grantee)) END
            FROM pg_class AS rel, aclexplode(rel.relacl) AS acl
            WHERE rel.oid = '{table}'::regclass AND acl.grantee <> rel.relowner
              AND acl.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
        LOOP
            EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %I FROM %s',
                           '{table}', grantee_name);
        END LOOP;
    END
    $$;
    """


def append_only_reverse_sql(table: str) -> str:
    return f"""
    DROP TRIGGER IF EXISTS {table}_no_change ON {table};
    DROP TRIGGER IF EXISTS {table}_no_truncate ON {table};
    """


# --- Time partitioning (casino/retention: README "Retention") ---------------------------------
# The append-only tables partitioned by month (UTC, so a partition holds whole gaming days),
# with the column that routes a row. A table's primary key becomes (id, that column): PostgreSQL
# wants the partition key in every unique index; ``id`` stays unique, as every id is drawn from
# the table's one identity sequence, and the models keep ``id`` as their primary key.
TIME_PARTITIONED = {
    "audit_auditevent": "occurred_at",
    "tables_roundevent": "created_at",
    "ledger_leg": "posted_at",  # its transaction's posted_at (ledger 0007)
}
# Unique indexes PostgreSQL cannot keep across partitions, kept per partition instead (a round's
# events can straddle a month boundary only within the minutes the round lasts).
PARTITION_LOCAL_UNIQUE = {"tables_roundevent": "(round_id, seq)"}

# Creates the monthly partitions of ``parent`` from ``first_month`` through the month
# ``months_ahead`` after the current one, those not there yet; returns their names. SECURITY
# DEFINER: the application's role (which may not create tables) runs it from the beat task,
# with the rights of the function's owner (the schema owner, ``db_roles_setup``), for the
# tables named in it only. A row already in the DEFAULT partition for a month being created
# makes the CREATE fail: loudly, by design (README "Retention").
PARTITIONS_ENSURE_FUNCTION = """
CREATE OR REPLACE FUNCTION casino_partitions_ensure(parent text, first_month date,
                                                    months_ahead integer)
RETURNS SETOF text LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
    month date;
    last_month date;
    part text;
BEGIN
    IF parent NOT IN ({tables}) THEN
        RAISE EXCEPTION 'casino_partitions_ensure: % is not a time-partitioned table', parent;
    END IF;
    IF months_ahead NOT BETWEEN 0 AND 36 THEN
        RAISE EXCEPTION 'casino_partitions_ensure: months_ahead % out of 0..36', months_ahead;
    END IF;
    IF first_month < (now() - interval '20 years')::date THEN
        RAISE EXCEPTION 'casino_partitions_ensure: % is more than 20 years back', first_month;
    END IF;
    month := date_trunc('month', first_month)::date;
    last_month := (date_trunc('month', now() AT TIME ZONE 'UTC')
                   + make_interval(months => months_ahead))::date;
    WHILE month <= last_month LOOP
        part := parent || '_p' || to_char(month, 'YYYYMM');
        IF to_regclass(part) IS NULL THEN
            EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
                           part, parent, month::timestamp AT TIME ZONE 'UTC',
                           (month + interval '1 month')::timestamp AT TIME ZONE 'UTC');
            PERFORM casino_partition_protect(parent, part);
            RETURN NEXT part;
        END IF;
        month := (month + interval '1 month')::date;
    END LOOP;
END
$$;

-- What a partition needs beyond what it inherits: per-partition unique indexes; and, when the
-- parent is append-only, a TRUNCATE trigger (row triggers are cloned from the parent, statement
-- triggers are not) and no UPDATE or DELETE for anyone but the owner (default privileges may
-- have granted a new table's to the application's role).
CREATE OR REPLACE FUNCTION casino_partition_protect(parent text, part text)
RETURNS void LANGUAGE plpgsql SECURITY DEFINER AS $$
DECLARE
    grantee_name text;
BEGIN
    IF parent NOT IN ({tables}) THEN
        RAISE EXCEPTION 'casino_partition_protect: % is not a time-partitioned table', parent;
    END IF;
    {local_unique}
    IF parent = 'ledger_leg' THEN
        -- An INSERT through the parent fires the parent's statement triggers only, one
        -- straight into a partition its own: each partition moves wallet balances and queues
        -- the balance check like the parent (ledger 0003, 0007).
        EXECUTE format('CREATE OR REPLACE TRIGGER %I AFTER INSERT ON %I '
                       'REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT '
                       'EXECUTE FUNCTION ledger_legs_inserted()', part || '_after_insert', part);
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = parent::regclass
                   AND tgname = parent || '_no_truncate') THEN
        RETURN;  -- a parent that is not append-only (round events): nothing more to protect
    END IF;
    EXECUTE format('CREATE OR REPLACE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT '
                   'EXECUTE FUNCTION casino_refuse_change()', part || '_no_truncate', part);
    FOR grantee_name IN
        SELECT DISTINCT CASE WHEN acl.grantee = 0 THEN 'PUBLIC'
                             ELSE quote_ident(pg_get_userbyid(acl.grantee)) END
        FROM pg_class AS rel, aclexplode(rel.relacl) AS acl
        WHERE rel.oid = part::regclass AND acl.grantee <> rel.relowner
          AND acl.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')
    LOOP
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %I FROM %s', part, grantee_name);
    END LOOP;
END
$$;

DO $$ BEGIN
    -- A SECURITY DEFINER function must not resolve names through its caller's search path.
    EXECUTE format('ALTER FUNCTION casino_partitions_ensure(text, date, integer) '
                   'SET search_path = %I, pg_temp', current_schema());
    EXECUTE format('ALTER FUNCTION casino_partition_protect(text, text) '
                   'SET search_path = %I, pg_temp', current_schema());
END $$;
"""
PARTITIONS_ENSURE_FUNCTION = PARTITIONS_ENSURE_FUNCTION.replace(
    "{tables}", ", ".join(f"'{t}'" for t in TIME_PARTITIONED)
).replace(
    "{local_unique}",
    "\n    ".join(
        f"IF parent = '{t}' THEN EXECUTE format("
        f"'CREATE UNIQUE INDEX IF NOT EXISTS %I ON %I {cols}', part || '_unique', part); END IF;"
        for t, cols in PARTITION_LOCAL_UNIQUE.items()
    ),
)
DROP_PARTITIONS_FUNCTIONS = """
DROP FUNCTION IF EXISTS casino_partitions_ensure(text, date, integer);
DROP FUNCTION IF EXISTS casino_partition_protect(text, text);
"""


def partitioned_convert_sql(
    table: str,
    *,
    append_only: bool,
    months_ahead: int = 3,
    new_key_column: str = "",
    copy_select: str = "",
) -> str:
    """Turn ``table`` into one partitioned by month on its ``TIME_PARTITIONED`` column,
    keeping its rows, ids, identity sequence position, indexes, foreign keys, checks, grants
    and (``append_only``: it had it) its append-only protection.

    ``new_key_column``: the partition key is a column the table does not have yet (its SQL
    definition, added as the last column), filled by ``copy_select``: a SELECT of the old
    table's rows (``{old}`` names it) with the new column last.

    The rows are copied (an ACCESS EXCLUSIVE lock for the length of the copy: run it in a
    maintenance window on a large table; README "Retention"). Monthly partitions cover the
    months of the existing rows through ``months_ahead`` months after the current one; a
    DEFAULT partition catches a row outside them (a clock far off) rather than failing the
    business transaction that writes it.
    """
    key = TIME_PARTITIONED[table]
    old = f"{table}__unpartitioned"
    rows = copy_select.replace("{old}", old) if copy_select else f"SELECT * FROM {old}"
    new_column = f", {new_key_column}" if new_key_column else ""
    return f"""
    DO $$
    DECLARE
        seq_old text := pg_get_serial_sequence('{table}', 'id');
        seq_new text;
        seq_last bigint;
        seq_called boolean;
        first_month date;
        definition record;
        definitions text[] := '{{}}';
        grant_row record;
        statement text;
    BEGIN
        LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE;
        EXECUTE format('SELECT last_value, is_called FROM %s', seq_old)
            INTO seq_last, seq_called;
        ALTER TABLE {table} RENAME TO {old};
        EXECUTE format('ALTER SEQUENCE %s RENAME TO %I', seq_old, '{old}_id_seq');

        CREATE TABLE {table} (LIKE {old} INCLUDING DEFAULTS INCLUDING CONSTRAINTS
                              INCLUDING IDENTITY INCLUDING STORAGE INCLUDING COMPRESSION
                              {new_column})
            PARTITION BY RANGE ({key});
        seq_new := pg_get_serial_sequence('{table}', 'id');
        PERFORM setval(seq_new, seq_last, seq_called);
        -- The owner keeps the grants it had (the application's INSERT and SELECT).
        FOR grant_row IN
            SELECT CASE WHEN acl.grantee = 0 THEN 'PUBLIC'
                        ELSE quote_ident(pg_get_userbyid(acl.grantee)) END AS grantee,
                   acl.privilege_type
            FROM pg_class AS rel, aclexplode(rel.relacl) AS acl
            WHERE rel.oid = '{old}'::regclass AND acl.grantee <> rel.relowner
        LOOP
            EXECUTE format('GRANT %s ON {table} TO %s', grant_row.privilege_type,
                           grant_row.grantee);
        END LOOP;

        SELECT date_trunc('month', coalesce(min({key}), now()) AT TIME ZONE 'UTC')::date
            INTO first_month FROM ({rows}) AS old_rows;
        PERFORM casino_partitions_ensure('{table}', first_month, {int(months_ahead)});
        CREATE TABLE {table}_default PARTITION OF {table} DEFAULT;
        INSERT INTO {table} {rows};

        -- Its indexes and foreign keys, rebuilt under their own names once the rows are in
        -- (the primary key and unique constraints change shape: below and per partition).
        FOR definition IN
            SELECT pg_get_indexdef(ind.indexrelid) AS sql FROM pg_index AS ind
            WHERE ind.indrelid = '{old}'::regclass AND NOT ind.indisunique
        LOOP
            definitions := definitions || regexp_replace(
                definition.sql, ' ON (\\S+\\.)?{old} USING ', ' ON {table} USING ');
        END LOOP;
        FOR definition IN
            SELECT format('ALTER TABLE {table} ADD CONSTRAINT %I %s', conname,
                          pg_get_constraintdef(oid)) AS sql
            FROM pg_constraint WHERE conrelid = '{old}'::regclass AND contype = 'f'
        LOOP
            definitions := definitions || definition.sql;
        END LOOP;
        DROP TABLE {old};
        ALTER TABLE {table} ADD CONSTRAINT {table}_pkey PRIMARY KEY (id, {key});
        FOREACH statement IN ARRAY definitions LOOP
            EXECUTE statement;
        END LOOP;
    END
    $$;
    {append_only_sql(table) if append_only else ""}
    SELECT casino_partition_protect('{table}', part.relname::text)
    FROM pg_inherits JOIN pg_class AS part ON part.oid = pg_inherits.inhrelid
    WHERE pg_inherits.inhparent = '{table}'::regclass;
    """
