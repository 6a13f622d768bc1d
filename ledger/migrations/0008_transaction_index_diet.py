"""Fewer index writes per posting (issue 13, "Database cost"): every bet posts a transaction.

- ``reference`` stays unique under the constraint's own name, without the varchar_pattern_ops
  index Django's ``unique=True`` added beside it (no query looks references up by prefix; the
  admin's search is a contains, which no btree serves). State only, plus one DROP INDEX.
- ``reverses``, set on reversals only, is indexed where present (the reverse lookup and the
  PROTECT check are equalities, which imply IS NOT NULL).

Numbered 0008 after 0006: another branch adds ledger 0007; renumber at merge.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("ledger", "0007_partitioned_legs")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    [
                        "DROP INDEX IF EXISTS ledger_transaction_reference_30876d8b_like",
                        "DROP INDEX IF EXISTS ledger_transaction_reverses_id_f312c56d",
                        "CREATE INDEX ledger_txn_reverses_idx ON ledger_transaction (reverses_id)"
                        " WHERE reverses_id IS NOT NULL",
                    ],
                    [
                        "CREATE INDEX ledger_transaction_reference_30876d8b_like"
                        " ON ledger_transaction (reference varchar_pattern_ops)",
                        "DROP INDEX IF EXISTS ledger_txn_reverses_idx",
                        "CREATE INDEX ledger_transaction_reverses_id_f312c56d"
                        " ON ledger_transaction (reverses_id)",
                    ],
                )
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="transaction",
                    name="reference",
                    field=models.CharField(max_length=120),
                ),
                migrations.AlterField(
                    model_name="transaction",
                    name="reverses",
                    field=models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="reversed_by",
                        to="ledger.transaction",
                    ),
                ),
                migrations.AddIndex(
                    model_name="transaction",
                    index=models.Index(
                        condition=models.Q(("reverses__isnull", False)),
                        fields=["reverses"],
                        name="ledger_txn_reverses_idx",
                    ),
                ),
                migrations.AddConstraint(
                    model_name="transaction",
                    constraint=models.UniqueConstraint(
                        fields=("reference",), name="ledger_transaction_reference_key"
                    ),
                ),
            ],
        )
    ]
