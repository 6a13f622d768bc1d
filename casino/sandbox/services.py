"""Sandbox operators and tables, and the sandbox dealer that keeps sandbox tables playing.

A sandbox table deals itself: the server's shoe deals (as at every server-shoe table), the
table's timers close betting and apply a player's default decision, and the sandbox dealer
(``sandbox_tables_drive``, run by the worker's beat every ``SANDBOX_DRIVE_EVERY_S``) opens the
next round once one has ended and plays the banker where the game leaves the banker a choice,
by the house policy of the demo's dealer devices (draw below 17). Everything goes through the
same services as a dealer device's requests, so a sandbox round is exactly a live round.
"""

from __future__ import annotations

import logging

from django.db import transaction

from casino.actors import Actor
from casino.api.models import ApiKey
from casino.api.services import api_key_issue
from casino.errors import Conflict, DomainError
from casino.money import PLAY_MONEY
from casino.sandbox import events
from casino.sandbox.models import SandboxOperator, SandboxTable
from ledger.models import Operator
from tables import selectors as table_selectors
from tables import services as table_services
from tables.engine import PRESETS, TurnKind
from tables.models import Casino, Round, Table

logger = logging.getLogger("casino.sandbox")
ACTOR = Actor.system("sandbox.dealer")
# Fast timers: an integrator's script bets within seconds; an idle round ends quickly.
SANDBOX_TIMERS = {"betting_seconds": 8, "decision_seconds": 5}
DEALER_STANDS_ON = 17  # the demo dealer devices' house policy in a banker's-choice game
CASINO_CODE = "sandbox"


def sandbox_operator_create(*, actor: Actor, code: str, name: str) -> Operator:
    """A new sandbox (test-mode) operator: its keys see sandbox tables only."""
    if Operator.objects.filter(code=code).exists():
        raise Conflict(f"An operator {code!r} exists already.")
    with transaction.atomic():
        operator = Operator.objects.create(code=code, name=name)
        SandboxOperator.objects.create(operator=operator)
        events.sandbox_operator_created(actor=actor, operator_id=operator.pk, code=code)
    return operator


def sandbox_operator_ensure(*, actor: Actor, code: str, name: str) -> Operator:
    """The sandbox operator ``code``, created when missing (refused for a live operator's
    code: an operator never changes mode)."""
    operator = Operator.objects.filter(code=code).first()
    if operator is None:
        return sandbox_operator_create(actor=actor, code=code, name=name)
    if not SandboxOperator.objects.filter(operator=operator).exists():
        raise Conflict(f"Operator {code!r} is a live operator, not a sandbox one.")
    return operator


def sandbox_key_issue(*, actor: Actor, operator: Operator, label: str) -> tuple[ApiKey, str]:
    """A sandbox API key (an ordinary key of a sandbox operator): (key, raw secret)."""
    if not SandboxOperator.objects.filter(operator=operator).exists():
        raise Conflict(f"Operator {operator.code!r} is not a sandbox operator.")
    return api_key_issue(actor=actor, operator=operator, label=label)


def sandbox_table_create(
    *,
    actor: Actor,
    preset: str,
    code: str,
    name: str = "",
    casino: Casino | None = None,
    **settings,
) -> Table:
    """An open sandbox table of ``preset``: server shoe, play money, fast timers (``settings``
    override them and the limits)."""
    if preset not in PRESETS:
        raise Conflict(f"No preset {preset!r}; presets: {', '.join(PRESETS)}.")
    if casino is None:
        casino, _ = Casino.objects.get_or_create(
            code=CASINO_CODE, defaults={"name": "Sandbox (test mode)"}
        )
    with transaction.atomic():
        rule_set, schedule = table_services.preset_versions_ensure(actor=actor, preset=preset)
        table = table_services.table_create(
            actor=actor,
            casino=casino,
            code=code,
            name=name or f"{preset.replace('_', ' ').title()} (sandbox)",
            rule_set=rule_set,
            payout_schedule=schedule,
            currency=PLAY_MONEY,
            play_money=True,
            card_source=Table.CardSource.SERVER_SHOE,
            **{**SANDBOX_TIMERS, **settings},
        )
        SandboxTable.objects.create(table=table)
        events.sandbox_table_created(actor=actor, table_id=table.pk, code=code, preset=preset)
        table_services.table_open(actor=actor, table_id=table.pk)
    return Table.objects.get(pk=table.pk)


def sandbox_table_ensure(*, actor: Actor, preset: str, code: str, **settings) -> Table:
    """The sandbox table ``code`` (created and opened when missing, reopened when closed)."""
    table = Table.objects.filter(code=code, sandbox__isnull=False).first()
    if table is None:
        return sandbox_table_create(actor=actor, preset=preset, code=code, **settings)
    if table.status == Table.Status.CLOSED and table.retired_at is None:
        table = table_services.table_open(actor=actor, table_id=table.pk)
    return table


def sandbox_tables_drive(*, actor: Actor = ACTOR) -> dict[str, int]:
    """One pass of the sandbox dealer over every open sandbox table: open a round where none
    is live, play the banker where it is the banker's turn. A race with a timer or another
    pass is a refusal (409), logged and left to the next pass."""
    done = {"opened": 0, "dealer_decisions": 0}
    tables = Table.objects.filter(sandbox__isnull=False, status=Table.Status.OPEN)
    for table_id in tables.values_list("pk", flat=True):
        try:
            opened, decisions = sandbox_table_drive(actor=actor, table_id=table_id)
        except DomainError as refusal:
            logger.info("sandbox table %s: %s", table_id, refusal)
            continue
        done["opened"] += opened
        done["dealer_decisions"] += decisions
    return done


def sandbox_table_drive(*, actor: Actor, table_id: int) -> tuple[int, int]:
    """(rounds opened, dealer decisions made) at one sandbox table."""
    rnd = Round.objects.filter(table_id=table_id, phase__in=Round.LIVE).first()
    if rnd is None:
        table_services.round_open(actor=actor, table_id=table_id)
        return 1, 0
    if rnd.held_since is not None:  # a void request holds it: the pit decides
        return 0, 0
    decisions = 0
    # The server shoe deals after each decision: play the banker's hand out in one pass.
    for _ in range(12):
        state = table_selectors.round_state(rnd)
        turn = state.turn()
        if turn is None or turn.kind != TurnKind.DEALER:
            break
        action = "hit" if state.dealer_value().total < DEALER_STANDS_ON else "stand"
        table_services.dealer_decision_make(actor=actor, round_id=rnd.pk, action=action)
        decisions += 1
        rnd.refresh_from_db()
    return 0, decisions
