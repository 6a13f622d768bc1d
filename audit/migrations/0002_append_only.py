"""The audit log is append-only in the database itself (see casino/dbsql.py)."""

from django.db import migrations

from casino.dbsql import append_only_reverse_sql, append_only_sql


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]

    operations = [
        migrations.RunSQL(
            append_only_sql("audit_auditevent"), append_only_reverse_sql("audit_auditevent")
        ),
    ]
