"""Settlement: the engine's outcome posted to the ledger in one transaction (voids:
``tables/services/voids.py``)."""

from __future__ import annotations

import structlog
from django.db import transaction
from django.utils import timezone

from casino import metrics
from casino.actors import Actor
from casino.errors import NotFound
from casino.gcpause import gc_paused
from ledger import services as ledger
from tables import engine as eng
from tables import events, lock_objects, selectors
from tables.models import Bet, Round, Table
from tables.services._common import Phase, meta_event
from tables.services.shoes import shoe_retire

log = structlog.stdlib.get_logger(__name__)


def round_ledger_post(*, actor: Actor, rnd: Round, settlement: eng.RoundSettlement) -> None:
    """Post a round's settlement lines to the ledger (one transaction keyed by the round).
    Lines that move nothing (a withdrawn box) are left out. Each line's outcome is kept once,
    in the round's settlement record (``Round.settlement``); the legs carry each bet's money."""
    wallets = dict(Bet.objects.filter(round=rnd).values_list("ref", "wallet"))
    lines = [
        ledger.SettlementLine(
            bet_ref=line.bet_id,
            wallet_id=wallets[line.bet_id],
            stake=line.stake,
            payout=line.stake_returned + line.winnings,
            bonus=line.bonus,
            result=line.result,
            bonus_kind=line.bonus_kind,
        )
        for line in settlement.lines
        if line.stake or line.paid
    ]
    if lines:
        posting = ledger.round_settlement_post(
            actor=actor,
            round_id=rnd.pk,
            table_id=rnd.table_id,
            currency=rnd.currency,
            lines=lines,
            dealer_id=rnd.dealer_id,
        )
        rnd.ledger_transaction_id = posting.transaction.pk


def shoe_retire_if_fresh(*, actor: Actor, rnd: Round) -> None:
    """Retire the round's server shoe when its rules deal a fresh shoe each round."""
    if rnd.shoe_id is None or rnd.card_source != Table.CardSource.SERVER_SHOE:
        return
    if not eng.RuleSet.from_json(rnd.rule_set.document).whole_shoe_each_round:
        return
    shoe = lock_objects.shoe_for_update(rnd.shoe_id).get()
    shoe_retire(actor=actor, shoe=shoe)


def round_settle(*, round_id: int, actor: Actor | None = None) -> str:
    """Settle a round in ``settling``: fold its persisted events, settle through the engine,
    post to the ledger, then mark it settled — one transaction under the round lock, so a
    redelivered or repeated call finds it settled and changes nothing. Returns the phase."""
    actor = actor or Actor.system("tables.settlement")
    with gc_paused(), transaction.atomic():
        rnd = (
            lock_objects.round_for_update(round_id)
            .select_related("rule_set", "payout_schedule")
            .defer("state")  # settling folds the events; the cache is megabytes at 10,000 bets
            .first()
        )
        if rnd is None:
            raise NotFound(f"Round {round_id} does not exist.")
        if rnd.phase != Phase.SETTLING or rnd.held_since is not None:
            return rnd.phase  # a held round settles when its hold ends (services/voids.py)
        state = selectors.round_state_replay(rnd)
        settlement = eng.settle(state)
        round_ledger_post(actor=actor, rnd=rnd, settlement=settlement)
        rnd.settle()
        rnd.finished_at = timezone.now()
        rnd.settlement = settlement.to_json()
        # Only what settling changed: the cached state (megabytes for a 10,000-bet round) is
        # neither re-serialised nor re-written.
        rnd.save(update_fields=["phase", "finished_at", "settlement", "ledger_transaction_id"])
        shoe_retire_if_fresh(actor=actor, rnd=rnd)
        totals = {"stake": settlement.total_stake, "paid": settlement.total_paid}
        meta_event(rnd, "round_settled", totals, actor)
        events.round_settled(actor=actor, round=rnd, settlement=rnd.settlement)
    if rnd.settling_since is not None:
        metrics.settlement_observed(rnd.finished_at - rnd.settling_since)
    log.info(
        "round settled",
        round=rnd.pk,
        table=rnd.table_id,
        stake=settlement.total_stake,
        paid=settlement.total_paid,
    )
    return rnd.phase
