"""Round replay: a round's recorded events re-run through the engine, checked against everything
else that recorded the round, card by card.

The engine folds the round's ``RoundEvent`` rows under the rule-set and payout-schedule
versions the round pinned, settles the result (``settle``, or ``settle_void`` for a voided
round) and compares every bet line with

- the ledger: the payout leg (stake returned + winnings) and the bonus leg of each line on the
  player's wallet, in the round's current settlement posting (the original, or the
  replacement of an approved correction), and the stakes debited per bet;
- the round's own record (``Round.settlement``: result, stake returned, winnings, bonus, paid);
- the audit log: each engine event must equal the copy the audit log took of it in the same
  transaction (``tables.round_event.*``), and each of the round's audit events must still hash
  to its content hash and, once sealed, to the digest its seal holds.

Every disagreement becomes a ``difference`` naming the bet (its ``ref``) and the line. The
replay reads only; the caller records that it was read (``audit.viewed``).

Here: folding the events card by card and settling. Beside it, what the result is checked
against: ``replay_ledger`` (the postings), ``replay_integrity`` (the audit events, seals and
verification), ``replay_shoes`` (each card against its shoe's revealed order).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from audit.models import AuditEvent
from casino.errors import NotFound
from casino.version import software_version
from forensics.replay_differences import Differences
from forensics.replay_integrity import attribution, integrity_proof
from forensics.replay_ledger import ledger_compare
from forensics.replay_shoes import ShoeCounter, shoes_check
from tables import engine as eng
from tables.models import Bet, Decision, Round, RoundEvent

ROUND_EVENT_PREFIX = "tables.round_event."
SETTLEMENT_KINDS = ("settlement", "reversal", "replacement")
LINE_FIELDS = ("result", "stake", "stake_returned", "winnings", "bonus", "paid")


def round_replay(*, round_id: int) -> dict[str, Any]:
    """The replay of one round as plain data (see the module docstring); NotFound if none."""
    rnd = (
        Round.objects.select_related("table", "rule_set", "payout_schedule", "dealer")
        .filter(pk=round_id)
        .first()
    )
    if rnd is None:
        raise NotFound(f"Round {round_id} does not exist.")
    replay = _Replay(rnd)
    return replay.run()


def _hand_label(box: int, index: int) -> str:
    return f"box {box} hand {index}"


def _target_label(target: eng.CardTarget | None) -> str:
    if target is None:
        return ""
    if target.kind == eng.TargetKind.DEALER:
        return eng.TargetKind.DEALER.value
    return _hand_label(target.box, target.hand)


class _Replay:
    def __init__(self, rnd: Round):
        self.rnd = rnd
        self.differences = Differences()
        self.shoe_proofs: list[dict[str, Any]] = []  # set once the fold has run to its end
        self.audit_events = list(AuditEvent.objects.filter(round_id=rnd.pk).order_by("id"))
        self.bets = {b.ref: b for b in Bet.objects.filter(round=rnd).select_related("player")}

    def differ(self, kind: str, detail: str, **fields: Any) -> None:
        self.differences.add(kind, detail, **fields)

    # --- the run ---------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        rnd = self.rnd
        state, steps, failed = self._fold()
        settlement = None if failed else self._settlement(state)
        lines = self._lines(settlement) if settlement is not None else []
        ledger = ledger_compare(
            rnd=rnd,
            settlement=settlement,
            lines=lines,
            bets=self.bets,
            differences=self.differences,
        )
        integrity = integrity_proof(events=self.audit_events, differences=self.differences)
        if settlement is None and not failed:
            status = "not_settled"
        else:
            status = "differences" if self.differences else "match"
        return {
            "round": self._round_summary(),
            "generated_at": timezone.now(),
            "software_version": software_version(),
            "status": status,
            "ok": not self.differences,
            "steps": steps,
            "hands": self._hands(state),
            "dealer": {
                "cards": [c.code for c in state.dealer],
                "total": state.dealer_value().total if state.dealer else 0,
            },
            "lines": lines,
            "ledger": ledger,
            "differences": self.differences,
            "integrity": integrity,
            "shoes": self.shoe_proofs,
            "settled_at": rnd.finished_at,
        }

    def _round_summary(self) -> dict[str, Any]:
        rnd = self.rnd
        return {
            "id": rnd.pk,
            "table_id": rnd.table_id,
            "table": rnd.table.code,
            "number": rnd.number,
            "phase": rnd.phase,
            "currency": rnd.currency,
            "rule_set": {
                "id": rnd.rule_set_id,
                "name": rnd.rule_set.name,
                "version": rnd.rule_set.version,
            },
            "payout_schedule": {
                "id": rnd.payout_schedule_id,
                "name": rnd.payout_schedule.name,
                "version": rnd.payout_schedule.version,
            },
            "dealer": rnd.dealer.get_username() if rnd.dealer else "",
            "card_source": rnd.card_source,
            "shoe_id": rnd.shoe_id,
            "opened_at": rnd.opened_at,
            "finished_at": rnd.finished_at,
        }

    # --- folding the events, card by card ----------------------------------------------------

    def _fold(self) -> tuple[eng.RoundState, list[dict[str, Any]], bool]:
        rnd = self.rnd
        state = eng.new_round(
            eng.RuleSet.from_json(rnd.rule_set.document),
            eng.PayoutSchedule.from_json(rnd.payout_schedule.document),
            eng.TableLimits(**rnd.limits),
        )
        decisions = {d.seq: d for d in Decision.objects.filter(round=rnd)}
        audited = {
            _event_key(e.payload.get("seq"), e.payload.get("event") or {}): e
            for e in self.audit_events
            if e.name.startswith(ROUND_EVENT_PREFIX)
        }
        shoe = ShoeCounter(rnd, self.audit_events)
        steps: list[dict[str, Any]] = []
        rows = RoundEvent.objects.filter(round=rnd).order_by("id")
        for row in rows:
            if row.kind != "engine":
                shoe.meta(row)
                continue
            self._event_check(row, audited.get(_event_key(row.seq, row.payload)))
            target = state.next_card_target() if row.type == "card_dealt" else None
            try:
                state = eng.apply(state, eng.event_from_json(row.payload))
            except (eng.EngineError, KeyError, TypeError, ValueError) as exc:
                self.differ(
                    "replay_failed",
                    f"event {row.seq} ({row.type}) is refused by the engine: {exc}",
                    bet_ref=str(row.payload.get("bet_id", "")),
                    field="event",
                    source="engine",
                )
                return state, steps, True
            steps.append(self._step(row, state, target, decisions.get(row.seq), audited, shoe))
        self.shoe_proofs = shoes_check(counter=shoe, steps=steps, differences=self.differences)
        return state, steps, False

    def _event_check(self, row: RoundEvent, audited: AuditEvent | None) -> None:
        """The engine event must equal the audit log's copy (written in the same transaction)."""
        bet_ref = str(row.payload.get("bet_id", ""))
        if audited is None:
            self.differ(
                "event_unaudited",
                f"event {row.seq} ({row.type}) has no audit record",
                bet_ref=bet_ref,
                field=f"event {row.seq}",
                source="audit_log",
            )
        elif audited.payload.get("event") != row.payload:
            bet = self.bets.get(bet_ref) or next(
                (b for b in self.bets.values() if b.pk == audited.bet_id), None
            )
            self.differ(
                "event_modified",
                f"event {row.seq} ({row.type}) differs from its audit record "
                f"#{audited.pk}: the round's events were changed after they were recorded",
                bet_ref=bet.ref if bet else bet_ref,
                field=f"event {row.seq}",
                replay=row.payload,
                found=audited.payload.get("event"),
                source="audit_log",
            )

    def _step(self, row, state, target, decision, audited, shoe) -> dict[str, Any]:
        payload = row.payload
        audit = audited.get(_event_key(row.seq, payload))
        step: dict[str, Any] = {
            "seq": row.seq,
            "type": row.type,
            "at": row.created_at,
            "actor": row.actor,
            "attribution": attribution(audit),
            "event": payload,
            "bet_ref": str(payload.get("bet_id", "")),
            "card": "",
            "target": "",
            "shoe": None,
            "decision": None,
            "audit_event_id": audit.pk if audit else None,
            "hands_after": _hands_compact(state),
        }
        if row.type == "card_dealt":
            step["card"] = payload.get("card", "")
            step["target"] = _target_label(target)
            step["shoe"] = shoe.deal()
        if decision is not None:
            step["decision"] = {
                "source": decision.source,
                "action": decision.action,
                "amount": decision.amount,
                "box": decision.box,
                "hand_index": decision.hand_index,
                "actor": decision.actor,
                "at": decision.created_at,
            }
            if decision.bet_id and not step["bet_ref"]:
                step["bet_ref"] = next(
                    (b.ref for b in self.bets.values() if b.pk == decision.bet_id), ""
                )
        return step

    @staticmethod
    def _hands(state: eng.RoundState) -> list[dict[str, Any]]:
        out = []
        for number, box in state.boxes.items():
            for index, hand in enumerate(box.hands):
                out.append(
                    {
                        "box": number,
                        "hand_index": index,
                        "controller": box.controller,
                        "bets": list(hand.stakes),
                        "cards": [c.code for c in hand.cards],
                        "total": state.value(hand).total,
                        "status": hand.status,
                    }
                )
        return out

    # --- settlement against the round's record ----------------------------------------------

    def _settlement(self, state: eng.RoundState) -> eng.RoundSettlement | None:
        phase = self.rnd.phase
        try:
            if phase == Round.Phase.SETTLED:
                return eng.settle(state)
            if phase == Round.Phase.VOIDED:
                return eng.settle_void(state)
        except eng.EngineError as exc:
            self.differ(
                "replay_failed",
                f"the engine can't settle the replayed round: {exc}",
                field="settlement",
                source="engine",
            )
        return None

    def _lines(self, settlement: eng.RoundSettlement) -> list[dict[str, Any]]:
        recorded = (self.rnd.settlement or {}).get("lines") or []
        if len(recorded) != len(settlement.lines):
            self.differ(
                "recorded",
                f"the round's record has {len(recorded)} settlement lines, the replay "
                f"{len(settlement.lines)}",
                field="lines",
                replay=len(settlement.lines),
                found=len(recorded),
                source="round_record",
            )
        lines = []
        for index, line in enumerate(settlement.lines):
            data = line.to_json()
            hand = _hand_label(*line.hand)
            entry = {
                "line": index,
                "bet_ref": line.bet_id,
                "player_id": line.player_id,
                "hand": hand,
                "result": line.result,
                "odds": f"{line.odds[0]}:{line.odds[1]}",
                "odds_kind": line.odds_kind,
                "stake": line.stake,
                "stake_returned": line.stake_returned,
                "winnings": line.winnings,
                "bonus": line.bonus,
                "bonus_kind": line.bonus_kind,
                "paid": line.paid,
                "ledger_payout": None,
                "ledger_bonus": None,
                "ledger_leg_ids": [],
                "match": True,
            }
            if line.bet_id not in self.bets:
                self.differences.line(entry, "bet", line.bet_id, "", "tables", "no such bet row")
            mine = recorded[index] if index < len(recorded) else None
            if mine is not None:
                for name in ("bet_id", *LINE_FIELDS):
                    if mine.get(name) != data[name]:
                        self.differences.line(
                            entry, name, data[name], mine.get(name), "round_record"
                        )
            lines.append(entry)
        return lines


def _hands_compact(state: eng.RoundState) -> dict[str, Any]:
    return {
        "dealer": [c.code for c in state.dealer],
        "boxes": {
            str(n): [[c.code for c in h.cards] for h in box.hands] for n, box in state.boxes.items()
        },
    }


def _event_key(seq: int | None, event: dict[str, Any]) -> int | str:
    """A round's engine event and its audit record, matched: by seq, or a bet (which has none:
    ``tables/services/bets.py``) by its bet id."""
    return seq if seq is not None else f"bet:{event.get('bet_id')}"
