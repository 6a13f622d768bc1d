"""Dispute cases: open against a round or a bet with the replay attached, notes and evidence,
open -> investigating -> resolved; upheld leads to a ledger correction approved by another
staff member; every step audited; the API by role."""

import pytest

from audit.models import AuditEvent, DisputeCase
from casino.actors import Actor
from casino.api import roles
from casino.errors import Conflict, Unprocessable
from forensics import disputes
from forensics.replay import round_replay
from ledger.errors import FourEyesRequired
from ledger.models import Account, Correction
from tests.factories import UserFactory
from tests.helpers.staff import login_verified

from .rounds import payout_skim, settled_round

pytestmark = pytest.mark.django_db
ACTOR = Actor.system("tests")


def _wallet(bet):
    return Account.objects.get(pk=bet.wallet_id).balance


def test_rejected_case_moves_no_money_and_every_step_is_audited():
    rnd = settled_round("british_casino")
    bet = rnd.bets.get(box=2)
    boss, supervisor = (
        UserFactory(roles=[roles.PIT_BOSS]),
        UserFactory(roles=[roles.FLOOR_SUPERVISOR]),
    )
    case = disputes.dispute_open(
        actor=ACTOR,
        user=boss,
        round_id=rnd.pk,
        bet_ref=bet.ref,
        claim="My 16 should have won",
        claimant="player-2",
        evidence=[{"reference": "camera 3 14:03:22.400", "note": "dealer's last card"}],
    )
    assert case.status == "open" and case.replay["status"] == "match"
    assert case.notes.get().evidence_ref == "camera 3 14:03:22.400"
    with pytest.raises(Conflict):
        disputes.dispute_reject(actor=ACTOR, user=supervisor, case_id=case.pk, resolution="no")
    disputes.dispute_investigate(actor=ACTOR, user=boss, case_id=case.pk, note="video checked")
    disputes.dispute_note_add(actor=ACTOR, user=boss, case_id=case.pk, text="dealer had 17")
    before = _wallet(bet)
    case = disputes.dispute_reject(
        actor=ACTOR, user=supervisor, case_id=case.pk, resolution="Dealer's 17 beats 16."
    )
    assert case.status == "resolved_rejected" and case.resolved_by == supervisor
    assert _wallet(bet) == before and case.correction is None
    with pytest.raises(Conflict):
        disputes.dispute_note_add(actor=ACTOR, user=boss, case_id=case.pk, text="late")
    names = list(
        AuditEvent.objects.filter(name__startswith="dispute.", payload__dispute_id=case.pk)
        .order_by("id")
        .values_list("name", flat=True)
    )
    assert names == [
        "dispute.opened",
        "dispute.note_added",
        "dispute.investigating",
        "dispute.replay_attached",
        "dispute.note_added",
        "dispute.note_added",
        "dispute.resolved_rejected",
    ]


def test_upheld_case_corrects_the_ledger_to_the_replay_with_four_eyes():
    rnd = settled_round("british_casino")  # box 1 Pontoon pays 3000
    bet = rnd.bets.get(box=1)
    payout_skim(rnd, bet.ref, 1000)
    boss, supervisor, other = (
        UserFactory(roles=[r])
        for r in (roles.PIT_BOSS, roles.FLOOR_SUPERVISOR, roles.FLOOR_SUPERVISOR)
    )
    case = disputes.dispute_open(actor=ACTOR, user=boss, round_id=rnd.pk, claim="paid short")
    assert case.replay["status"] == "differences"
    disputes.dispute_investigate(actor=ACTOR, user=boss, case_id=case.pk)
    case = disputes.dispute_uphold(
        actor=ACTOR, user=supervisor, case_id=case.pk, resolution="Pontoon pays 2:1"
    )
    correction = Correction.objects.get(pk=case.correction_id)
    assert case.status == "resolved_upheld" and correction.status == "requested"
    assert correction.requested_by == supervisor
    wallet_legs = [
        x for x in correction.replacement_legs if x["bet_ref"] == bet.ref and x["kind"] == "payout"
    ]
    assert sorted(x["amount"] for x in wallet_legs) == [1000, 2000]  # tampered leg + refund
    with pytest.raises(FourEyesRequired):
        disputes.dispute_correction_approve(actor=ACTOR, user=supervisor, case_id=case.pk)
    before = _wallet(bet)
    disputes.dispute_correction_approve(actor=ACTOR, user=other, case_id=case.pk)
    # the skim bypassed the wallet trigger; the correction reverses the 2000 posted and
    # replaces it with 2000 + 1000, so the wallet gains the 1000 it was short
    assert _wallet(bet) == before + 1000
    assert AuditEvent.objects.filter(name="dispute.correction_approved").exists()
    assert AuditEvent.objects.filter(name="ledger.correction_approved").exists()
    assert round_replay(round_id=rnd.pk)["status"] == "match"  # the replacement is in force


def test_upheld_without_differences_needs_adjustments():
    rnd = settled_round("online_8deck")
    bet = rnd.bets.get()
    boss, supervisor = (
        UserFactory(roles=[roles.PIT_BOSS]),
        UserFactory(roles=[roles.FLOOR_SUPERVISOR]),
    )
    case = disputes.dispute_open(actor=ACTOR, user=boss, round_id=rnd.pk, claim="misdeal")
    disputes.dispute_investigate(actor=ACTOR, user=boss, case_id=case.pk)
    with pytest.raises(Unprocessable):
        disputes.dispute_uphold(actor=ACTOR, user=supervisor, case_id=case.pk, resolution="x")
    assert DisputeCase.objects.get(pk=case.pk).status == "investigating"
    case = disputes.dispute_uphold(
        actor=ACTOR,
        user=supervisor,
        case_id=case.pk,
        resolution="video: misdeal",
        adjustments={bet.ref: 250},
    )
    legs = Correction.objects.get(pk=case.correction_id).replacement_legs
    assert {
        "account_id": bet.wallet_id,
        "amount": 250,
        "kind": "payout",
        "bet_ref": bet.ref,
    } in legs
    assert sum(x["amount"] for x in legs) == 0


def test_dispute_api_by_role(client_for):
    rnd = settled_round("crown")
    bet = rnd.bets.first()
    boss = client_for(roles.PIT_BOSS)
    created = boss.post(
        "/api/v1/audit/disputes/",
        {
            "round_id": rnd.pk,
            "bet_ref": bet.ref,
            "claim": "double not paid",
            "evidence": [{"reference": "cam 1 10:00:01"}],
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    case = created.json()
    assert case["status"] == "open" and case["replay"]["status"] == "match"
    url = f"/api/v1/audit/disputes/{case['id']}/"
    assert (
        client_for(roles.DEALER).post("/api/v1/audit/disputes/", {}, format="json").status_code
        == 403
    )
    assert (
        client_for(roles.AUDITOR).post(url + "investigate/", {}, format="json").status_code == 403
    )
    assert client_for(roles.AUDITOR).get(url).status_code == 200
    assert (
        boss.post(url + "notes/", {"kind": "evidence", "text": "x"}, format="json").status_code
        == 400
    )
    assert boss.post(url + "investigate/", {"note": "looking"}, format="json").status_code == 200
    assert (
        boss.post(
            url + "resolve/", {"outcome": "rejected", "resolution": "no"}, format="json"
        ).status_code
        == 403
    )
    supervisor = client_for(roles.FLOOR_SUPERVISOR)
    done = supervisor.post(
        url + "resolve/", {"outcome": "rejected", "resolution": "paid right"}, format="json"
    )
    assert done.status_code == 200 and done.json()["status"] == "resolved_rejected"
    again = supervisor.post(
        url + "resolve/", {"outcome": "rejected", "resolution": "x"}, format="json"
    )
    assert again.status_code == 409
    listed = client_for(roles.AUDITOR).get(
        "/api/v1/audit/disputes/", {"status": "resolved_rejected"}
    )
    assert [c["id"] for c in listed.json()["results"]] == [case["id"]]
    assert AuditEvent.objects.filter(name="audit.viewed", payload__what="dispute").exists()


def test_dispute_console_opens_through_the_service_and_actions_need_a_reason(client):
    rnd = settled_round("online_2deck")
    login_verified(client, UserFactory(roles=[roles.PIT_BOSS]))
    added = client.post(
        "/admin/audit/disputecase/add/",
        {"round": rnd.pk, "bet_ref": "", "claim": "split not paid", "claimant": "p1"},
    )
    assert added.status_code == 302, added.content[-2000:]
    case = DisputeCase.objects.get()
    assert case.opened_by.groups.filter(name=roles.PIT_BOSS).exists()
    assert AuditEvent.objects.filter(name="dispute.opened", payload__dispute_id=case.pk).exists()
    page = client.get(f"/admin/audit/disputecase/{case.pk}/change/")
    assert page.status_code == 200 and b"open the replay" in page.content
    url = "/admin/audit/disputecase/"
    ask = client.post(url, {"action": "investigate", "_selected_action": [case.pk]})
    assert ask.status_code == 200 and b"reason" in ask.content
    client.post(
        url,
        {
            "action": "investigate",
            "_selected_action": [case.pk],
            "_reason_page": "1",
            "reason": "pulling the video",
            "confirm": "on",
        },
    )
    case.refresh_from_db()
    assert case.status == "investigating" and case.notes.get().text == "pulling the video"
    client.post(
        url,
        {
            "action": "reject",
            "_selected_action": [case.pk],
            "_reason_page": "1",
            "reason": "x",
            "confirm": "on",
        },
    )
    case.refresh_from_db()
    assert case.status == "investigating"  # a pit boss can't resolve


def _bonus_skim(rnd, bet_ref: str, amount: int) -> None:
    """Like ``payout_skim``, on a bet's bonus leg: ``amount`` goes back to the pool's leg."""
    from django.db import connection

    from ledger.models import Leg

    txn = rnd.ledger_transaction_id
    leg = Leg.objects.get(transaction_id=txn, bet_ref=bet_ref, kind="bonus")
    pool = Leg.objects.get(transaction_id=txn, account__kind="bonus_pool", kind="bonus")
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        try:
            cursor.execute(
                "UPDATE ledger_leg SET amount = amount - %s WHERE id = %s", [amount, leg.pk]
            )
            cursor.execute(
                "UPDATE ledger_leg SET amount = amount + %s WHERE id = %s", [amount, pool.pk]
            )
        finally:
            cursor.execute("SET session_replication_role = origin")
    return pool.account_id


def test_an_upheld_bonus_dispute_is_paid_from_the_pool_the_settlement_used():
    """The correction's bonus comes from the bonus pool that paid the round (the account
    ``ledger.postings.house_account_id`` names, as settlement does), not house revenue."""
    from ledger.models import Leg
    from tables import services
    from tests.factories import funded_player, live_table
    from tests.tables.conftest import decide, play_round

    table = live_table("crown")
    a, b, c, d = (funded_player(1_000_000) for _ in range(4))
    rnd = play_round(
        table,
        [(a, 1, 3000), (b, 1, 600, True), (c, 1, 400, True), (d, 2, 1000)],
        ["7H", "9C", "7D", "7H", "QC", "7H", "9S", "KS"],  # 7-7-7 suited: the super bonus
        [decide(a, "hit"), decide(d, "stand")],
    )
    services.round_settle(round_id=rnd.pk)
    rnd.refresh_from_db()
    bet = rnd.bets.get(player=b)  # behind on box 1: paid a super bonus
    pool = _bonus_skim(rnd, bet.ref, 40_000)
    assert Account.objects.get(pk=pool).kind == "bonus_pool"
    boss, supervisor, other = (
        UserFactory(roles=[r])
        for r in (roles.PIT_BOSS, roles.FLOOR_SUPERVISOR, roles.FLOOR_SUPERVISOR)
    )
    case = disputes.dispute_open(actor=ACTOR, user=boss, round_id=rnd.pk, claim="bonus short")
    disputes.dispute_investigate(actor=ACTOR, user=boss, case_id=case.pk)
    case = disputes.dispute_uphold(
        actor=ACTOR, user=supervisor, case_id=case.pk, resolution="super bonus paid short"
    )
    legs = Correction.objects.get(pk=case.correction_id).replacement_legs
    added = legs[Leg.objects.filter(transaction_id=rnd.ledger_transaction_id).count() :]
    assert added == [
        {"account_id": bet.wallet_id, "amount": 40_000, "kind": "bonus", "bet_ref": bet.ref},
        {"account_id": pool, "amount": -40_000, "kind": "bonus", "bet_ref": ""},
    ]
    before = _wallet(bet)
    disputes.dispute_correction_approve(actor=ACTOR, user=other, case_id=case.pk)
    assert _wallet(bet) == before + 40_000


def test_adjustments_that_net_to_zero_are_refused_naming_the_bet(client_for):
    rnd = settled_round("online_8deck")
    bet = rnd.bets.get()
    boss = client_for(roles.PIT_BOSS)
    case = boss.post(
        "/api/v1/audit/disputes/", {"round_id": rnd.pk, "claim": "misdeal"}, format="json"
    ).json()
    url = f"/api/v1/audit/disputes/{case['id']}/"
    assert boss.post(url + "investigate/", {}, format="json").status_code == 200
    refused = client_for(roles.FLOOR_SUPERVISOR).post(
        url + "resolve/",
        {
            "outcome": "upheld",
            "resolution": "video: misdeal",
            "adjustments": [
                {"bet_ref": bet.ref, "amount": 250},
                {"bet_ref": bet.ref, "amount": -250},
            ],
        },
        format="json",
    )
    assert refused.status_code == 400, refused.content
    problem = refused.json()
    assert f"bet {bet.ref} net to zero" in problem["detail"]
    assert DisputeCase.objects.get(pk=case["id"]).status == "investigating"
    assert not Correction.objects.exists()


def test_upholding_a_claim_on_a_round_settled_without_bets_says_no_posting_will_come(client_for):
    from tables import services
    from tests.factories import live_table
    from tests.tables.conftest import DEVICE

    rnd = services.round_open(actor=DEVICE, table_id=live_table("crown").pk)
    services.round_close_betting(actor=DEVICE, round_id=rnd.pk)  # no bets: nothing to deal
    assert services.round_settle(round_id=rnd.pk) == "settled"
    boss, supervisor = client_for(roles.PIT_BOSS), client_for(roles.FLOOR_SUPERVISOR)
    case = boss.post(
        "/api/v1/audit/disputes/",
        {"round_id": rnd.pk, "claim": "my bet was refused"},
        format="json",
    ).json()
    url = f"/api/v1/audit/disputes/{case['id']}/"
    assert boss.post(url + "investigate/", {}, format="json").status_code == 200
    refused = supervisor.post(
        url + "resolve/", {"outcome": "upheld", "resolution": "pay it"}, format="json"
    )
    assert refused.status_code == 422, refused.content
    detail = refused.json()["detail"]
    assert detail == (
        f"Round {rnd.pk} was settled with no bets: it has no settlement posting to correct, "
        "and never will."
    )
    assert DisputeCase.objects.get(pk=case["id"]).status == "investigating"
    rejected = supervisor.post(
        url + "resolve/", {"outcome": "rejected", "resolution": "no bet"}, format="json"
    )
    assert rejected.status_code == 200


def test_an_adjustment_takes_back_at_most_what_the_bet_was_paid(client_for):
    """A resolution taking back 5,000,000 from a bet paid 2,000 was accepted: the case closed
    as upheld on a correction that could never be approved (insufficient funds)."""
    rnd = settled_round("online_8deck")
    bet = rnd.bets.get()
    paid = round_replay(round_id=rnd.pk)["ledger"]["bets"][0]["ledger_payout"]
    boss = client_for(roles.PIT_BOSS)
    case = boss.post(
        "/api/v1/audit/disputes/", {"round_id": rnd.pk, "claim": "overpaid"}, format="json"
    ).json()
    url = f"/api/v1/audit/disputes/{case['id']}/"
    assert boss.post(url + "investigate/", {}, format="json").status_code == 200
    supervisor = client_for(roles.FLOOR_SUPERVISOR)

    def resolve(amount: int):
        body = {
            "outcome": "upheld",
            "resolution": "video: overpaid",
            "adjustments": [{"bet_ref": bet.ref, "amount": amount}],
        }
        return supervisor.post(url + "resolve/", body, format="json")

    refused = resolve(-paid - 1)
    assert refused.status_code == 400, refused.content
    assert f"Bet {bet.ref} was paid {paid}" in refused.json()["detail"]
    assert DisputeCase.objects.get(pk=case["id"]).status == "investigating"
    assert not Correction.objects.exists()
    if paid:
        assert resolve(-paid).status_code == 200  # all of it, no more
