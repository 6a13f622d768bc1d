"""Wake the live streams on commit: one NOTIFY per INSERT statement on tables_roundevent and
per table it wrote, delivered when the writing transaction commits (tables/streams.py)."""

from django.db import migrations

FORWARD = """
CREATE FUNCTION tables_roundevent_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r record;
BEGIN
    -- payload: "<table id> <txid> <max id>", the newest stream key the statement wrote
    FOR r IN SELECT table_id, max(txid) AS txid, max(id) AS id FROM new_rows GROUP BY table_id
    LOOP
        PERFORM pg_notify('tables_round_events', r.table_id || ' ' || r.txid || ' ' || r.id);
    END LOOP;
    RETURN NULL;
END
$$;
CREATE TRIGGER tables_roundevent_notify AFTER INSERT ON tables_roundevent
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tables_roundevent_notify();
"""

REVERSE = """
DROP TRIGGER tables_roundevent_notify ON tables_roundevent;
DROP FUNCTION tables_roundevent_notify();
"""


class Migration(migrations.Migration):
    dependencies = [("tables", "0005_settlement_storage")]

    operations = [migrations.RunSQL(FORWARD, REVERSE)]
