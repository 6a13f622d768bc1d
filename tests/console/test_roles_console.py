"""Roles in the console: the auditor sees every page and changes nothing; an operator's staff
see only their operator's players; corrections need a second person."""

import pytest
from django.contrib import admin
from django.test import RequestFactory

from audit.models import AuditEvent
from casino.actors import Actor
from casino.api import roles
from casino.console.admin import ObjectActionsMixin
from casino.console.models import OperatorStaff
from ledger.models import Correction, Transaction
from tests.console.helpers import act, messages_of, round_with_bet, staff
from tests.factories import OperatorFactory, funded_player

pytestmark = pytest.mark.django_db


def _console_admins():
    return list(admin.site._registry.items())


def test_the_auditor_may_view_every_console_page_and_change_nothing():
    round_with_bet()  # some rows to look at
    client, auditor = staff(roles.AUDITOR)
    request = RequestFactory().get("/admin/")
    request.user = auditor
    before = AuditEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0
    cannot_view, can_write, broken = [], [], []
    for model, model_admin in _console_admins():
        label = model._meta.label
        opts = model._meta
        url = f"/admin/{opts.app_label}/{opts.model_name}/"
        obj = model_admin.get_queryset(request).first()
        if not model_admin.has_view_permission(request, obj):
            cannot_view.append(label)
        if model_admin.has_add_permission(request) or (
            obj is not None
            and (
                model_admin.has_change_permission(request, obj)
                or model_admin.has_delete_permission(request, obj)
            )
        ):
            can_write.append(label)
        if client.get(url).status_code != 200:
            broken.append(f"{label} list")
        if client.get(f"{url}add/").status_code != 403:
            broken.append(f"{label} add")
        if obj is None:
            continue
        page = client.get(f"{url}{obj.pk}/change/")
        if page.status_code != 200 or b'name="_save"' in page.content:
            broken.append(f"{label} change page")
        if client.post(f"{url}{obj.pk}/delete/", {"post": "yes"}).status_code != 403:
            broken.append(f"{label} delete")
        # bulk actions, confirmed: whatever the admin offers must change nothing
        for name in model_admin.get_actions(request):
            client.post(
                url,
                {
                    "action": name,
                    "_selected_action": [obj.pk],
                    "_reason_page": "1",
                    "reason": "auditor tries",
                    "confirm": "on",
                    "post": "yes",
                },
            )
        if isinstance(model_admin, ObjectActionsMixin):
            if model_admin.visible_actions(request, obj):
                broken.append(f"{label} shows buttons")
            for action in model_admin.object_actions:
                response = client.post(
                    f"{url}{obj.pk}/do/{action.name}/",
                    {"_action_page": "1", "reason": "x", "confirm": "on"},
                )
                if response.status_code != 403:
                    broken.append(f"{label} {action.name}")
    assert cannot_view == []
    assert can_write == []
    assert broken == []
    # every change is audited, so an auditor who changed nothing left only reads behind
    written = set(
        AuditEvent.objects.filter(id__gt=before).values_list("name", flat=True).distinct()
    )
    assert written <= {"audit.viewed"}, written
    assert b'id="floor-table"' in client.get("/admin/").content
    _, rnd, _ = round_with_bet()
    round_page = client.get(f"/admin/tables/round/{rnd.pk}/change/").content.decode()
    assert "Round replay" in round_page and "Open a dispute case" not in round_page


def test_every_staff_role_sees_the_console_without_errors():
    round_with_bet()
    for role in (roles.PIT_BOSS, roles.FLOOR_SUPERVISOR, roles.DEALER, roles.OPERATOR_STAFF):
        client, _ = staff(role)
        assert client.get("/admin/").status_code == 200, role


def test_operator_staff_see_only_their_own_players():
    mine, theirs = OperatorFactory(), OperatorFactory()
    own_player = funded_player(operator=mine)
    other_player = funded_player(operator=theirs)
    client, user = staff(roles.OPERATOR_STAFF)
    OperatorStaff.objects.create(user=user, operator=mine)
    listing = client.get("/admin/ledger/player/").content.decode()
    assert own_player.external_ref in listing and other_player.external_ref not in listing
    assert client.get(f"/admin/ledger/player/{other_player.pk}/change/").status_code == 302
    assert client.get(f"/admin/ledger/player/{own_player.pk}/change/").status_code == 200
    wallets = client.get("/admin/ledger/account/").content.decode()
    assert own_player.external_ref in wallets and other_player.external_ref not in wallets
    other_deposit = Transaction.objects.get(kind="deposit", legs__account__player=other_player)
    transactions = client.get("/admin/ledger/transaction/").content.decode()
    assert f">{other_deposit.pk}<" not in transactions
    assert client.get("/admin/tables/table/").status_code == 403
    assert client.get("/admin/ledger/operator/").status_code == 403
    # a member of the role with no operator link sees nothing
    unlinked, _ = staff(roles.OPERATOR_STAFF)
    assert own_player.external_ref not in unlinked.get("/admin/ledger/player/").content.decode()


def test_a_correction_is_requested_by_one_and_approved_by_another():
    player = funded_player(5_000)
    deposit = Transaction.objects.get(kind="deposit", legs__account__player=player)
    boss_client, boss = staff(roles.PIT_BOSS)
    page = boss_client.get(f"/admin/ledger/transaction/{deposit.pk}/change/").content.decode()
    assert 'data-action="correct"' in page
    act(
        boss_client,
        f"/admin/ledger/transaction/{deposit.pk}/do/correct/",
        reason="deposited twice",
        replacement_legs="[]",
    )
    correction = Correction.objects.get(original=deposit)
    assert correction.requested_by == boss
    assert AuditEvent.objects.filter(name="admin.action", payload__action="correct").exists()
    assert (
        boss_client.get(f"/admin/ledger/correction/{correction.pk}/do/approve/").status_code == 403
    )

    supervisor_client, supervisor = staff(roles.FLOOR_SUPERVISOR)
    done = act(
        supervisor_client,
        f"/admin/ledger/correction/{correction.pk}/do/approve/",
        reason="checked the cashier log",
    )
    assert any("approved" in m for m in messages_of(done))
    correction.refresh_from_db()
    assert correction.status == "approved" and correction.decided_by == supervisor
    assert correction.decision_note == "checked the cashier log"


def test_a_correction_refused_by_the_ledger_is_a_message():
    player = funded_player(5_000)
    deposit = Transaction.objects.get(kind="deposit", legs__account__player=player)
    client, _ = staff(roles.FLOOR_SUPERVISOR)
    response = act(
        client,
        f"/admin/ledger/transaction/{deposit.pk}/do/correct/",
        reason="bad legs",
        replacement_legs='[{"account_id": 999999, "amount": 5}]',
    )
    assert response.status_code == 200
    assert any("Refused" in m for m in messages_of(response))
    assert not Correction.objects.filter(original=deposit).exists()


def test_console_actions_record_who_pressed_them_with_the_reason():
    table, rnd, _ = round_with_bet()
    client, boss = staff(roles.PIT_BOSS)
    act(client, f"/admin/tables/round/{rnd.pk}/do/void-request/", reason="dealer misdeal")
    event = AuditEvent.objects.get(name="admin.action", round_id=rnd.pk)
    assert (event.actor_kind, event.actor_label) == ("user", boss.username)
    assert event.payload["reason"] == "dealer misdeal"
    assert event.table_id == table.pk
    # recorded in the same transaction as the service's own event
    service_event = AuditEvent.objects.get(name="tables.void_requested", round_id=rnd.pk)
    assert service_event.txid == event.txid
    assert Actor.for_user(boss).label == event.actor_label
