"""Rule-set and payout-schedule versions are immutable in the database, not only in Python.

A version's name, number and document can never change (editing creates a new version); a
version used by any round can't be deleted.
"""

from django.db import migrations

TABLES = ("tables_rulesetversion", "tables_payoutscheduleversion")

FUNCTION = """
CREATE OR REPLACE FUNCTION tables_rule_version_immutable() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF EXISTS (SELECT 1 FROM tables_round
                   WHERE rule_set_id = OLD.id AND TG_TABLE_NAME = 'tables_rulesetversion'
                      OR payout_schedule_id = OLD.id
                         AND TG_TABLE_NAME = 'tables_payoutscheduleversion') THEN
            RAISE EXCEPTION '% % v% is used by a round and can not be deleted',
                TG_TABLE_NAME, OLD.name, OLD.version USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN OLD;
    END IF;
    IF NEW.name IS DISTINCT FROM OLD.name OR NEW.version IS DISTINCT FROM OLD.version
       OR NEW.document::jsonb IS DISTINCT FROM OLD.document::jsonb THEN
        RAISE EXCEPTION '% % v% is immutable: create a new version instead',
            TG_TABLE_NAME, OLD.name, OLD.version USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql;
"""


def _forward():
    sql = [FUNCTION]
    for table in TABLES:
        sql.append(
            f"CREATE TRIGGER {table}_immutable BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION tables_rule_version_immutable();"
        )
    return "\n".join(sql)


def _reverse():
    sql = [f"DROP TRIGGER IF EXISTS {table}_immutable ON {table};" for table in TABLES]
    sql.append("DROP FUNCTION IF EXISTS tables_rule_version_immutable();")
    return "\n".join(sql)


class Migration(migrations.Migration):
    dependencies = [("tables", "0002_live_tables")]

    operations = [migrations.RunSQL(_forward(), _reverse())]
