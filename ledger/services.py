"""Every movement of money, in one place.

Each service runs inside the caller's database transaction when there is one (else in its
own): a refused movement raises a DomainError before writing anything, and any database error
aborts the caller's transaction with it, so nothing is ever half-written. Locks are taken in the
order documented in ``ledger/lock_objects.py``. Every posting has a unique ``reference``; a
repeated call with the same reference returns the first transaction instead of moving money
again.
"""

from __future__ import annotations

import base64
import re
import secrets
import uuid
from collections import defaultdict
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import NamedTuple

from django.db import connection, transaction
from django.utils import timezone

from casino.actors import Actor
from casino.errors import Conflict, NotFound, Unprocessable, ValidationFailed
from casino.money import PLAY_MONEY
from casino.pgarrays import int_array, text_array
from ledger import egress, events, lock_objects, notifications, sealed, webhooks
from ledger.errors import (
    AlreadySettled,
    FourEyesRequired,
    InsufficientFunds,
    InvalidAmount,
    ReferenceReused,
    StakeMismatch,
    WrongCurrency,
)
from ledger.models import (
    Account,
    Correction,
    Leg,
    Operator,
    OperatorEvent,
    Player,
    Transaction,
    WebhookCircuit,
)
from ledger.postings import (
    Dimensions,
    HouseAccount,
    LegSpec,
    house_account_id,
    legs_insert,
    posting_insert,
    transaction_insert,
)

# Far below 2**63 so that sums of many legs can never overflow a bigint.
MAX_AMOUNT = 10**15
_CURRENCY = re.compile(r"^[A-Z]{3}$")
_REF = re.compile(r"^[\x21-\x7e]{1,64}$")


def _money_atomic():
    """Join the caller's transaction as is (no savepoint round trips on the bet path), or
    open one. Refusals raise before any write, so a caller may catch them and carry on."""
    if connection.in_atomic_block:
        return nullcontext()
    return transaction.atomic()


def amount_check(amount, *, field: str = "amount", allow_zero: bool = False) -> int:
    low = 0 if allow_zero else 1
    if isinstance(amount, bool) or not isinstance(amount, int) or not low <= amount <= MAX_AMOUNT:
        raise InvalidAmount(
            f"{field} must be an integer number of minor units from {low} to {MAX_AMOUNT}.",
            errors={field: [f"an integer from {low} to {MAX_AMOUNT}"]},
        )
    return amount


def currency_check(currency) -> str:
    if not isinstance(currency, str) or not _CURRENCY.match(currency):
        raise ValidationFailed(
            "currency must be an ISO 4217 code (three capital letters).",
            errors={"currency": ["three capital letters, e.g. EUR"]},
        )
    return currency


def _reference_check(value, *, field: str) -> str:
    if not isinstance(value, str) or not _REF.match(value):
        raise ValidationFailed(
            f"{field} must be 1-64 visible ASCII characters.",
            errors={field: ["1-64 visible ASCII characters"]},
        )
    return value


def _lock_wallet(wallet_id: int) -> Account:
    wallet = lock_objects.wallets_for_update([wallet_id]).first()
    if wallet is None:
        raise NotFound(f"Wallet {wallet_id} does not exist.")
    return wallet


def _funds_check(wallet: Account, amount: int) -> None:
    if wallet.balance < amount:
        raise InsufficientFunds(
            f"Wallet {wallet.pk} holds {wallet.balance} {wallet.currency} minor units; "
            f"{amount} are needed.",
        )


def _existing(reference: str, *, kind: str, wallet_id: int, amount: int) -> Transaction | None:
    """The transaction already posted under ``reference``, if it is this same movement."""
    txn = Transaction.objects.filter(reference=reference).first()
    if txn is None:
        return None
    same = (
        txn.kind == kind
        and Leg.objects.filter(transaction=txn, account_id=wallet_id, amount=amount).exists()
    )
    if not same:
        raise ReferenceReused(
            f"Reference {reference!r} already names transaction {txn.pk} ({txn.kind}), "
            "a different movement; use a new reference."
        )
    return txn


# --- Players, operators and wallets -------------------------------------------------------


def player_create(*, actor: Actor, operator, external_ref: str, display_name: str = "") -> Player:
    """A new player of ``operator``; Conflict when the operator already has this reference."""
    with transaction.atomic():
        if Player.objects.filter(operator=operator, external_ref=external_ref).exists():
            raise Conflict(f"Player {external_ref!r} already exists for this operator.")
        player = Player.objects.create(
            operator=operator, external_ref=external_ref, display_name=display_name
        )
        events.player_created(actor=actor, player=player)
    return player


def webhook_secret_new() -> str:
    """A Standard Webhooks secret: ``whsec_`` + base64 of 32 random bytes (the signing key)."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


def operator_webhook_set(
    *,
    actor: Actor,
    operator,
    url: str,
    event_types: Sequence[str] | None = None,
    rotate_secret: bool = True,
) -> tuple[Operator, str | None]:
    """Point the operator's webhooks at ``url`` ("" for the events feed only), subscribe them
    to ``event_types`` (empty: every type; None: unchanged) and, unless told not to (or there
    is no secret yet), rotate the signing secret: (operator, the new secret to show once, or
    None). The previous secret keeps signing alongside the new one for
    ``webhooks.SECRET_OVERLAP`` so the receiver can switch without losing a delivery. A target
    the egress allow-list refuses is a 400 naming ``webhook_url``; the circuit starts closed."""
    if url:
        egress.webhook_target_check(url)
    if event_types is not None:
        unknown = sorted(set(event_types) - set(notifications.EVENT_TYPES))
        if unknown:
            known = ", ".join(notifications.EVENT_TYPES)
            raise ValidationFailed(
                f"Unknown event types: {', '.join(unknown)}.",
                errors={"event_types": [f"each one of: {known}"]},
            )
    with transaction.atomic():
        operator = Operator.objects.select_for_update().get(pk=operator.pk)
        fields = ["webhook_url"]
        operator.webhook_url = url
        if event_types is not None:
            operator.webhook_event_types = sorted(set(event_types))
            fields.append("webhook_event_types")
        secret = None
        if rotate_secret or not operator.webhook_secret_sealed:
            secret = webhook_secret_new()
            if operator.webhook_secret_sealed:
                operator.webhook_secret_previous_sealed = operator.webhook_secret_sealed
                operator.webhook_secret_previous_until = timezone.now() + webhooks.SECRET_OVERLAP
            operator.webhook_secret_sealed = sealed.seal(secret)
            fields += [
                "webhook_secret_sealed",
                "webhook_secret_previous_sealed",
                "webhook_secret_previous_until",
            ]
        operator.save(update_fields=fields)
        WebhookCircuit.objects.filter(operator=operator).update(
            state=WebhookCircuit.State.CLOSED, consecutive_failures=0, open_until=None,
            probe_until=None,
        )  # fmt: skip
        events.operator_webhook_set(actor=actor, operator=operator, rotated=secret is not None)
    return operator, secret


def operator_event_redeliver(*, actor: Actor, event: OperatorEvent) -> OperatorEvent:
    """Send a past event to the operator's endpoint again, with the same ``webhook-id`` (the
    receiver de-duplicates on it), as a new series of attempts; audited. Whatever its state
    (delivered, failed, not subscribed); refused (409) while an attempt is in flight, for
    events about the webhook itself, and when the operator has no webhook URL."""
    with transaction.atomic():
        event = (
            OperatorEvent.objects.select_for_update().select_related("operator").get(pk=event.pk)
        )
        now = timezone.now()
        if event.delivery == OperatorEvent.Delivery.FEED_ONLY:
            raise Conflict("This event is about the webhook itself and is never sent to it.")
        if not event.operator.webhook_url:
            raise Conflict("The operator has no webhook URL: set one first.")
        if event.delivery == OperatorEvent.Delivery.PENDING and (
            event.claimed_until and event.claimed_until > now
        ):
            raise Conflict("An attempt to deliver this event is in flight; try again later.")
        previous = event.delivery
        event.delivery = OperatorEvent.Delivery.PENDING
        event.attempts = 0
        event.next_attempt_at = now
        event.claimed_until = None
        event.save(update_fields=["delivery", "attempts", "next_attempt_at", "claimed_until"])
        events.operator_event_redelivered(actor=actor, event=event, previous=previous)
        notifications.deliveries_enqueue_on_commit([event.pk])
    return event


def _play_money_check(player: Player, currency: str) -> None:
    """A sandbox operator's wallets hold play money only, and only they hold it (casino/sandbox):
    sandbox money never lands in a real currency's accounts, nor real money in the sandbox."""
    sandbox = Operator.objects.filter(pk=player.operator_id, sandbox__isnull=False).exists()
    if sandbox != (currency == PLAY_MONEY):
        expected = f"{PLAY_MONEY} (play money)" if sandbox else f"a real currency, not {PLAY_MONEY}"
        raise WrongCurrency(
            f"A {'sandbox' if sandbox else 'live'} operator's wallets hold {expected}.",
            errors={"currency": [f"{'only' if sandbox else 'not'} {PLAY_MONEY}"]},
        )


def wallet_open(*, actor: Actor, player: Player, currency: str) -> tuple[Account, bool]:
    """The player's wallet in ``currency``, opened on first use: (wallet, created)."""
    currency_check(currency)
    _play_money_check(player, currency)
    with _money_atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                """
                INSERT INTO ledger_account (kind, currency, operator_id, player_id, table_id,
                                            balance, created_at)
                VALUES ('wallet', %s, %s, %s, NULL, 0, %s)
                ON CONFLICT ON CONSTRAINT account_unique_identity DO NOTHING
                RETURNING id
                """,
                [currency, player.operator_id, player.pk, timezone.now()],
            )
            created = cursor.fetchone() is not None
        wallet = Account.objects.get(kind=Account.Kind.WALLET, player=player, currency=currency)
        if created:
            events.wallet_opened(actor=actor, wallet=wallet)
    return wallet, created


def _funds_move(
    *, actor: Actor, wallet: Account, amount: int, reference: str | None, kind: str
) -> tuple[Transaction, bool]:
    amount_check(amount)
    deposit = kind == Transaction.Kind.DEPOSIT
    with _money_atomic():
        wallet = _lock_wallet(wallet.pk)
        signed = amount if deposit else -amount
        full_reference = (
            f"op{wallet.operator_id}:{kind}:{reference}" if reference else f"{kind}:{uuid.uuid4()}"
        )
        existing = _existing(full_reference, kind=kind, wallet_id=wallet.pk, amount=signed)
        if existing is not None:
            return existing, False
        if not deposit:
            _funds_check(wallet, amount)
        cash = house_account_id(
            Account.Kind.OPERATOR_CASH, wallet.currency, operator_id=wallet.operator_id
        )
        txn = transaction_insert(
            kind=kind,
            reference=full_reference,
            actor=actor,
            dimensions=Dimensions(operator_id=wallet.operator_id),
        )
        if txn is None:  # lost a race for the reference to another wallet's movement
            raise ReferenceReused(f"Reference {reference!r} was used concurrently; retry.")
        legs_insert(
            txn.pk,
            [
                LegSpec(wallet.pk, signed, wallet.currency, kind),
                LegSpec(cash, -signed, wallet.currency, kind),
            ],
        )
        wallet.balance += signed
        events.funds_moved(actor=actor, wallet=wallet, txn=txn, amount=amount)
        notifications.operator_event_emit(
            operator_id=wallet.operator_id,
            kind=notifications.WALLET_DEPOSIT if deposit else notifications.WALLET_WITHDRAWAL,
            transaction_id=txn.pk,
            payload={
                "transaction_id": txn.pk,
                "wallet_id": wallet.pk,
                "player_id": wallet.player_id,
                "amount": amount,
                "currency": wallet.currency,
                "balance": wallet.balance,
                "reference": reference or "",
            },
        )
    return txn, True


def wallet_deposit(
    *, actor: Actor, wallet: Account, amount: int, reference: str | None = None
) -> tuple[Transaction, bool]:
    """Credit the wallet from the operator's cash account: (transaction, created).

    ``reference`` is the operator's own id for the movement: repeating it returns the first
    transaction (ledger-level idempotency that outlives the API's 24-hour keys).
    """
    return _funds_move(
        actor=actor, wallet=wallet, amount=amount, reference=reference, kind="deposit"
    )


def wallet_withdraw(
    *, actor: Actor, wallet: Account, amount: int, reference: str | None = None
) -> tuple[Transaction, bool]:
    """Debit the wallet to the operator's cash account; refused with InsufficientFunds."""
    return _funds_move(
        actor=actor, wallet=wallet, amount=amount, reference=reference, kind="withdrawal"
    )


# --- Stakes -------------------------------------------------------------------------------


def stake_wallet_lock(*, player_id: int, currency: str) -> Account | None:
    """The player's wallet in ``currency``, its row locked (lock order step 3), or None.

    For a caller that debits a stake with ``stake_debit(..., wallet_locked=True)`` and wants
    to check it (``stake_debit_check``) before writing anything of its own."""
    return lock_objects.player_wallet_for_update(player_id, currency)


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
    _funds_check(wallet, amount)


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
    two legs (``posting_insert``), the audit event. A repeated reference is found by the
    insert's ``ON CONFLICT`` (then read back), not looked up before every debit.
    """
    amount_check(amount)
    currency_check(currency)
    _reference_check(bet_ref, field="bet_ref")
    reference = reference or f"stake:{bet_ref}"
    with _money_atomic():
        if not wallet_locked:
            wallet = _lock_wallet(wallet.pk)
        if operator_id is not None and wallet.operator_id != operator_id:
            raise NotFound(f"Wallet {wallet.pk} does not exist.")
        if wallet.currency != currency:
            raise WrongCurrency(
                f"Wallet {wallet.pk} holds {wallet.currency}; this stake is in {currency}."
            )
        if wallet.balance < amount:
            # A repeat of a debit already made returns it, whatever the balance now.
            existing = _existing(reference, kind="stake", wallet_id=wallet.pk, amount=-amount)
            if existing is not None:
                return existing
            _funds_check(wallet, amount)
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
        )
        if txn is None:  # the reference exists: the same debit (returned) or another one
            existing = _existing(reference, kind="stake", wallet_id=wallet.pk, amount=-amount)
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
    _reference_check(bet_ref, field="bet_ref")
    reference = f"stake-refund:{bet_ref}"
    with _money_atomic():
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
        wallet = _lock_wallet(wallet_id)
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
            txn.pk,
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


# --- Settlement ---------------------------------------------------------------------------


class SettlementLine(NamedTuple):
    """One settled line of a bet, in minor units (a tuple: a round may have 10,000).

    From the engine's ``BetSettlement``: ``stake=line.stake``,
    ``payout=line.stake_returned + line.winnings`` (paid by the house), ``bonus=line.bonus``
    (paid by the bonus pool), ``result``/``bonus_kind`` as given. A bet may have several lines
    (one per hand, insurance, envy bonus); their stakes must add up to the bet's stake in play.
    """

    bet_ref: str
    wallet_id: int
    stake: int
    payout: int
    bonus: int = 0
    result: str = ""
    bonus_kind: str = ""


@dataclass(frozen=True)
class SettlementPosting:
    transaction: Transaction
    created: bool  # False: the round was already posted and nothing changed


def _settlement_lines_check(lines: Sequence[SettlementLine]) -> None:
    """Every field typed and in range. Checked a column at a time (10,000 lines in ~2 ms); a
    column that fails is checked line by line for the error naming the first bad line."""
    columns = {
        "bet_ref": [line.bet_ref for line in lines],
        "wallet_id": [line.wallet_id for line in lines],
        "stake": [line.stake for line in lines],
        "payout": [line.payout for line in lines],
        "bonus": [line.bonus for line in lines],
    }
    for field in ("stake", "payout", "bonus"):
        values = columns[field]
        if set(map(type, values)) <= {int} and (
            not values or 0 <= min(values) <= max(values) <= MAX_AMOUNT
        ):
            continue
        for index, value in enumerate(values):
            amount_check(value, field=f"lines[{index}].{field}", allow_zero=True)
    if not set(map(type, columns["wallet_id"])) <= {int}:
        for index, value in enumerate(columns["wallet_id"]):
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValidationFailed(f"lines[{index}].wallet_id must be an integer.")
    for index, value in enumerate(columns["bet_ref"]):
        _reference_check(value, field=f"lines[{index}].bet_ref")


# Per bet, an index lookup by bet_ref (a handful of legs each): the cost follows the round's
# size, not the size of the table's stakes-in-play history. ``bet_ref <> ''`` lets the planner
# use the partial index ``leg_bet_ref_idx``.
_STAKE_CHECK_SQL = """
    SELECT u.bet_ref, u.stake, u.in_play FROM (
        SELECT x.bet_ref, sum(x.stake) AS stake,
               (SELECT coalesce(sum(l.amount), 0) FROM ledger_leg AS l
                WHERE l.bet_ref = x.bet_ref AND l.bet_ref <> '' AND l.account_id = %s) AS in_play
        FROM unnest(%s::text[], %s::bigint[]) AS x(bet_ref, stake)
        GROUP BY x.bet_ref
    ) AS u
    WHERE u.in_play <> u.stake
    ORDER BY u.bet_ref
    LIMIT 5
"""

_SETTLED_EVENTS_SQL = """
    INSERT INTO ledger_operatorevent (public_id, operator_id, kind, payload, created_at,
                                      transaction_id, delivery, attempts, next_attempt_at)
    SELECT 'evt_' || replace(gen_random_uuid()::text, '-', ''), a.operator_id, %(kind)s,
           json_build_object(
               'transaction_id', %(txn)s, 'round_id', %(round)s, 'table_id', %(table)s,
               'currency', %(currency)s,
               'bets', json_agg(json_build_object(
                   'bet_ref', u.bet_ref, 'wallet_id', u.wallet_id, 'player_id', a.player_id,
                   'stake', u.stake, 'payout', u.payout, 'bonus', u.bonus,
                   'result', u.result, 'bonus_kind', u.bonus_kind) ORDER BY u.n)),
           %(now)s, %(txn)s,
           CASE WHEN o.webhook_url = '' THEN 'not_configured'
                WHEN o.webhook_event_types <> '{}' AND NOT %(kind)s = ANY(o.webhook_event_types)
                THEN 'not_subscribed'
                ELSE 'pending' END, 0, %(now)s
    FROM unnest(%(bet_ref)s::text[], %(wallet)s::bigint[], %(stake)s::bigint[],
                %(payout)s::bigint[], %(bonus)s::bigint[], %(result)s::text[],
                %(bonus_kind)s::text[]) WITH ORDINALITY
         AS u(bet_ref, wallet_id, stake, payout, bonus, result, bonus_kind, n)
    JOIN ledger_account AS a ON a.id = u.wallet_id
    JOIN ledger_operator AS o ON o.id = a.operator_id
    GROUP BY a.operator_id, o.webhook_url, o.webhook_event_types
    RETURNING id, delivery
"""


def round_settlement_post(
    *,
    actor: Actor,
    round_id: int,
    table_id: int,
    currency: str,
    lines: Sequence[SettlementLine],
    dealer_id: int | None = None,
    shift: str = "",
) -> SettlementPosting:
    """Post every payout of a round in ONE ledger transaction, exactly once.

    Contract for the settlement orchestration (the tables app's Celery task):

    - Call it inside the ``transaction.atomic()`` block that also marks the round settled; the
      round becomes settled exactly when the ledger commits. Take the round row's lock first
      (tables rows before ledger rows, ``ledger/lock_objects.py``).
    - It is keyed by ``settlement:round:<round_id>:<currency>`` (a unique transaction
      reference) under the round's advisory lock: a second call — redelivery, retry, manual
      re-run — writes nothing and returns ``SettlementPosting(first_transaction,
      created=False)``, whatever lines it is given.
    - ``lines`` (see ``SettlementLine``): per bet, the line stakes must sum to exactly the
      bet's stake still in play on the table (debited by ``stake_debit``, not refunded); every
      stake in play that the round leaves out stays in play. Violations raise StakeMismatch
      (422); unknown wallets or another currency raise Unprocessable/WrongCurrency; nothing is
      written then.
    - Postings: each bet's stake leaves the table's stakes-in-play for house revenue, payouts
      (stake returned + winnings) go from house revenue to the wallet, bonuses from the bonus
      pool. Bulk SQL, a fixed number of statements whatever the number of bets: one lock of
      all the wallets (ascending id), one stake check, one INSERT … SELECT FROM unnest of all
      legs (the legs trigger then moves every wallet balance in one UPDATE … FROM), one
      INSERT … SELECT of the operators' ``round.settled`` events (one per operator, delivered
      as webhooks after commit) and one audit event.
    """
    currency_check(currency)
    _settlement_lines_check(lines)
    reference = f"settlement:round:{round_id}:{currency}"
    with _money_atomic():
        lock_objects.round_lock(round_id)
        existing = Transaction.objects.filter(reference=reference).first()
        if existing is not None:
            return SettlementPosting(existing, created=False)

        bet_refs = [line.bet_ref for line in lines]
        wallet_ids = [line.wallet_id for line in lines]
        stakes = [line.stake for line in lines]
        in_play = house_account_id(Account.Kind.STAKES, currency, table_id=table_id)
        house = house_account_id(Account.Kind.HOUSE, currency)
        with connection.cursor() as cursor:
            cursor.execute(
                lock_objects.WALLETS_FOR_UPDATE_SQL, [int_array(sorted(set(wallet_ids)))]
            )
            wallets = {row[0]: row for row in cursor.fetchall()}
            missing = sorted(set(wallet_ids) - wallets.keys())
            if missing:
                raise Unprocessable(f"No such wallets: {missing[:10]}.")
            foreign = sorted(pk for pk, row in wallets.items() if row[1] != currency)
            if foreign:
                raise WrongCurrency(f"Wallets {foreign[:10]} do not hold {currency}.")
            cursor.execute(_STAKE_CHECK_SQL, [in_play, text_array(bet_refs), int_array(stakes)])
            mismatched = cursor.fetchall()
        if mismatched:
            described = ", ".join(f"{ref}: lines {s}, in play {p}" for ref, s, p in mismatched)
            raise StakeMismatch(
                f"Round {round_id}: line stakes differ from the stakes in play ({described})."
            )

        in_play_by_bet: dict[str, int] = defaultdict(int)
        for line in lines:
            in_play_by_bet[line.bet_ref] += line.stake
        total_stake = sum(stakes)
        total_payout = sum(line.payout for line in lines)
        total_bonus = sum(line.bonus for line in lines)
        legs = [
            LegSpec(in_play, -stake, currency, Leg.Kind.SETTLE_STAKE, ref)
            for ref, stake in in_play_by_bet.items()
        ]
        legs += [
            LegSpec(house, total_stake, currency, Leg.Kind.SETTLE_STAKE),
            LegSpec(house, -total_payout, currency, Leg.Kind.PAYOUT),
        ]
        legs += [
            LegSpec(line.wallet_id, line.payout, currency, Leg.Kind.PAYOUT, line.bet_ref)
            for line in lines
        ]
        if total_bonus:
            pool = house_account_id(Account.Kind.BONUS_POOL, currency)
            legs.append(LegSpec(pool, -total_bonus, currency, Leg.Kind.BONUS))
            legs += [
                LegSpec(line.wallet_id, line.bonus, currency, Leg.Kind.BONUS, line.bet_ref)
                for line in lines
                if line.bonus
            ]
        if total_stake == 0 and total_payout == 0 and total_bonus == 0:
            raise Unprocessable(f"Round {round_id}: no line moves money; nothing to settle.")

        txn = transaction_insert(
            kind=Transaction.Kind.SETTLEMENT,
            reference=reference,
            actor=actor,
            dimensions=Dimensions(
                table_id=table_id, round_id=round_id, dealer_id=dealer_id, shift=shift
            ),
        )
        legs_insert(txn.pk, legs)
        now = timezone.now()
        with connection.cursor() as cursor:
            cursor.execute(
                _SETTLED_EVENTS_SQL,
                {
                    "kind": notifications.ROUND_SETTLED,
                    "txn": txn.pk,
                    "round": round_id,
                    "table": table_id,
                    "currency": currency,
                    "now": now,
                    "bet_ref": text_array(bet_refs),
                    "wallet": int_array(wallet_ids),
                    "stake": int_array(stakes),
                    "payout": int_array(line.payout for line in lines),
                    "bonus": int_array(line.bonus for line in lines),
                    "result": text_array(line.result for line in lines),
                    "bonus_kind": text_array(line.bonus_kind for line in lines),
                },
            )
            pending = [pk for pk, delivery in cursor.fetchall() if delivery == "pending"]
        notifications.deliveries_enqueue_on_commit(pending)
        events.round_settled(
            actor=actor,
            txn=txn,
            currency=currency,
            totals={
                "lines": len(lines),
                "bets": len(in_play_by_bet),
                "stake": total_stake,
                "payout": total_payout,
                "bonus": total_bonus,
            },
        )
    return SettlementPosting(txn, created=True)


# --- Corrections --------------------------------------------------------------------------


def _replacement_legs_check(original: Transaction, raw_legs: list[dict]) -> list[LegSpec]:
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
        legs_insert(reversal.pk, reversal_legs)
        replacement = None
        if replacement_legs:
            replacement = transaction_insert(
                kind=Transaction.Kind.REPLACEMENT,
                reference=f"correction:{correction.pk}:replacement",
                actor=actor,
                description=correction.reason,
                dimensions=dims,
            )
            legs_insert(replacement.pk, replacement_legs)
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
