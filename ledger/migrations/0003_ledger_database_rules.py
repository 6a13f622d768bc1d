"""The ledger's rules, enforced by PostgreSQL for every writer (the ORM, raw SQL, COPY).

1. A leg names an existing account in the leg's currency, and an existing transaction.
   Checked set-wise (once per INSERT statement for accounts, once per transaction at commit
   for the transaction) rather than by two per-row foreign keys: a 10,000-bet settlement
   writes ~17,000 legs in one statement, and per-row RI lookups were most of its cost.
   Accounts are never deleted and their kind and currency never change, so the check can't
   be invalidated later.
2. Every transaction balances to zero per currency and has at least two legs, checked at commit:
   statement-level triggers on ``ledger_transaction`` and ``ledger_leg`` queue one row per
   touched transaction in ``ledger_balance_check``; a DEFERRABLE INITIALLY DEFERRED constraint
   trigger on that queue sums the transaction's legs. One check per (statement, transaction)
   instead of hordak's one per leg keeps a 10,000-leg settlement linear.
3. Wallet balances are maintained by the database: the same legs trigger adds each statement's
   per-account sums to the wallet rows (one set-based UPDATE), and the CHECK
   ``account_wallet_never_negative`` refuses an overdraft. Nobody else may change ``balance``.
4. Legs and transactions are append-only (casino/dbsql.py).
"""

from django.db import migrations

from casino.dbsql import append_only_reverse_sql, append_only_sql

FORWARD = """
CREATE TABLE ledger_balance_check (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    transaction_id bigint NOT NULL
);
CREATE INDEX ledger_balance_check_transaction ON ledger_balance_check (transaction_id);

CREATE FUNCTION ledger_transactions_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO ledger_balance_check (transaction_id) SELECT id FROM new_rows;
    RETURN NULL;
END
$$;
CREATE TRIGGER ledger_transaction_queue_check AFTER INSERT ON ledger_transaction
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_transactions_inserted();

CREATE FUNCTION ledger_legs_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
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
    INSERT INTO ledger_balance_check (transaction_id)
        SELECT DISTINCT transaction_id FROM new_rows;
    UPDATE ledger_account AS a SET balance = a.balance + s.delta
        FROM (SELECT account_id, sum(amount) AS delta FROM new_rows GROUP BY account_id) AS s
        WHERE a.id = s.account_id AND a.kind = 'wallet' AND s.delta <> 0;
    RETURN NULL;
END
$$;
CREATE TRIGGER ledger_leg_after_insert AFTER INSERT ON ledger_leg
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_legs_inserted();

-- Runs at commit for each queued row. The first check of a transaction deletes all its queued
-- rows; a later trigger whose row is gone was covered by that check (which ran after the
-- statement that queued it), so it returns at once: one sum per transaction per commit.
CREATE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    part record;
    legs bigint := 0;
BEGIN
    DELETE FROM ledger_balance_check WHERE id = NEW.id;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    DELETE FROM ledger_balance_check WHERE transaction_id = NEW.transaction_id;
    IF NOT EXISTS (SELECT 1 FROM ledger_transaction WHERE id = NEW.transaction_id) THEN
        RAISE EXCEPTION 'ledger legs refer to transaction %, which does not exist',
            NEW.transaction_id
            USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'ledger_leg_transaction';
    END IF;
    FOR part IN
        SELECT currency, sum(amount) AS total, count(*) AS n FROM ledger_leg
        WHERE transaction_id = NEW.transaction_id GROUP BY currency
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
CREATE CONSTRAINT TRIGGER ledger_transaction_balanced AFTER INSERT ON ledger_balance_check
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION ledger_check_balanced();

-- Only the legs trigger (nesting depth 2) may move a balance; an ORM save() or a hand-written
-- UPDATE would desynchronise it from the legs. An account's kind and currency never change.
CREATE FUNCTION ledger_account_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.balance IS DISTINCT FROM OLD.balance AND pg_trigger_depth() < 2 THEN
        RAISE EXCEPTION 'account % balance is maintained from its legs; post a transaction',
            OLD.id USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.kind IS DISTINCT FROM OLD.kind OR NEW.currency IS DISTINCT FROM OLD.currency THEN
        RAISE EXCEPTION 'account % kind and currency never change', OLD.id
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER ledger_account_guard BEFORE UPDATE ON ledger_account
    FOR EACH ROW EXECUTE FUNCTION ledger_account_guard();
-- Accounts are permanent: legs refer to them without a per-row foreign key.
CREATE TRIGGER ledger_account_no_delete BEFORE DELETE ON ledger_account
    FOR EACH ROW EXECUTE FUNCTION casino_refuse_change();
"""

REVERSE = """
DROP TRIGGER IF EXISTS ledger_account_no_delete ON ledger_account;
DROP TRIGGER IF EXISTS ledger_account_guard ON ledger_account;
DROP FUNCTION IF EXISTS ledger_account_guard();
DROP TABLE IF EXISTS ledger_balance_check;
DROP FUNCTION IF EXISTS ledger_check_balanced();
DROP TRIGGER IF EXISTS ledger_leg_after_insert ON ledger_leg;
DROP FUNCTION IF EXISTS ledger_legs_inserted();
DROP TRIGGER IF EXISTS ledger_transaction_queue_check ON ledger_transaction;
DROP FUNCTION IF EXISTS ledger_transactions_inserted();
"""


class Migration(migrations.Migration):
    dependencies = [("ledger", "0002_ledger")]

    operations = [
        migrations.RunSQL(
            append_only_sql("ledger_transaction"), append_only_reverse_sql("ledger_transaction")
        ),
        migrations.RunSQL(append_only_sql("ledger_leg"), append_only_reverse_sql("ledger_leg")),
        migrations.RunSQL(FORWARD, REVERSE),
    ]
