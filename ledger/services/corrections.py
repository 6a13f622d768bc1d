"""Corrections: a posted transaction reversed and replaced, under four eyes."""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction
from django.utils import timezone

from casino.actors import Actor
from casino.errors import Conflict, Unprocessable, ValidationFailed
from ledger import events, lock_objects, notifications
from ledger.errors import (
    FourEyesRequired,
    InsufficientFunds,
    InvalidAmount,
)
from ledger.models import (
    Account,
    Correction,
    Leg,
    Transaction,
)
from ledger.postings import (
    Dimensions,
    LegSpec,
    legs_insert,
    transaction_insert,
)
from ledger.selectors import legs_archived_until
from ledger.services.common import (
    amount_check,
)


def _original_attached_check(original: Transaction) -> None:
    """A transaction of an archived month can't be corrected here: its legs (what a
    reversal negates) are in the archive (README "Retention")."""
    archived_until = legs_archived_until()
    if archived_until is not None and original.posted_at < archived_until:
        raise Unprocessable(
            f"Transaction {original.pk} was posted in an archived month (legs before "
            f"{archived_until:%Y-%m-%d} are in the archive): its legs are not here to reverse."
        )


def _replacement_legs_check(original: Transaction, raw_legs: list[dict]) -> list[LegSpec]:
    _original_attached_check(original)
    specs = []
    for index, leg in enumerate(raw_legs):
        try:
            account_id, amount = leg["account_id"], leg["amount"]
            kind, bet_ref = leg.get("kind", ""), leg.get("bet_ref", "")
        except (KeyError, TypeError):
            raise ValidationFailed(
                f"replacement_legs[{index}] needs account_id and amount."
            ) from None
        if kind not in Leg.Kind.values:
            raise ValidationFailed(
                f"replacement_legs[{index}].kind must be one of {', '.join(Leg.Kind.values)}."
            )
        if not isinstance(amount, int) or isinstance(amount, bool) or amount == 0:
            raise InvalidAmount(f"replacement_legs[{index}].amount must be a non-zero integer.")
        amount_check(abs(amount), field=f"replacement_legs[{index}].amount")
        specs.append((account_id, amount, kind, bet_ref))
    accounts = Account.objects.in_bulk([spec[0] for spec in specs])
    within = _correction_accounts(original)
    totals: dict[str, int] = defaultdict(int)
    out = []
    for index, (account_id, amount, kind, bet_ref) in enumerate(specs):
        account = accounts.get(account_id)
        if account is None:
            raise ValidationFailed(f"replacement_legs[{index}]: no account {account_id}.")
        if not within(account):
            raise Unprocessable(
                f"replacement_legs[{index}]: account {account.pk} ({account}) is outside "
                f"transaction {original.pk}: a correction stays within the original's "
                "operator and accounts.",
                errors={f"replacement_legs[{index}].account_id": ["outside the original"]},
            )
        totals[account.currency] += amount
        out.append(LegSpec(account.pk, amount, account.currency, kind, str(bet_ref)[:64]))
    unbalanced = {cur: total for cur, total in totals.items() if total}
    if unbalanced:
        raise Unprocessable(f"Replacement legs do not balance: {unbalanced}.")
    return out


def _correction_accounts(original: Transaction):
    """Which accounts a correction of ``original`` may post to: those the original touched;
    for a round's posting, also the round's (the wallets that staked in it, the table's
    stakes in play: a dispute may pay a bet the settlement paid nothing) and the casino's
    house revenue and bonus pool. A single operator's transaction (deposit, stake...) stays
    with that operator: a correction never moves money to another operator's accounts."""
    round_id = original.round_id
    legs = Leg.objects.filter(
        **({"transaction": original} if round_id is None else {"transaction__round_id": round_id})
    )
    allowed = set(legs.values_list("account_id", flat=True))
    house_side = (Account.Kind.HOUSE, Account.Kind.BONUS_POOL) if round_id is not None else ()

    def within(account: Account) -> bool:
        if original.operator_id is not None and account.operator_id not in (
            None,
            original.operator_id,
        ):
            return False
        return account.pk in allowed or account.kind in house_side

    return within


def correction_request(
    *, actor: Actor, user, original: Transaction, reason: str, replacement_legs: list[dict]
) -> Correction:
    """Ask for ``original`` to be reversed (and replaced by ``replacement_legs``).

    Nothing moves until another staff member approves (``correction_approve``).
    """
    if original.kind == Transaction.Kind.REVERSAL:
        raise Unprocessable("A reversal can't be corrected; correct its replacement instead.")
    _replacement_legs_check(original, replacement_legs)
    with transaction.atomic():
        live = Correction.objects.select_for_update().filter(
            original=original, status__in=[Correction.Status.REQUESTED, Correction.Status.APPROVED]
        )
        if live.exists():
            raise Conflict(f"Transaction {original.pk} already has a correction ({live.first()}).")
        correction = Correction.objects.create(
            original=original,
            reason=reason,
            replacement_legs=replacement_legs,
            requested_by=user,
        )
        events.correction_requested(actor=actor, correction=correction)
    return correction


def _correction_decide_check(correction: Correction) -> None:
    if correction.status != Correction.Status.REQUESTED:
        raise Conflict(f"Correction {correction.pk} is already {correction.status}.")


def correction_approve(*, actor: Actor, user, correction: Correction, note: str = "") -> Correction:
    """Post the reversal and the replacement; the approver must not be the requester."""
    with transaction.atomic():
        correction = (
            lock_objects.correction_for_decision(correction.pk).select_related("original").get()
        )
        _correction_decide_check(correction)
        if correction.requested_by_id == user.pk:
            raise FourEyesRequired(
                f"Correction {correction.pk} was requested by you; another staff member must "
                "approve it."
            )
        original = correction.original
        if original.round_id is not None:
            lock_objects.round_lock(original.round_id)
        reversal_legs = [
            LegSpec(leg.account_id, -leg.amount, leg.currency, leg.kind, leg.bet_ref)
            for leg in original.legs.order_by("pk")
        ]
        replacement_legs = _replacement_legs_check(original, correction.replacement_legs)
        deltas: dict[int, int] = defaultdict(int)
        for leg in reversal_legs + replacement_legs:
            deltas[leg.account_id] += leg.amount
        wallets = list(lock_objects.wallets_for_update(deltas))
        for wallet in wallets:
            if wallet.balance + deltas[wallet.pk] < 0:
                raise InsufficientFunds(
                    f"Correction {correction.pk} would take wallet {wallet.pk} to "
                    f"{wallet.balance + deltas[wallet.pk]} {wallet.currency}."
                )
        dims = Dimensions(
            operator_id=original.operator_id,
            table_id=original.table_id,
            round_id=original.round_id,
            dealer_id=original.dealer_id,
            shift=original.shift,
        )
        reversal = transaction_insert(
            kind=Transaction.Kind.REVERSAL,
            reference=f"correction:{correction.pk}:reversal",
            actor=actor,
            description=correction.reason,
            dimensions=dims,
            reverses_id=original.pk,
        )
        legs_insert(reversal, reversal_legs)
        replacement = None
        if replacement_legs:
            replacement = transaction_insert(
                kind=Transaction.Kind.REPLACEMENT,
                reference=f"correction:{correction.pk}:replacement",
                actor=actor,
                description=correction.reason,
                dimensions=dims,
            )
            legs_insert(replacement, replacement_legs)
        correction.status = Correction.Status.APPROVED
        correction.decided_by = user
        correction.decided_at = timezone.now()
        correction.decision_note = note
        correction.reversal = reversal
        correction.replacement = replacement
        correction.save()
        events.correction_decided(actor=actor, correction=correction)
        for operator_id in sorted({w.operator_id for w in wallets}):
            notifications.operator_event_emit(
                operator_id=operator_id,
                kind=notifications.TRANSACTION_CORRECTED,
                transaction_id=reversal.pk,
                payload={
                    "correction_id": correction.pk,
                    "original_transaction_id": original.pk,
                    "reversal_transaction_id": reversal.pk,
                    "replacement_transaction_id": replacement.pk if replacement else None,
                    "round_id": original.round_id,
                    "reason": correction.reason,
                    "wallet_changes": {
                        str(w.pk): deltas[w.pk] for w in wallets if w.operator_id == operator_id
                    },
                },
            )
    return correction


def correction_reject(*, actor: Actor, user, correction: Correction, note: str = "") -> Correction:
    with transaction.atomic():
        correction = (
            lock_objects.correction_for_decision(correction.pk).select_related("original").get()
        )
        _correction_decide_check(correction)
        correction.status = Correction.Status.REJECTED
        correction.decided_by = user
        correction.decided_at = timezone.now()
        correction.decision_note = note
        correction.save()
        events.correction_decided(actor=actor, correction=correction)
    return correction
