"""Fewer index writes per audit event (issue 13, "Database cost"): a bet writes two events.

- ``name``: one index instead of two. Django's ``db_index`` on a CharField built a plain index
  and a ``varchar_pattern_ops`` one; the pattern one alone serves every query on the column
  (exact names, ``IN`` and the audit browser's ``name_prefix``, a ``LIKE 'x%'``), so the plain
  one is dropped and the pattern one renamed, not rebuilt.
- ``operator_id``, ``table_id``, ``round_id``, ``wallet_id``: NULL on many events (a bet's
  ``bet_placed`` carries no wallet or operator, a deposit no table or round), so indexed only
  where present. Every query filters them by equality, which implies IS NOT NULL, so the
  planner still uses them.

On the partitioned parent, DROP/CREATE INDEX cascade to every attached partition.
"""

from django.db import migrations, models

_REFERENCES = {  # column: (the index Django's db_index built, the partial one)
    "operator_id": ("audit_auditevent_operator_id_7138f89d", "audit_operator_idx"),
    "table_id": ("audit_auditevent_table_id_10dbde97", "audit_table_idx"),
    "round_id": ("audit_auditevent_round_id_11bbc462", "audit_round_idx"),
    "wallet_id": ("audit_auditevent_wallet_id_9763c84d", "audit_wallet_idx"),
}

FORWARD = [
    "DROP INDEX IF EXISTS audit_auditevent_name_655de419",
    "ALTER INDEX audit_auditevent_name_655de419_like RENAME TO audit_name_idx",
] + [
    sql
    for column, (old, new) in _REFERENCES.items()
    for sql in (
        f"DROP INDEX IF EXISTS {old}",
        f"CREATE INDEX {new} ON audit_auditevent ({column}) WHERE {column} IS NOT NULL",
    )
]
REVERSE = [
    "ALTER INDEX audit_name_idx RENAME TO audit_auditevent_name_655de419_like",
    "CREATE INDEX audit_auditevent_name_655de419 ON audit_auditevent (name)",
] + [
    sql
    for column, (old, new) in _REFERENCES.items()
    for sql in (f"DROP INDEX IF EXISTS {new}", f"CREATE INDEX {old} ON audit_auditevent ({column})")
]


class Migration(migrations.Migration):
    dependencies = [("audit", "0007_partitioned_events")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(FORWARD, REVERSE)],
            state_operations=[
                migrations.AlterField(
                    model_name="auditevent", name="name", field=models.CharField(max_length=80)
                ),
                *(
                    migrations.AlterField(
                        model_name="auditevent",
                        name=column,
                        field=models.BigIntegerField(blank=True, null=True),
                    )
                    for column in _REFERENCES
                ),
                migrations.AddIndex(
                    model_name="auditevent",
                    index=models.Index(
                        fields=["name"], name="audit_name_idx", opclasses=["varchar_pattern_ops"]
                    ),
                ),
                *(
                    migrations.AddIndex(
                        model_name="auditevent",
                        index=models.Index(
                            condition=models.Q((f"{column}__isnull", False)),
                            fields=[column],
                            name=new,
                        ),
                    )
                    for column, (_, new) in _REFERENCES.items()
                ),
            ],
        )
    ]
