import pytest
from django.db import connection, transaction
from django.db.utils import DatabaseError

from audit.models import AuditEvent
from audit.services import audit_event_record
from casino.actors import Actor

pytestmark = pytest.mark.django_db


def _refused(sql: str, params=()) -> str:
    with pytest.raises(DatabaseError) as excinfo, transaction.atomic(), connection.cursor() as cur:
        cur.execute("SET LOCAL casino.maintenance = 'off'")
        cur.execute(sql, params)
    return str(excinfo.value)


@pytest.fixture
def event():
    return audit_event_record(name="test.event", actor=Actor.system("tests"), payload={"a": 1})


def test_update_delete_and_truncate_are_refused_by_the_database(event):
    assert "append-only: UPDATE" in _refused(
        "UPDATE audit_auditevent SET name = 'x' WHERE id = %s", [event.pk]
    )
    assert "append-only: DELETE" in _refused(
        "DELETE FROM audit_auditevent WHERE id = %s", [event.pk]
    )
    assert "append-only: TRUNCATE" in _refused("TRUNCATE audit_auditevent")
    assert AuditEvent.objects.get(pk=event.pk).name == "test.event"


def test_the_maintenance_switch_needs_a_superuser(event):
    with connection.cursor() as cur:
        cur.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
        assert cur.fetchone()[0], "the test suite connects as a superuser"
        cur.execute("CREATE ROLE audit_probe_nosuper")
        cur.execute("GRANT ALL ON audit_auditevent TO audit_probe_nosuper")
    try:
        message = _refused(
            "SET LOCAL ROLE audit_probe_nosuper; SET LOCAL casino.maintenance = 'on'; "
            "DELETE FROM audit_auditevent WHERE id = %s",
            [event.pk],
        )
        assert "append-only: DELETE" in message
    finally:
        with connection.cursor() as cur:
            cur.execute("REVOKE ALL ON audit_auditevent FROM audit_probe_nosuper")
            cur.execute("DROP ROLE audit_probe_nosuper")


def test_content_hash_covers_the_canonical_event(event):
    from audit.canonical import canonical_json, sha256_hex
    from audit.services import audit_event_content

    stored = AuditEvent.objects.get(pk=event.pk)
    assert stored.content_hash == sha256_hex(canonical_json(audit_event_content(stored)))
    assert len(stored.content_hash) == 64
