"""The balance check of a transaction inserted in the same database transaction runs from the
transaction row itself, not through the queue (issue 13, database cost per bet).

Until now every posting queued two rows in ``ledger_balance_check`` (one from the transaction's
INSERT, one from its legs') and the deferred trigger on the queue deleted them again at commit:
two inserts and three deletes with their index entries and WAL, per bet. Now:

- ``ledger_transaction_balanced_at_commit``: a DEFERRABLE INITIALLY DEFERRED constraint trigger
  on ``ledger_transaction`` itself checks each new transaction at commit: its legs (all in its
  ``posted_at``'s partition) balance per currency and are at least two. It replaces the
  statement trigger that queued every new transaction.
- The legs trigger refuses at once a leg whose transaction exists with another ``posted_at``,
  and queues only the legs whose transaction this database transaction did not insert (legs
  added to an older transaction, or legs written before their transaction row): those are
  still checked at commit by ``ledger_check_balanced`` (migrations 0003, 0007), which also
  refuses legs of a transaction that never appears.

A transaction inserted in a subtransaction has that subtransaction's xid, so its later legs are
queued too: one check more, never one less.
"""

from django.db import migrations

FORWARD = """
CREATE FUNCTION ledger_transaction_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    part record;
    legs bigint := 0;
BEGIN
    FOR part IN
        SELECT currency, sum(amount) AS total, count(*) AS n FROM ledger_leg
        WHERE transaction_id = NEW.id AND posted_at = NEW.posted_at GROUP BY currency
    LOOP
        IF part.total <> 0 THEN
            RAISE EXCEPTION 'ledger transaction % does not balance: its % legs sum to %',
                NEW.id, part.currency, part.total
                USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_balanced';
        END IF;
        legs := legs + part.n;
    END LOOP;
    IF legs < 2 THEN
        RAISE EXCEPTION 'ledger transaction % has % legs; at least two are needed',
            NEW.id, legs
            USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_balanced';
    END IF;
    RETURN NULL;
END
$$;

DROP TRIGGER ledger_transaction_queue_check ON ledger_transaction;
DROP FUNCTION ledger_transactions_inserted();

CREATE CONSTRAINT TRIGGER ledger_transaction_balanced_at_commit AFTER INSERT ON ledger_transaction
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION ledger_transaction_check();

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
    SELECT n.transaction_id, t.posted_at, n.posted_at AS leg_posted_at INTO bad
        FROM new_rows AS n JOIN ledger_transaction AS t ON t.id = n.transaction_id
        WHERE n.posted_at <> t.posted_at LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'ledger transaction % is posted at %: its legs must carry that '
            'posted_at, not %', bad.transaction_id, bad.posted_at, bad.leg_posted_at
            USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_leg_posted_at';
    END IF;
    -- A transaction this database transaction inserted is checked from its own row at commit.
    INSERT INTO ledger_balance_check (transaction_id, posted_at)
        SELECT DISTINCT n.transaction_id, n.posted_at
        FROM new_rows AS n LEFT JOIN ledger_transaction AS t ON t.id = n.transaction_id
        WHERE t.id IS NULL OR t.xmin <> pg_current_xact_id()::xid;
    UPDATE ledger_account AS a SET balance = a.balance + s.delta
        FROM (SELECT account_id, sum(amount) AS delta FROM new_rows GROUP BY account_id) AS s
        WHERE a.id = s.account_id AND a.kind = 'wallet' AND s.delta <> 0;
    RETURN NULL;
END
$$;
"""


class Migration(migrations.Migration):
    dependencies = [("ledger", "0008_transaction_index_diet")]

    operations = [migrations.RunSQL(FORWARD)]
