"""Ledger legs become a table partitioned by month of their transaction's ``posted_at``
(README "Retention"), and archived months are carried forward per account.

- ``ledger_leg`` gets a ``posted_at`` column, filled from each leg's transaction for the legs
  already there; every row, id and the identity sequence's position are kept, and so are the
  indexes (``leg_account_amount_idx``, ``leg_bet_ref_idx``, the transaction index), the check
  ``leg_amount_nonzero``, the grants and the append-only triggers (cloned to every partition;
  each partition also refuses TRUNCATE). The primary key is (id, posted_at) in the database;
  the model keeps ``id``.
- ``ledger_leg_after_insert`` (wallet balances, the queue of the deferred balance check) is a
  statement trigger with a transition table: dropped with the old table, created again on the
  partitioned parent, and on every partition too (``casino_partition_protect``), because an
  INSERT straight into a partition fires that partition's statement triggers, not the parent's.
- The balance check (migration 0003) also refuses a leg whose ``posted_at`` is not its
  transaction's (so a transaction's legs all live in one partition and are all summed), and
  sums only that partition (``posted_at = <the transaction's>``: runtime pruning).
- ``ledger_carryforward``: per account and archived month, the sum of its legs, written by the
  detach (``casino.retention``); append-only.

The legs are copied under an ACCESS EXCLUSIVE lock: on a large ledger run it in a maintenance
window. Irreversible, as audit 0007 and tables 0011.
"""

import django.db.models.deletion
from django.db import migrations, models

from casino.dbsql import PARTITIONS_ENSURE_FUNCTION, append_only_sql, partitioned_convert_sql

BALANCE_CHECK = """
ALTER TABLE ledger_balance_check ADD COLUMN posted_at timestamptz;

CREATE OR REPLACE FUNCTION ledger_legs_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    bad record;
BEGIN
    SELECT n.account_id, n.currency, a.currency AS account_currency INTO bad
        FROM new_rows AS n LEFT JOIN ledger_account AS a ON a.id = n.account_id
        WHERE a.id IS NULL OR a.currency <> n.currency LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'ledger leg on account % in %: the account %', bad.account_id,
            bad.currency,
            coalesce('holds ' || bad.account_currency, 'does not exist')
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_leg_account';
    END IF;
    INSERT INTO ledger_balance_check (transaction_id, posted_at)
        SELECT DISTINCT transaction_id, posted_at FROM new_rows;
    UPDATE ledger_account AS a SET balance = a.balance + s.delta
        FROM (SELECT account_id, sum(amount) AS delta FROM new_rows GROUP BY account_id) AS s
        WHERE a.id = s.account_id AND a.kind = 'wallet' AND s.delta <> 0;
    RETURN NULL;
END
$$;

-- As in migration 0003, plus: every leg queued (with its posted_at) must carry its
-- transaction's posted_at, so the sum below, pruned to that one partition, sees every leg.
CREATE OR REPLACE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    part record;
    legs bigint := 0;
    posted timestamptz;
    stray timestamptz;
BEGIN
    DELETE FROM ledger_balance_check WHERE id = NEW.id;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    SELECT posted_at INTO posted FROM ledger_transaction WHERE id = NEW.transaction_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'ledger legs refer to transaction %, which does not exist',
            NEW.transaction_id
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_leg_transaction';
    END IF;
    WITH queued AS (
        DELETE FROM ledger_balance_check WHERE transaction_id = NEW.transaction_id
        RETURNING posted_at
    )
    SELECT q.posted_at INTO stray
        FROM (SELECT posted_at FROM queued UNION ALL SELECT NEW.posted_at) AS q
        WHERE q.posted_at IS NOT NULL AND q.posted_at <> posted LIMIT 1;
    IF stray IS NOT NULL THEN
        RAISE EXCEPTION 'ledger transaction % is posted at %: its legs must carry that '
            'posted_at, not %', NEW.transaction_id, posted, stray
            USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_leg_posted_at';
    END IF;
    FOR part IN
        SELECT currency, sum(amount) AS total, count(*) AS n FROM ledger_leg
        WHERE transaction_id = NEW.transaction_id AND posted_at = posted GROUP BY currency
    LOOP
        IF part.total <> 0 THEN
            RAISE EXCEPTION 'ledger transaction % does not balance: its % legs sum to %',
                NEW.transaction_id, part.currency, part.total
                USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_balanced';
        END IF;
        legs := legs + part.n;
    END LOOP;
    IF legs < 2 THEN
        RAISE EXCEPTION 'ledger transaction % has % legs; at least two are needed',
            NEW.transaction_id, legs
            USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_balanced';
    END IF;
    RETURN NULL;
END
$$;
"""

# Every existing leg takes its transaction's posted_at (a leg without one would be refused by
# NOT NULL: none can exist, the balance check has always required the transaction).
LEGS_CONVERT = partitioned_convert_sql(
    "ledger_leg",
    append_only=True,
    new_key_column="posted_at timestamptz NOT NULL",
    copy_select=(
        "SELECT l.*, t.posted_at FROM {old} AS l "
        "LEFT JOIN ledger_transaction AS t ON t.id = l.transaction_id"
    ),
)

LEGS_TRIGGER = """
CREATE TRIGGER ledger_leg_after_insert AFTER INSERT ON ledger_leg
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_legs_inserted();
"""


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0006_webhook_standard"),
        ("audit", "0007_partitioned_events"),
        ("tables", "0011_partitioned_round_events"),
    ]

    operations = [
        migrations.RunSQL(PARTITIONS_ENSURE_FUNCTION),
        migrations.RunSQL(BALANCE_CHECK),
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunSQL(LEGS_CONVERT), migrations.RunSQL(LEGS_TRIGGER)],
            state_operations=[
                migrations.AddField(
                    model_name="leg",
                    name="posted_at",
                    field=models.DateTimeField(),
                    preserve_default=False,
                ),
            ],
        ),
        migrations.CreateModel(
            name="CarryForward",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("currency", models.CharField(max_length=3)),
                ("month", models.DateField()),
                ("amount", models.BigIntegerField()),
                ("legs", models.BigIntegerField()),
                ("recorded_at", models.DateTimeField()),
                (
                    "account",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="carried",
                        to="ledger.account",
                    ),
                ),
            ],
            options={
                "ordering": ["month", "account"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("account", "month"), name="carry_forward_unique"
                    )
                ],
            },
        ),
        migrations.RunSQL(append_only_sql("ledger_carryforward")),
    ]
