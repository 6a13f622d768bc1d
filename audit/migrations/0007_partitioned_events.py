"""The audit log becomes a table partitioned by month of ``occurred_at`` (README "Retention").

Every row, id and the identity sequence's position are kept; the primary key becomes
(id, occurred_at) in the database (ids stay unique: one sequence draws them all) while the
model keeps ``id`` as its key, so the migration state does not change. Partitions are created
ahead by ``casino_partitions_ensure`` (the beat task ``retention.partitions_ensure``), and old
ones detached to the archive once their gaming days are exported (``casino/retention``).
Irreversible: going back means copying every row again, which no deployment should do in a hurry.
"""

from django.db import migrations

from casino.dbsql import PARTITIONS_ENSURE_FUNCTION, partitioned_convert_sql


class Migration(migrations.Migration):
    dependencies = [("audit", "0006_append_only_refuses_loudly")]

    operations = [
        migrations.RunSQL(PARTITIONS_ENSURE_FUNCTION),
        migrations.RunSQL(partitioned_convert_sql("audit_auditevent", append_only=True)),
    ]
