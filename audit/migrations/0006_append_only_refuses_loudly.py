"""UPDATE and DELETE on append-only tables raise even in a superuser's maintenance session.

Before, ``casino.maintenance = on`` turned them into silent 0-row no-ops; now that switch only
lets a superuser TRUNCATE (the test suite's flush). One function serves every append-only
table of every app, so replacing it here changes them all.
"""

from django.db import migrations

from casino.dbsql import REFUSE_CHANGE_FUNCTION

SILENT_BEFORE = """
CREATE OR REPLACE FUNCTION casino_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('casino.maintenance', true) = 'on'
       AND (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'append-only: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END
$$;
"""


class Migration(migrations.Migration):
    dependencies = [("audit", "0005_ed25519_scheme")]

    operations = [migrations.RunSQL(REFUSE_CHANGE_FUNCTION, SILENT_BEFORE)]
