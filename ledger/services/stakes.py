"""Stakes: the debit of a bet and its refund."""

from __future__ import annotations

from casino.actors import Actor
from casino.errors import Conflict, NotFound
from ledger import events, lock_objects, notifications
from ledger.errors import (
    AlreadySettled,
    ReferenceReused,
    WrongCurrency,
)
from ledger.models import (
    Account,
    Leg,
    Transaction,
)
from ledger.postings import (
    Along,
    Dimensions,
    HouseAccount,
    LegSpec,
    house_account_id,
    legs_insert,
    posting_insert,
    transaction_insert,
)
from ledger.services.common import (
    amount_check,
    currency_check,
    funds_check,
    lock_wallet,
    money_atomic,
    reference_check,
    repeat_of,
)


def stake_wallet_lock(
    *, player_id: int, currency: str, along: Along | None = None
) -> Account | None:
    """The player's wallet in ``currency``, its row locked (lock order step 3), or None;
    ``along`` is the caller's statement sent in the same round trip (a bet's box lock, which
    comes after the wallet's: ``Along(..., after=True)``).

    For a caller that debits a stake with ``stake_debit(..., wallet_locked=True)`` and wants
    to check it (``stake_debit_check``) before writing anything of its own."""
    return lock_objects.player_wallet_for_update(player_id, currency, along=along)


def stake_debit_check(
    *, wallet: Account, amount: int, currency: str, operator_id: int | None = None
) -> None:
    """The refusals ``stake_debit`` would raise for this locked wallet, raised now (nothing
    is read or written): NotFound, WrongCurrency, InsufficientFunds, InvalidAmount."""
    amount_check(amount)
    currency_check(currency)
    if operator_id is not None and wallet.operator_id != operator_id:
        raise NotFound(f"Wallet {wallet.pk} does not exist.")
    if wallet.currency != currency:
        raise WrongCurrency(
            f"Wallet {wallet.pk} holds {wallet.currency}; this stake is in {currency}."
        )
    funds_check(wallet, amount)


def stake_debit(
    *,
    actor: Actor,
    wallet: Account,
    amount: int,
    currency: str,
    table_id: int,
    round_id: int,
    bet_ref: str,
    operator_id: int | None = None,
    dealer_id: int | None = None,
    shift: str = "",
    reference: str | None = None,
    wallet_locked: bool = False,
    along: Along | None = None,
) -> Transaction:
    """Debit a stake from the wallet into the table's stakes-in-play account.

    Call it inside the transaction that records the bet (the tables app's), after taking the
    tables rows' locks; it locks only the wallet row (lock order: ``ledger/lock_objects.py``),
    unless ``wallet_locked`` says ``wallet`` is the row as locked by ``stake_wallet_lock`` in
    this transaction. Raises InsufficientFunds or WrongCurrency (both 422) before writing
    anything, NotFound when ``operator_id`` is given and the wallet is not that operator's.

    The posting reference is ``stake:<bet_ref>`` unless ``reference`` names an additional stake
    on the same bet (a double or a buy: e.g. ``stake:<bet_ref>:double:1``). Calling again with
    the same reference returns the first transaction.

    Round trips: the wallet lock (unless locked), one statement writing the transaction and its
    two legs (``posting_insert``; ``along``, the caller's statement, is sent in the same
    round trip: a bet's INSERT), the audit event. A repeated reference is found by the
    insert's ``ON CONFLICT`` (then read back), not looked up before every debit.
    """
    amount_check(amount)
    currency_check(currency)
    reference_check(bet_ref, field="bet_ref")
    reference = reference or f"stake:{bet_ref}"
    with money_atomic():
        if not wallet_locked:
            wallet = lock_wallet(wallet.pk)
        if operator_id is not None and wallet.operator_id != operator_id:
            raise NotFound(f"Wallet {wallet.pk} does not exist.")
        if wallet.currency != currency:
            raise WrongCurrency(
                f"Wallet {wallet.pk} holds {wallet.currency}; this stake is in {currency}."
            )
        if wallet.balance < amount:
            # A repeat of a debit already made returns it, whatever the balance now.
            existing = repeat_of(reference, kind="stake", wallet_id=wallet.pk, amount=-amount)
            if existing is not None:
                return existing
            funds_check(wallet, amount)
        txn = posting_insert(
            kind=Transaction.Kind.STAKE,
            reference=reference,
            actor=actor,
            dimensions=Dimensions(
                operator_id=wallet.operator_id,
                table_id=table_id,
                round_id=round_id,
                dealer_id=dealer_id,
                shift=shift,
            ),
            house=HouseAccount(Account.Kind.STAKES, currency, table_id=table_id),
            legs=[
                LegSpec(wallet.pk, -amount, currency, Leg.Kind.STAKE, bet_ref),
                LegSpec(None, amount, currency, Leg.Kind.STAKE, bet_ref),
            ],
            along=along,
        )
        if txn is None:  # the reference exists: the same debit (returned) or another one
            existing = repeat_of(reference, kind="stake", wallet_id=wallet.pk, amount=-amount)
            if existing is not None:
                return existing
            raise ReferenceReused(f"Reference {reference!r} was used concurrently.")
        wallet.balance -= amount
        events.stake_debited(
            actor=actor, wallet_id=wallet.pk, txn=txn, amount=amount, bet_ref=bet_ref
        )
    return txn


def _settlement_posted(round_id: int) -> bool:
    return Transaction.objects.filter(kind=Transaction.Kind.SETTLEMENT, round_id=round_id).exists()


def stake_refund(*, actor: Actor, bet_ref: str, reason: str) -> Transaction:
    """Return a bet's whole stake in play to its wallet (a voided bet or round).

    Takes the round lock, then the wallet (lock order), so a refund and the round's settlement
    can't both pay the same stake. Refused (AlreadySettled, 409) once the round is settled:
    money of a settled round moves only by an approved correction. Idempotent: a second call
    returns the first refund.
    """
    reference_check(bet_ref, field="bet_ref")
    reference = f"stake-refund:{bet_ref}"
    with money_atomic():
        stake_legs = list(
            Leg.objects.filter(bet_ref=bet_ref, kind=Leg.Kind.STAKE, amount__lt=0)
            .select_related("transaction")
            .order_by("pk")
        )
        if not stake_legs:
            raise NotFound(f"No stake was debited for bet {bet_ref!r}.")
        first = stake_legs[0].transaction
        wallet_id = stake_legs[0].account_id
        lock_objects.round_lock(first.round_id)
        existing = Transaction.objects.filter(reference=reference).first()
        if existing is not None:
            return existing
        if _settlement_posted(first.round_id):
            raise AlreadySettled(
                f"Round {first.round_id} is settled; bet {bet_ref!r} can only be corrected."
            )
        wallet = lock_wallet(wallet_id)
        in_play = house_account_id(Account.Kind.STAKES, wallet.currency, table_id=first.table_id)
        amount = sum(
            Leg.objects.filter(account_id=in_play, bet_ref=bet_ref).values_list("amount", flat=True)
        )
        if amount <= 0:
            raise Conflict(f"Bet {bet_ref!r} has no stake in play to refund.")
        txn = transaction_insert(
            kind=Transaction.Kind.STAKE_REFUND,
            reference=reference,
            actor=actor,
            description=reason,
            dimensions=Dimensions(
                operator_id=first.operator_id,
                table_id=first.table_id,
                round_id=first.round_id,
                dealer_id=first.dealer_id,
                shift=first.shift,
            ),
        )
        legs_insert(
            txn,
            [
                LegSpec(in_play, -amount, wallet.currency, Leg.Kind.STAKE_REFUND, bet_ref),
                LegSpec(wallet.pk, amount, wallet.currency, Leg.Kind.STAKE_REFUND, bet_ref),
            ],
        )
        events.stake_refunded(
            actor=actor, wallet_id=wallet.pk, txn=txn, amount=amount, bet_ref=bet_ref, reason=reason
        )
        notifications.operator_event_emit(
            operator_id=wallet.operator_id,
            kind=notifications.STAKE_REFUNDED,
            transaction_id=txn.pk,
            payload={
                "transaction_id": txn.pk,
                "round_id": first.round_id,
                "table_id": first.table_id,
                "bet_ref": bet_ref,
                "wallet_id": wallet.pk,
                "player_id": wallet.player_id,
                "amount": amount,
                "currency": wallet.currency,
                "reason": reason,
            },
        )
    return txn
