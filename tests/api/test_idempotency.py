"""The Idempotency-Key mechanism, driven through a minimal money-like view."""

import threading
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from rest_framework import status
from rest_framework.response import Response
from rest_framework.test import APIRequestFactory, force_authenticate
from rest_framework.views import APIView

from audit.models import AuditEvent
from audit.services import audit_event_record
from casino.actors import Actor
from casino.api.idempotency import idempotency_purge_expired, idempotent
from casino.api.models import IdempotencyRecord
from casino.errors import ValidationFailed
from tests.factories import UserFactory

factory = APIRequestFactory()


class CreateGroupView(APIView):
    """Creates a row per call (a stand-in for a money movement) behind an Idempotency-Key."""

    required_permissions = {"POST": ()}
    pause: threading.Event | None = None
    entered: threading.Event | None = None
    audit_batched = False  # the bet path's way: the record written with the audit events

    def post(self, request):
        def work():
            if request.data.get("audit"):
                audit_event_record(name="test.group_created", actor=Actor.system("test"))
            if request.data.get("fail"):
                Group.objects.create(name=f"failed-{request.data['name']}")
                raise ValidationFailed("refused on purpose", errors={"fail": ["set"]})
            group = Group.objects.create(name=request.data["name"])
            if self.pause is not None:
                self.entered.set()  # the key's lock is held from here until commit
                self.pause.wait(10)
            return Response({"id": group.pk, "name": group.name}, status=status.HTTP_201_CREATED)

        return idempotent(request, work=work, audit_batched=self.audit_batched)


def call(user, body, key="key-1"):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    request = factory.post("/api/v1/test/", body, format="json", **headers)
    force_authenticate(request, user=user)
    return CreateGroupView.as_view()(request)


@pytest.mark.django_db
def test_replay_returns_the_original_response_and_does_the_work_once():
    user = UserFactory()
    first = call(user, {"name": "a"})
    second = call(user, {"name": "a"})
    assert first.status_code == second.status_code == 201
    assert second.data == first.data
    assert second["Idempotent-Replayed"] == "true"
    assert Group.objects.filter(name="a").count() == 1


@pytest.mark.django_db
def test_same_key_with_a_different_body_is_422():
    user = UserFactory()
    call(user, {"name": "a"})
    response = call(user, {"name": "b"})
    assert response.status_code == 422
    assert "different request" in response.data["detail"]
    assert not Group.objects.filter(name="b").exists()


@pytest.mark.django_db
def test_keys_are_scoped_per_credential():
    first, second = UserFactory(), UserFactory()
    assert call(first, {"name": "a"}).status_code == 201
    assert call(second, {"name": "a2"}).status_code == 201


@pytest.mark.django_db
def test_missing_or_malformed_key_is_a_400_naming_the_header():
    user = UserFactory()
    for key in (None, "", "x" * 256, "has space"):
        response = call(user, {"name": "a"}, key=key)
        assert response.status_code == 400
        assert response.data["errors"][0]["field"] == "Idempotency-Key"
    assert not Group.objects.filter(name="a").exists()


@pytest.mark.django_db
def test_failed_attempt_stores_nothing_and_can_be_retried():
    user = UserFactory()
    refused = call(user, {"name": "a", "fail": True})
    assert refused.status_code == 400
    assert not Group.objects.filter(name="failed-a").exists()
    assert not IdempotencyRecord.objects.exists()


@pytest.mark.django_db
def test_expired_keys_are_forgotten_and_purged():
    user = UserFactory()
    call(user, {"name": "a"})
    IdempotencyRecord.objects.update(
        created_at=IdempotencyRecord.objects.get().created_at - timedelta(hours=25)
    )
    assert call(user, {"name": "b"}).status_code == 201  # the old key no longer binds
    IdempotencyRecord.objects.update(
        created_at=IdempotencyRecord.objects.get().created_at - timedelta(hours=25)
    )
    assert idempotency_purge_expired() == 1


@pytest.mark.django_db(transaction=True)
def test_duplicate_while_first_is_in_flight_is_409():
    user = UserFactory()
    pause, entered = threading.Event(), threading.Event()
    CreateGroupView.pause, CreateGroupView.entered = pause, entered
    results = {}

    def first():
        try:
            results["first"] = call(user, {"name": "slow"})
        finally:
            connection.close()

    thread = threading.Thread(target=first)
    thread.start()
    try:
        assert entered.wait(10), "the first request never started its work"
        CreateGroupView.pause = None
        duplicate = call(user, {"name": "slow"})
        assert duplicate.status_code == 409
        assert "still being processed" in duplicate.data["detail"]
    finally:
        pause.set()
        thread.join(20)
        CreateGroupView.pause = None
    assert results["first"].status_code == 201
    assert Group.objects.filter(name="slow").count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("audited", [True, False])
def test_audit_batched_work_stores_its_record_with_its_events_and_replays(audited, monkeypatch):
    monkeypatch.setattr(CreateGroupView, "audit_batched", True)
    user = UserFactory()
    first = call(user, {"name": "a", "audit": audited})
    second = call(user, {"name": "a", "audit": audited})
    assert first.status_code == second.status_code == 201
    assert second["Idempotent-Replayed"] == "true" and second.data == first.data
    assert Group.objects.filter(name="a").count() == 1
    assert IdempotencyRecord.objects.get().response_status == 201
    assert AuditEvent.objects.filter(name="test.group_created").count() == (1 if audited else 0)
    refused = call(user, {"name": "b", "fail": True, "audit": audited}, key="key-2")
    assert refused.status_code == 400
    assert IdempotencyRecord.objects.count() == 1  # nothing stored for the failed attempt
    assert AuditEvent.objects.filter(name="test.group_created").count() == (1 if audited else 0)
