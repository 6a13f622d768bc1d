"""Corrections need two people; table accounting equals the ledger's legs."""

import pytest
from rest_framework.test import APIClient

from audit.models import AuditEvent
from casino.api import roles
from ledger import services
from ledger.errors import FourEyesRequired
from ledger.models import Account, Correction, Leg, OperatorEvent
from ledger.postings import house_account_id
from ledger.selectors import AccountingFilter, ledger_reconcile, table_accounting
from ledger.services import SettlementLine
from tests.factories import OperatorFactory, PlayerFactory, TableFactory, UserFactory, WalletFactory
from tests.helpers.staff import login_verified
from tests.ledger.conftest import ACTOR, fund, stake

pytestmark = pytest.mark.django_db


@pytest.fixture
def settled_round(table):
    """Round 1 at ``table``: the player staked 100 and was paid 200 (it should have been 300)."""
    wallet = WalletFactory()
    fund(wallet, 1_000)
    stake(wallet, 100, table_id=table.pk, round_id=1, bet_ref="b1")
    posting = services.round_settlement_post(
        actor=ACTOR, round_id=1, table_id=table.pk, currency="EUR",
        lines=[SettlementLine("b1", wallet.pk, stake=100, payout=200)],
    )  # fmt: skip
    return wallet, posting.transaction


def _replacement(txn, wallet, payout):
    house = Account.objects.get(kind="house", currency="EUR")
    in_play = Account.objects.get(kind="stakes", table_id=txn.table_id)
    return [
        {"account_id": in_play.pk, "amount": -100, "kind": "settle_stake", "bet_ref": "b1"},
        {"account_id": house.pk, "amount": 100 - payout, "kind": "payout"},
        {"account_id": wallet.pk, "amount": payout, "kind": "payout", "bet_ref": "b1"},
    ]


def test_a_correction_reverses_and_replaces_after_a_second_persons_approval(settled_round):
    wallet, original = settled_round
    requester, approver = UserFactory(), UserFactory()
    correction = services.correction_request(
        actor=ACTOR, user=requester, original=original, reason="pays 2:1, not 1:1",
        replacement_legs=_replacement(original, wallet, 300),
    )  # fmt: skip
    wallet.refresh_from_db()
    assert wallet.balance == 1_100  # nothing moves on request
    with pytest.raises(FourEyesRequired):
        services.correction_approve(actor=ACTOR, user=requester, correction=correction)
    services.correction_approve(actor=ACTOR, user=approver, correction=correction)
    correction.refresh_from_db()
    wallet.refresh_from_db()
    assert correction.status == "approved" and wallet.balance == 1_200
    assert correction.reversal.reverses_id == original.pk
    reversal_legs = sorted(
        Leg.objects.filter(transaction=correction.reversal).values_list("amount")
    )
    assert reversal_legs == sorted((-a,) for (a,) in original.legs.values_list("amount"))
    assert ledger_reconcile() == []
    names = set(AuditEvent.objects.values_list("name", flat=True))
    assert {"ledger.correction_requested", "ledger.correction_approved"} <= names
    assert OperatorEvent.objects.filter(kind="transaction.corrected").count() == 1
    # The original is untouched and can't be corrected twice.
    with pytest.raises(Exception, match="already has a correction"):
        services.correction_request(
            actor=ACTOR, user=requester, original=original, reason="again", replacement_legs=[]
        )


def test_corrections_through_the_api_need_two_staff_members(client_for, settled_round):
    wallet, original = settled_round
    pit_boss = client_for(roles.PIT_BOSS)
    created = pit_boss.post(
        "/api/v1/corrections/",
        {"transaction_id": original.pk, "reason": "void payout", "replacement_legs": []},
        format="json",
    )
    assert created.status_code == 201, created.data
    url = f"/api/v1/corrections/{created.data['id']}/approve/"
    # A pit boss may request but not approve; an operator key may do neither.
    assert pit_boss.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="a").status_code == 403
    assert (
        client_for(roles.OPERATOR_INTEGRATION)
        .post("/api/v1/corrections/", {"transaction_id": original.pk, "reason": "x"}, format="json")
        .status_code
        == 403
    )
    supervisor = client_for(roles.FLOOR_SUPERVISOR)
    approved = supervisor.post(url, {"note": "ok"}, format="json", HTTP_IDEMPOTENCY_KEY="a")
    replay = supervisor.post(url, {"note": "ok"}, format="json", HTTP_IDEMPOTENCY_KEY="a")
    assert approved.status_code == replay.status_code == 200, approved.data
    assert replay["Idempotent-Replayed"] == "true"
    wallet.refresh_from_db()
    assert wallet.balance == 900  # stake kept, payout of 200 reversed
    again = supervisor.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY="b")
    assert again.status_code == 409


def test_the_requester_cannot_approve_their_own_correction_via_the_api(settled_round):
    _, original = settled_round
    supervisor = UserFactory(roles=[roles.FLOOR_SUPERVISOR])
    client = APIClient()
    login_verified(client, supervisor)
    created = client.post(
        "/api/v1/corrections/", {"transaction_id": original.pk, "reason": "x"}, format="json"
    )
    response = client.post(
        f"/api/v1/corrections/{created.data['id']}/approve/", {}, format="json",
        HTTP_IDEMPOTENCY_KEY="self",
    )  # fmt: skip
    assert response.status_code == 403
    assert response.data["type"].endswith("/four-eyes-required")
    assert Correction.objects.get().status == "requested"


def test_unbalanced_replacement_legs_are_refused(settled_round):
    wallet, original = settled_round
    legs = _replacement(original, wallet, 300)
    legs[0]["amount"] = -99
    with pytest.raises(Exception, match="do not balance"):
        services.correction_request(
            actor=ACTOR, user=UserFactory(), original=original, reason="x", replacement_legs=legs
        )


def _house_side_win(**filters) -> int:
    """The same figure from the other side of the ledger: the legs on stakes in play, house
    revenue and the bonus pool (every transaction balances, so they mirror the wallets')."""
    legs = Leg.objects.filter(account__kind__in=["stakes", "house", "bonus_pool"], **filters)
    return sum(legs.values_list("amount", flat=True))


def test_table_accounting_equals_the_sum_of_legs(client_for):
    tables = [TableFactory(), TableFactory()]
    operators = [OperatorFactory(), OperatorFactory()]
    wallets = [WalletFactory(player=PlayerFactory(operator=operators[i % 2])) for i in range(6)]
    for wallet in wallets:
        fund(wallet, 10_000)
    round_id = 0
    for t_index, table in enumerate(tables):
        for r in range(3):
            round_id += 1
            lines = []
            for w_index, wallet in enumerate(wallets):
                ref = f"{round_id}-{w_index}"
                amount = 100 + 10 * w_index
                stake(wallet, amount, table_id=table.pk, round_id=round_id, bet_ref=ref,
                      dealer_id=t_index + 1, shift=f"s{r % 2}")  # fmt: skip
                payout = [0, amount, 2 * amount][(w_index + r) % 3]
                bonus = 50 if w_index == 0 else 0
                lines.append(
                    SettlementLine(ref, wallet.pk, stake=amount, payout=payout, bonus=bonus)
                )
            if r == 2:  # one bet voided instead of settled
                services.stake_refund(actor=ACTOR, bet_ref=lines[-1].bet_ref, reason="void")
                lines = lines[:-1]
            services.round_settlement_post(
                actor=ACTOR, round_id=round_id, table_id=table.pk, currency="EUR", lines=lines,
                dealer_id=t_index + 1, shift=f"s{r % 2}",
            )  # fmt: skip

    rows = table_accounting(group_by=["table"], filters=AccountingFilter())
    assert len(rows) == 2
    for row in rows:
        wallet_legs = Leg.objects.filter(account__kind="wallet", transaction__table_id=row["table"])
        stakes = -sum(
            wallet_legs.filter(kind__in=["stake", "stake_refund"]).values_list("amount", flat=True)
        )
        payouts = sum(wallet_legs.filter(kind="payout").values_list("amount", flat=True))
        bonuses = sum(wallet_legs.filter(kind="bonus").values_list("amount", flat=True))
        assert (row["handle"], row["payouts"], row["bonuses"]) == (stakes, payouts, bonuses)
        assert row["win"] == _house_side_win(transaction__table_id=row["table"])
        assert row["hold_pct"] is not None
    # Every grouping adds up to the same totals.
    total = sum(r["win"] for r in rows)
    for group_by in (["operator"], ["day", "shift"], ["dealer"], ["table", "operator", "dealer"]):
        grouped = table_accounting(group_by=group_by, filters=AccountingFilter())
        assert sum(r["win"] for r in grouped) == total, group_by
    assert total == _house_side_win(transaction__table_id__isnull=False)
    # The operator sees its own players' play only, and the API gives the same numbers.
    op_rows = (
        client_for(roles.AUDITOR).get("/api/v1/table-accounting/", {"group_by": "operator"}).data
    )
    assert sum(r["win"] for r in op_rows) == total
    mine = (
        client_for(roles.OPERATOR_INTEGRATION)
        .get("/api/v1/table-accounting/", {"group_by": "table"})
        .data
    )
    assert mine == []  # the fixture operator has no players at these tables


def test_a_correction_cannot_move_money_to_another_operator(client_for):
    """Issue 14: a correction of B's deposit with legs [A's wallet +1000, B's cash -1000]."""
    wallet_a = WalletFactory()
    wallet_b = WalletFactory()
    fund(wallet_a, 1_000)
    deposit_b = fund(wallet_b, 1_000)
    cash_b = Account.objects.get(kind="operator_cash", operator=wallet_b.operator)
    legs = [
        {"account_id": wallet_a.pk, "amount": 1_000, "kind": "deposit"},
        {"account_id": cash_b.pk, "amount": -1_000, "kind": "deposit"},
    ]
    refused = client_for(roles.PIT_BOSS).post(
        "/api/v1/corrections/",
        {"transaction_id": deposit_b.pk, "reason": "x", "replacement_legs": legs},
        format="json",
    )
    assert refused.status_code == 422
    assert f"account {wallet_a.pk}" in refused.json()["detail"]
    assert refused.json()["errors"][0]["field"] == "replacement_legs[0].account_id"
    assert not Correction.objects.exists()
    # Nor into the casino's house: a deposit's correction stays with its operator's accounts.
    legs[0]["account_id"] = house_account_id(Account.Kind.HOUSE, "EUR")
    with pytest.raises(Exception, match="outside transaction"):
        services.correction_request(
            actor=ACTOR, user=UserFactory(), original=deposit_b, reason="x", replacement_legs=legs
        )
    # Within B's own accounts it is a correction like any other.
    legs[0]["account_id"] = wallet_b.pk
    services.correction_request(
        actor=ACTOR, user=UserFactory(), original=deposit_b, reason="x", replacement_legs=legs
    )


def test_an_approval_rechecks_that_the_legs_stay_within_the_original(settled_round):
    """A request made before the rule (or tampered with in the database) is refused when it is
    approved: the check runs again on approval."""
    wallet, original = settled_round
    stranger = WalletFactory()
    correction = Correction.objects.create(
        original=original,
        reason="x",
        requested_by=UserFactory(),
        replacement_legs=[
            {"account_id": stranger.pk, "amount": 100, "kind": "payout", "bet_ref": "b1"},
            {"account_id": wallet.pk, "amount": -100, "kind": "payout", "bet_ref": "b1"},
        ],
    )
    with pytest.raises(Exception, match="outside transaction"):
        services.correction_approve(actor=ACTOR, user=UserFactory(), correction=correction)
    stranger.refresh_from_db()
    assert stranger.balance == 0
