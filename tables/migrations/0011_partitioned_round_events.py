"""Round events become a table partitioned by month of ``created_at`` (README "Retention").

As the audit log (audit 0007): rows, ids and the sequence kept, primary key (id, created_at) in
the database only. ``round_event_unique_seq`` (round, seq) cannot span partitions in
PostgreSQL; each partition carries it as a unique index of its own (``<partition>_unique``),
so the model's constraint stays in the migration state but not as one database constraint: a
later migration that alters it must use RunSQL. Round events were not append-only in the
database before, and are not made so here. Irreversible, as audit 0007.
"""

from django.db import migrations

from casino.dbsql import PARTITIONS_ENSURE_FUNCTION, partitioned_convert_sql


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0010_table_retired"),
        ("audit", "0007_partitioned_events"),
    ]

    operations = [
        migrations.RunSQL(PARTITIONS_ENSURE_FUNCTION),
        migrations.RunSQL(partitioned_convert_sql("tables_roundevent", append_only=False)),
    ]
