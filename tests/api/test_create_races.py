"""Two requests creating the same thing at once: the one that loses the race at the unique index
gets the same 409 as the one that comes a moment later, never a 500 (the check before the
insert cannot see a row another transaction has not committed yet)."""

import threading
import time

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import RequestFactory

from casino.actors import Actor
from casino.api import roles
from casino.api.middleware import DatabaseUnavailableMiddleware
from casino.errors import Conflict
from ledger.models import Player
from tables import services
from tables.models import Table
from tests.factories import OperatorFactory, TableFactory

pytestmark = pytest.mark.django_db(transaction=True)

ACTOR = Actor.system("tests")


def _blocked_behind(insert, then):
    """Run ``then`` while another transaction holds an uncommitted ``insert``, committing it
    once ``then`` waits on the unique index: ``then``'s outcome."""
    inserted, done = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                insert()
                inserted.set()
                # Commit only once the other insert waits for this one (or give up).
                deadline = time.monotonic() + 10
                while not _someone_waits() and time.monotonic() < deadline:
                    time.sleep(0.02)
        finally:
            connection.close()
            done.set()

    holder = threading.Thread(target=hold)
    holder.start()
    assert inserted.wait(10)
    try:
        return then()
    finally:
        done.wait(15)
        holder.join(5)


def _someone_waits() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


def test_the_loser_of_a_player_race_gets_409(client_for, operator):
    client = client_for(roles.OPERATOR_INTEGRATION)
    response = _blocked_behind(
        lambda: Player.objects.create(operator=operator, external_ref="twin"),
        lambda: client.post("/api/v1/players/", {"external_ref": "twin"}, format="json"),
    )
    assert response.status_code == 409, response.content
    assert response.json()["code"] == "conflict" and "twin" in response.json()["detail"]
    assert Player.objects.filter(operator=operator, external_ref="twin").count() == 1


def test_the_loser_of_a_table_code_race_gets_409():
    source = TableFactory()

    def clone():
        try:
            services.table_clone(actor=ACTOR, table_id=source.pk, code="twin", name="Twin")
        except Conflict as exc:
            return exc

    outcome = _blocked_behind(lambda: TableFactory(code="twin", casino=source.casino), clone)
    assert isinstance(outcome, Conflict) and "twin" in outcome.detail
    assert Table.objects.filter(code="twin").count() == 1


def test_any_unique_violation_reaching_the_api_is_a_409_problem():
    """The net under every other check-then-insert: a real unique violation from the
    database, as the middleware receives it."""
    operator = OperatorFactory()
    Player.objects.create(operator=operator, external_ref="one")
    try:
        with transaction.atomic():
            Player.objects.create(operator=operator, external_ref="one")
    except IntegrityError as exc:
        error = exc
    request = RequestFactory().post("/api/v1/anything/")
    request.request_id = "r1"
    response = DatabaseUnavailableMiddleware(lambda r: None).process_exception(request, error)
    assert response.status_code == 409
    assert b'"code":"conflict"' in response.content.replace(b" ", b"")
