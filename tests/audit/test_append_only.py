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


def test_the_maintenance_switch_never_silently_skips_a_row_change(event):
    """A superuser's maintenance session may TRUNCATE (the test suite's flush between tests),
    but an UPDATE or DELETE of a protected row raises: never a silent 0-row no-op."""
    for sql in (
        "UPDATE audit_auditevent SET name = 'x' WHERE id = %s",
        "DELETE FROM audit_auditevent WHERE id = %s",
    ):
        with (
            pytest.raises(DatabaseError, match=r"append-only: (UPDATE|DELETE)"),
            transaction.atomic(),
            connection.cursor() as cur,
        ):
            cur.execute("SET LOCAL casino.maintenance = 'on'")
            cur.execute(sql, [event.pk])
    assert AuditEvent.objects.get(pk=event.pk).name == "test.event"

    class Undo(Exception):
        pass

    with pytest.raises(Undo), transaction.atomic(), connection.cursor() as cur:
        cur.execute("SET LOCAL casino.maintenance = 'on'")
        cur.execute("TRUNCATE audit_auditevent")
        assert not AuditEvent.objects.exists()
        raise Undo  # roll the truncation back


def test_content_hash_covers_the_rfc8785_canonical_event(event):
    import hashlib

    import rfc8785

    from audit.canonical import content_hash_matches
    from audit.services import audit_event_content

    stored = AuditEvent.objects.get(pk=event.pk)
    content = audit_event_content(stored)
    assert stored.content_hash == "jcs:" + hashlib.sha256(rfc8785.dumps(content)).hexdigest()
    assert content_hash_matches(content, stored.content_hash)
    assert not content_hash_matches({**content, "name": "other"}, stored.content_hash)


def test_older_content_hashes_keep_their_canonical_form():
    """Events hashed before RFC 8785 (a bare hex hash of ``canonical_json``) still match, and
    the two forms really differ where floats are involved: the scheme is never guessed."""
    from audit.canonical import canonical_json, content_hash, content_hash_matches, sha256_hex

    content = {"payload": {"duration_s": 1.0, "big": 1e16, "name": "é\u2028"}}
    legacy = sha256_hex(canonical_json(content))
    assert content_hash_matches(content, legacy)
    assert content_hash(content) != "jcs:" + legacy
    assert not content_hash_matches(content, "jcs:" + legacy)
    too_big = {"amount": 2**60}  # RFC 8785 refuses integers beyond 2**53: the older form
    assert content_hash(too_big) == sha256_hex(canonical_json(too_big))
