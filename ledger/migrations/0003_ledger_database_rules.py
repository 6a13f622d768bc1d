"""The ledger's rules, enforced by PostgreSQL for every writer (the ORM, raw SQL, COPY).

1. A leg's currency is its account's currency: composite foreign key (account_id, currency).
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
ALTER TABLE ledger_account ADD CONSTRAINT ledger_account_id_currency_key UNIQUE (id, currency);
ALTER TABLE ledger_leg ADD CONSTRAINT ledger_leg_account_currency_fk
    FOREIGN KEY (account_id, currency) REFERENCES ledger_account (id, currency);

CREATE TABLE ledger_balance_check (transaction_id bigint NOT NULL);

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
BEGIN
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

CREATE FUNCTION ledger_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    off record;
    legs bigint;
BEGIN
    DELETE FROM ledger_balance_check WHERE transaction_id = NEW.transaction_id;
    SELECT currency, sum(amount) AS total INTO off FROM ledger_leg
        WHERE transaction_id = NEW.transaction_id
        GROUP BY currency HAVING sum(amount) <> 0 LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'ledger transaction % does not balance: its % legs sum to %',
            NEW.transaction_id, off.currency, off.total
            USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_transaction_balanced';
    END IF;
    SELECT count(*) INTO legs FROM ledger_leg WHERE transaction_id = NEW.transaction_id;
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
-- UPDATE of an account would otherwise desynchronise it from the legs.
CREATE FUNCTION ledger_account_guard_balance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.balance IS DISTINCT FROM OLD.balance AND pg_trigger_depth() < 2 THEN
        RAISE EXCEPTION 'account % balance is maintained from its legs; post a transaction',
            OLD.id USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER ledger_account_guard_balance BEFORE UPDATE OF balance ON ledger_account
    FOR EACH ROW EXECUTE FUNCTION ledger_account_guard_balance();
"""

REVERSE = """
DROP TRIGGER IF EXISTS ledger_account_guard_balance ON ledger_account;
DROP FUNCTION IF EXISTS ledger_account_guard_balance();
DROP TABLE IF EXISTS ledger_balance_check;
DROP FUNCTION IF EXISTS ledger_check_balanced();
DROP TRIGGER IF EXISTS ledger_leg_after_insert ON ledger_leg;
DROP FUNCTION IF EXISTS ledger_legs_inserted();
DROP TRIGGER IF EXISTS ledger_transaction_queue_check ON ledger_transaction;
DROP FUNCTION IF EXISTS ledger_transactions_inserted();
ALTER TABLE ledger_leg DROP CONSTRAINT IF EXISTS ledger_leg_account_currency_fk;
ALTER TABLE ledger_account DROP CONSTRAINT IF EXISTS ledger_account_id_currency_key;
"""


class Migration(migrations.Migration):
    dependencies = [("ledger", "0002_ledger")]

    operations = [
        migrations.RunSQL(FORWARD, REVERSE),
        migrations.RunSQL(
            append_only_sql("ledger_transaction"), append_only_reverse_sql("ledger_transaction")
        ),
        migrations.RunSQL(append_only_sql("ledger_leg"), append_only_reverse_sql("ledger_leg")),
    ]
