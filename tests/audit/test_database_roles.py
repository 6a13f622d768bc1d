"""The application's database role: INSERT and SELECT on evidence tables, nothing more."""

import uuid
from datetime import UTC, datetime

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from django.db.utils import DatabaseError

from audit.dbroles import app_grants_sql, append_only_tables, db_roles_setup
from audit.models import AuditEvent
from audit.services import audit_event_record
from casino.actors import Actor

pytestmark = pytest.mark.django_db


@pytest.fixture
def app_role():
    """A fresh application role granted as db_roles_setup grants it (rolled back after)."""
    role = f"casino_app_test_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE ROLE "{role}" NOLOGIN')
        cursor.execute("SELECT current_user")
        owner = cursor.fetchone()[0]
        for statement in app_grants_sql(cursor, app=role, owner=owner):
            cursor.execute(statement.as_string(cursor.connection))
    return role


def as_role(role: str, sql: str, params=()):
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f'SET LOCAL ROLE "{role}"')
        cursor.execute(sql, params)
        return cursor.fetchall() if cursor.description else cursor.rowcount


def refused(role: str, sql: str, params=()) -> str:
    with pytest.raises(DatabaseError) as excinfo:
        as_role(role, sql, params)
    return str(excinfo.value)


def test_the_evidence_tables_are_found_by_their_triggers():
    with connection.cursor() as cursor:
        tables = append_only_tables(cursor)
    assert {"audit_auditevent", "audit_auditseal"} <= set(tables)
    assert {"ledger_leg", "ledger_transaction", "ledger_carryforward"} <= set(tables)
    assert {LEG_PARTITION, "ledger_leg_default"} <= set(tables)


# The ledger's legs are partitioned by month (ledger 0007): the partitions, the DEFAULT one
# and the archived months' carry-forward are evidence too.
LEG_PARTITION = f"ledger_leg_p{datetime.now(UTC):%Y%m}"


@pytest.mark.parametrize(
    ("table", "column"),
    [
        ("audit_auditevent", "id"),
        ("audit_auditseal", "seq"),
        ("ledger_leg", "id"),
        (LEG_PARTITION, "id"),
        ("ledger_leg_default", "id"),
        ("ledger_carryforward", "id"),
    ],
)
def test_app_role_may_not_update_delete_or_truncate_evidence(app_role, table, column):
    audit_event_record(name="test.event", actor=Actor.system("tests"))
    for statement in (
        f"UPDATE {table} SET {column} = {column}",
        f"DELETE FROM {table}",
        f"TRUNCATE {table}",
    ):
        # Refused by the privilege system, before any trigger is consulted.
        assert f"permission denied for table {table}" in refused(app_role, statement)


def test_app_role_may_insert_and_select_audit_events(app_role):
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f'SET LOCAL ROLE "{app_role}"')
        event = audit_event_record(name="test.as_app", actor=Actor.system("tests"))
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == app_role
        assert AuditEvent.objects.get(pk=event.pk).name == "test.as_app"
        cursor.execute("RESET ROLE")


def test_app_role_keeps_ordinary_dml(app_role):
    as_role(app_role, "INSERT INTO auth_group (name) VALUES ('probe')")
    assert as_role(app_role, "UPDATE auth_group SET name = 'probe2' WHERE name = 'probe'") == 1
    assert as_role(app_role, "DELETE FROM auth_group WHERE name = 'probe'") == 0
    assert "permission denied" in refused(app_role, "TRUNCATE auth_group")


def test_setup_creates_both_roles_and_prints_idempotent_sql(capsys):
    suffix = uuid.uuid4().hex[:8]
    owner, app = f"casino_owner_{suffix}", f"casino_app_{suffix}"
    call_command("db_roles_setup", "--owner", owner, "--app", app, "--print-sql")
    printed = capsys.readouterr().out
    assert f'CREATE ROLE "{owner}" LOGIN' in printed
    assert f'REVOKE UPDATE, DELETE, TRUNCATE ON "audit_auditevent" FROM "{app}"' in printed
    with connection.cursor() as cursor:
        db_roles_setup(cursor, owner=owner, app=app, app_password="s3cret")
        again = db_roles_setup(cursor, owner=owner, app=app, execute=False)
        cursor.execute("SELECT tableowner FROM pg_tables WHERE tablename = 'audit_auditevent'")
        assert cursor.fetchone()[0] == owner
    assert f'ALTER ROLE "{owner}" LOGIN' in again[0]
    assert not any("OWNER TO" in s and "TABLE" in s for s in again), "nothing left to move"
    assert "audit_auditevent" in " ".join(again)
    assert refused(app, "DELETE FROM audit_auditevent").startswith("permission denied")
