"""A replay against the ledger: each replayed settlement line with the payout and bonus legs of
the round's settlement posting in force (the original, or an approved correction's
replacement), and each bet's stake with what was debited."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from forensics.replay_differences import Differences
from ledger.models import Correction, Leg, Transaction
from tables.models import Round


def ledger_compare(
    *, rnd: Round, settlement, lines: list[dict[str, Any]], bets: dict, differences: Differences
) -> dict[str, Any]:
    """The round's ledger postings and corrections, and every replayed line compared with the
    legs of the settlement posting in force and the stakes debited (differences added)."""
    txns = list(Transaction.objects.filter(round_id=rnd.pk).order_by("pk"))
    legs = list(
        Leg.objects.filter(transaction__round_id=rnd.pk)
        .order_by("transaction_id", "pk")
        .values("id", "transaction_id", "account_id", "account__kind", "amount", "kind", "bet_ref")
    )
    corrections = list(Correction.objects.filter(original__round_id=rnd.pk).order_by("pk"))
    current = _current_settlement(txns)
    out = {
        "transactions": [
            {
                "id": t.pk,
                "kind": t.kind,
                "reference": t.reference,
                "posted_at": t.posted_at,
                "reverses_id": t.reverses_id,
                "current": current is not None and t.pk == current.pk,
            }
            for t in txns
        ],
        "settlement_transaction_id": current.pk if current else None,
        "corrections": [
            {
                "id": c.pk,
                "status": c.status,
                "original_id": c.original_id,
                "reversal_id": c.reversal_id,
                "replacement_id": c.replacement_id,
                "reason": c.reason,
            }
            for c in corrections
        ],
        "bets": [],
    }
    if settlement is None:
        return out
    wallet = [leg for leg in legs if leg["account__kind"] == "wallet"]
    staked: dict[str, int] = defaultdict(int)
    for leg in wallet:
        if leg["kind"] in ("stake", "stake_refund"):
            staked[leg["bet_ref"]] -= leg["amount"]
    posted = [leg for leg in wallet if current is not None and leg["transaction_id"] == current.pk]
    _payouts_compare(
        differences,
        lines,
        posted,
        "payout",
        "ledger_payout",
        lambda e: e["stake_returned"] + e["winnings"],
    )
    _payouts_compare(differences, lines, posted, "bonus", "ledger_bonus", lambda e: e["bonus"])
    _stakes_compare(differences, lines, staked)
    if current is None and any(e["paid"] or e["stake"] for e in lines):
        differences.add(
            "unposted",
            f"round {rnd.pk} is {rnd.phase} but the ledger holds no settlement posting",
            field="settlement",
            source="ledger",
        )
    out["bets"] = _bet_totals(lines, posted, staked, bets)
    known = {e["bet_ref"] for e in lines}
    for ref in sorted({leg["bet_ref"] for leg in posted if leg["bet_ref"]} - known):
        differences.add(
            "unknown_bet",
            f"the ledger pays bet {ref}, which the replay does not settle",
            bet_ref=ref,
            source="ledger",
        )
    return out


def _payouts_compare(
    differences: Differences, lines, posted, leg_kind: str, column: str, expected
) -> None:
    """Align each bet's non-zero lines with its legs of ``leg_kind``, in posting order."""
    by_bet: dict[str, list[dict]] = defaultdict(list)
    for leg in posted:
        if leg["kind"] == leg_kind:
            by_bet[leg["bet_ref"]].append(leg)
    bet_lines: dict[str, list[dict]] = defaultdict(list)
    for entry in lines:
        bet_lines[entry["bet_ref"]].append(entry)
    for ref, entries in bet_lines.items():
        paying = [e for e in entries if expected(e)]
        legs = by_bet.get(ref, [])
        if len(paying) == len(legs):
            for entry in entries:
                entry[column] = 0
            for entry, leg in zip(paying, legs, strict=True):
                entry[column] = leg["amount"]
                entry["ledger_leg_ids"].append(leg["id"])
                if leg["amount"] != expected(entry):
                    differences.line(entry, leg_kind, expected(entry), leg["amount"], "ledger")
            continue
        # The legs can't be paired with the lines one to one (a correction's replacement
        # adds a leg per adjustment): compare the bet's totals, and name every line of the
        # bet when they differ.
        total = sum(leg["amount"] for leg in legs)
        want = sum(expected(e) for e in entries)
        if total == want:
            for entry in entries:
                entry[column] = total if len(paying) == 1 and entry is paying[0] else None
                entry["ledger_leg_ids"] += [leg["id"] for leg in legs]
            continue
        for entry in entries:
            entry["match"] = False
            entry["ledger_leg_ids"] += [leg["id"] for leg in legs]
        differences.add(
            "line",
            f"bet {ref}: {len(legs)} {leg_kind} legs totalling {total} in the ledger, the "
            f"replay pays {want} on lines "
            + ", ".join(f"{e['line']} ({e['hand']}, {e['result']})" for e in entries),
            bet_ref=ref,
            line=entries[0]["line"],
            hand=entries[0]["hand"],
            field=leg_kind,
            replay=want,
            found=total,
            source="ledger",
        )


def _stakes_compare(differences: Differences, lines, staked: dict[str, int]) -> None:
    wanted: dict[str, int] = defaultdict(int)
    first: dict[str, dict] = {}
    for entry in lines:
        wanted[entry["bet_ref"]] += entry["stake"]
        first.setdefault(entry["bet_ref"], entry)
    for ref, stake in wanted.items():
        if staked.get(ref, 0) != stake:
            entry = first[ref]
            entry["match"] = False
            differences.add(
                "stake",
                f"bet {ref}: the replay stakes {stake}, the ledger debited {staked.get(ref, 0)}",
                bet_ref=ref,
                line=entry["line"],
                hand=entry["hand"],
                field="stake",
                replay=stake,
                found=staked.get(ref, 0),
                source="ledger",
            )


def _bet_totals(lines, posted, staked, bets) -> list[dict[str, Any]]:
    """Per bet: what the replay pays and what the ledger's current posting pays."""
    out: dict[str, dict[str, Any]] = {}
    for entry in lines:
        ref = entry["bet_ref"]
        bet = bets.get(ref)
        row = out.setdefault(
            ref,
            {
                "bet_ref": ref,
                "bet_id": bet.pk if bet else None,
                "player_id": bet.player_id if bet else None,
                "wallet_id": bet.wallet_id if bet else None,
                "stake": 0,
                "staked": staked.get(ref, 0),
                "replay_payout": 0,
                "replay_bonus": 0,
                "ledger_payout": 0,
                "ledger_bonus": 0,
            },
        )
        row["stake"] += entry["stake"]
        row["replay_payout"] += entry["stake_returned"] + entry["winnings"]
        row["replay_bonus"] += entry["bonus"]
    for leg in posted:
        row = out.get(leg["bet_ref"])
        if row is not None and leg["kind"] in ("payout", "bonus"):
            row[f"ledger_{leg['kind']}"] += leg["amount"]
    return list(out.values())


def _current_settlement(txns: list[Transaction]) -> Transaction | None:
    """The round's settlement posting in force: the original, or the replacement that an
    approved correction put in its place (``None`` when a correction only reversed it)."""
    reversed_ids = {t.reverses_id for t in txns if t.reverses_id}
    candidates = [
        t for t in txns if t.kind in ("settlement", "replacement") and t.pk not in reversed_ids
    ]
    return candidates[-1] if candidates else None
