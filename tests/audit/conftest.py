import pytest
from django.db import connection


@pytest.fixture
def empty_log(transactional_db):
    """Start from an empty audit log (a flush re-runs post_migrate, whose grants are audited).

    The root conftest lets the test suite's superuser sessions truncate append-only tables.
    """
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE audit_auditevent, audit_auditseal")
