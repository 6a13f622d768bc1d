"""A table's rules as an operator reads them (``GET tables/{id}/rules/``): the rule-set and
payout-schedule versions the table's next round pins (documents included), their theoretical
RTP, how a bet is staked and which decisions the game asks for, and the table's timers.

A read only: the RTP is the stored figure, else the shipped preset figure
(``tables/rtp_presets.json``), else null ("not computed"); it never queues the game maths.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from tables import engine as eng
from tables.models import RtpFigure, Table
from tables.rtp import rtp_precomputed


def rtp_stored(table: Table, rules: eng.RuleSet, payouts: eng.PayoutSchedule) -> tuple:
    """(rtp, method) of the table's pair, without writing or queueing anything."""
    figure = RtpFigure.objects.filter(
        rule_set_id=table.rule_set_id, payout_schedule_id=table.payout_schedule_id
    ).first()
    if figure is not None and figure.rtp is not None:
        return figure.rtp, figure.method
    known = rtp_precomputed(rules=rules, payouts=payouts)
    if known is not None:
        return known
    return None, "not computed yet (the pit sees it computed when the rules are activated)"


def _staking(table: Table, rules: eng.RuleSet) -> dict[str, Any]:
    limits = f"from min_bet {table.min_bet} to max_bet {table.max_bet} {table.currency} minor units"
    if rules.staking_after_first_card:
        mode = "join_then_stake"
        how = (
            "Join a box while betting is open with POST rounds/{id}/bets/ and `stake: 0`. "
            "Each joined box is dealt one card (face down, shown to its own player), then a "
            "staking window opens (turn kind `staking`): post the decision `stake` with an "
            f"`amount` {limits}, or `withdraw`. A box that does not stake before the window "
            "ends withdraws (nothing is debited)."
        )
    else:
        mode = "stake_with_bet"
        how = f"Post the stake with the bet (POST rounds/{{id}}/bets/, `stake` {limits})."
    if rules.bets_per_box > 1:
        how += (
            f" Up to {rules.bets_per_box} bets per box: the first is the box's controller, "
            "the others bet behind (`behind: true`) and follow the controller's decisions."
        )
    if rules.max_boxes_per_player > 1:
        how += f" A player may play up to {rules.max_boxes_per_player} boxes."
    return {
        "mode": mode,
        "description": how,
        "currency": table.currency,
        "min_bet": table.min_bet,
        "max_bet": table.max_bet,
        "box_max": table.box_max,
        "min_unit": table.min_unit,
        "boxes": rules.boxes,
        "bets_per_box": rules.bets_per_box,
        "max_boxes_per_player": rules.max_boxes_per_player,
    }


def _decisions(rules: eng.RuleSet) -> dict[str, list[str]]:
    """The decisions this game can ask for: on a hand, and in per-bet windows."""
    if rules.player_actions == "buy_twist":
        hand = ["stand", "buy", "twist"]
    else:
        hand = ["stand", "hit"]
        if rules.double_max_per_hand:
            hand.append("double")
        if rules.surrender:
            hand.append("surrender")
        if rules.rescue:
            hand.append("rescue")
    if rules.can_split:
        hand.append("split")
    windows = []
    if rules.insurance:
        windows.append("insurance")
    if rules.even_money:
        windows.append("even_money")
    if rules.insurance or rules.even_money:
        windows.append("decline")
    if rules.bets_per_box > 1:
        windows += ["match", "decline"]
    if rules.staking_after_first_card:
        windows += ["stake", "withdraw"]
    return {"hand": hand, "windows": list(dict.fromkeys(windows))}


def table_rules(table: Table) -> dict[str, Any]:
    rules = eng.RuleSet.from_json(table.rule_set.document)
    payouts = eng.PayoutSchedule.from_json(table.payout_schedule.document)
    rtp, method = rtp_stored(table, rules, payouts)
    timeout = "twist" if rules.player_actions == "buy_twist" else "hit"
    return {
        "table_id": table.pk,
        "game": rules.name,
        "rule_set": _version(table.rule_set),
        "payout_schedule": _version(table.payout_schedule),
        "theoretical_rtp": rtp if rtp is None else Decimal(rtp),
        "rtp_method": method,
        "staking": _staking(table, rules),
        "decisions": _decisions(rules),
        "timers": {
            "betting_seconds": table.betting_seconds,
            "decision_seconds": table.decision_seconds,
            "on_timeout": (
                "When a decision window runs out the server acts: stand where the rules allow "
                f"it, otherwise {timeout}; it never doubles, splits, buys, surrenders, rescues, "
                "insures, takes even money or matches; a box that does not stake withdraws; "
                "the banker gets the house policy."
            ),
        },
    }


def _version(version) -> dict[str, Any]:
    return {
        "id": version.pk,
        "name": version.name,
        "version": version.version,
        "label": str(version),
        "document": version.document,
    }
