import pytest
from django.test import Client

from audit.models import AuditEvent
from audit.services import audit_event_record
from casino.actors import Actor
from casino.api import roles
from tests.factories import UserFactory
from tests.helpers.staff import login_verified

pytestmark = pytest.mark.django_db


def test_the_admin_shows_events_read_only_and_records_who_looked():
    event = audit_event_record(name="bet.placed", actor=Actor.system("tests"))
    auditor = UserFactory(roles=[roles.AUDITOR])
    client = Client()
    login_verified(client, auditor)
    assert client.get("/admin/audit/auditevent/").status_code == 200
    assert client.get(f"/admin/audit/auditevent/{event.pk}/change/").status_code == 200
    assert client.get("/admin/audit/auditevent/add/").status_code == 403
    assert client.post(f"/admin/audit/auditevent/{event.pk}/delete/").status_code == 403
    viewed = AuditEvent.objects.filter(name="audit.viewed").order_by("id")
    assert [v.payload["what"] for v in viewed] == ["admin.events", "admin.event"]
    assert event.pk in viewed[0].payload["event_ids"]
    assert viewed[1].actor_id == str(auditor.pk)
