"""Shared options of the ``gamemath`` and ``simulate`` commands: a preset or a JSON rule file."""

from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation
from pathlib import Path

from django.core.management.base import CommandError

from tables.engine.errors import RuleConflict
from tables.engine.rules import PRESETS, PayoutSchedule, RuleSet, get_preset


def add_game_arguments(parser) -> None:
    parser.add_argument("--variant", help=f"a preset: {', '.join(PRESETS)}")
    parser.add_argument(
        "--rules",
        help='a JSON file {"rules": {...RuleSet}, "payouts": {...PayoutSchedule}} '
        "(either part may be omitted to take the --variant preset's, or the defaults)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--stake",
        help="the bet (e.g. 25.00, table currency, 2 decimals) the fixed Super Bonus prize is "
        "valued at, in the strategy and the RTP; omitted: the prize is left out",
    )


def stake_minor(options) -> int | None:
    """``--stake`` in minor units (None when absent)."""
    raw = options.get("stake")
    if raw is None:
        return None
    try:
        amount = Decimal(raw)
    except InvalidOperation:
        raise CommandError(f"--stake {raw!r}: not an amount such as 25.00") from None
    minor = amount * 100
    if not amount.is_finite() or amount <= 0 or minor != minor.to_integral_value():
        raise CommandError(f"--stake {raw!r}: a positive amount with at most 2 decimals")
    return int(minor)


def load_game(options) -> tuple[str, RuleSet, PayoutSchedule]:
    variant = options.get("variant")
    path = options.get("rules")
    if not variant and not path:
        raise CommandError("give --variant NAME or --rules FILE.json")
    try:
        if variant:
            rules, payouts = get_preset(variant)
        else:
            rules, payouts = RuleSet(), PayoutSchedule()
        if path:
            try:
                data = json.loads(Path(path).read_text())
            except (OSError, ValueError) as exc:
                raise CommandError(f"cannot read {path}: {exc}") from None
            if not isinstance(data, dict):
                raise CommandError(f"{path}: expected a JSON object")
            if "rules" in data:
                rules = RuleSet.from_json(data["rules"])
            if "payouts" in data:
                payouts = PayoutSchedule.from_json(data["payouts"])
            variant = variant if variant and "rules" not in data else rules.name
    except RuleConflict as exc:
        raise CommandError(str(exc)) from None
    return variant, rules, payouts
