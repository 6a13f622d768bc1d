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
