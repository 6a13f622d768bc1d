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
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from typing import Any

from django.db import transaction
from django.utils import timezone

from audit import selectors
from audit.canonical import content_hash_matches
from audit.digests import DIGEST_COLUMNS, DIGEST_SIZE, digest_session
from audit.models import AuditEvent, AuditSeal
from audit.sealing import unpack_ids
from audit.services import audit_event_content
from casino import replica
from casino.errors import NotFound
from casino.version import software_version
from ledger.models import Correction, Leg, Transaction
from tables import engine as eng
from tables.models import Bet, Decision, Round, RoundEvent, Shoe
from tables.selectors import shoe_proof

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


def _target_label(target) -> str:
    if target is None:
        return ""
    return "dealer" if target[0] == "dealer" else _hand_label(target[1], target[2])


class _Replay:
    def __init__(self, rnd: Round):
        self.rnd = rnd
        self.differences: list[dict[str, Any]] = []
        self.audit_events = list(AuditEvent.objects.filter(round_id=rnd.pk).order_by("id"))
        self.bets = {b.ref: b for b in Bet.objects.filter(round=rnd).select_related("player")}

    def differ(self, kind: str, detail: str, **fields: Any) -> None:
        entry = {"kind": kind, "bet_ref": "", "line": None, "hand": "", "field": ""}
        entry.update(fields)
        entry.update(
            detail=detail,
            replay=fields.get("replay"),
            found=fields.get("found"),
            source=fields.get("source", ""),
        )
        self.differences.append(entry)

    # --- the run ---------------------------------------------------------------------------

    def run(self) -> dict[str, Any]:
        rnd = self.rnd
        state, steps, failed = self._fold()
        settlement = None if failed else self._settlement(state)
        lines = self._lines(settlement) if settlement is not None else []
        ledger = self._ledger_compare(settlement, lines)
        integrity = self._integrity()
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
        shoe = _ShoeCounter(rnd, self.audit_events)
        self.shoe_proofs: list[dict[str, Any]] = []
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
        self._shoes_check(shoe, steps)
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
            "attribution": _attribution(audit),
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

    def _shoes_check(self, counter: _ShoeCounter, steps: list[dict[str, Any]]) -> None:
        """Each shoe's proof (``tables.selectors.shoe_proof``), and each card checked against
        the revealed order at its position: a card that is not there is a difference."""
        proofs = {
            shoe.pk: shoe_proof(shoe)
            for shoe in Shoe.objects.filter(pk__in=counter.shoe_ids).order_by("pk")
        }
        self.shoe_proofs = list(proofs.values())
        for step in steps:
            where = step["shoe"]
            if where is None:
                continue
            proof = proofs.get(where["shoe_id"])
            shuffle = next(
                (s for s in (proof or {}).get("shuffles", []) if s["number"] == where["shuffle"]),
                None,
            )
            where["commitment"] = shuffle["commitment"] if shuffle else ""
            order = shuffle["order"] if shuffle else []
            if not order:
                where["in_revealed_order"] = None
                continue
            position = where["position"]
            found = order[position - 1] if 0 < position <= len(order) else None
            where["in_revealed_order"] = found == step["card"]
            if found != step["card"]:
                self.differ(
                    "card_not_in_shoe_order",
                    f"event {step['seq']} deals {step['card']} as card {position} of shoe "
                    f"{where['shoe_id']} shuffle {where['shuffle']}; its revealed order has "
                    f"{found}",
                    field=f"event {step['seq']}",
                    replay=found,
                    found=step["card"],
                    source="shoe",
                )

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
                self._line_differs(entry, "bet", line.bet_id, "", "tables", "no such bet row")
            mine = recorded[index] if index < len(recorded) else None
            if mine is not None:
                for name in ("bet_id", *LINE_FIELDS):
                    if mine.get(name) != data[name]:
                        self._line_differs(entry, name, data[name], mine.get(name), "round_record")
            lines.append(entry)
        return lines

    def _line_differs(self, entry, field, replay, found, source, why: str = "") -> None:
        entry["match"] = False
        self.differ(
            "line",
            why
            or f"bet {entry['bet_ref']} line {entry['line']} ({entry['hand']}, "
            f"{entry['result']}): {field} replays as {replay}, {source} has {found}",
            bet_ref=entry["bet_ref"],
            line=entry["line"],
            hand=entry["hand"],
            field=field,
            replay=replay,
            found=found,
            source=source,
        )

    # --- against the ledger -----------------------------------------------------------------

    def _ledger_compare(self, settlement, lines: list[dict[str, Any]]) -> dict[str, Any]:
        rnd = self.rnd
        txns = list(Transaction.objects.filter(round_id=rnd.pk).order_by("pk"))
        legs = list(
            Leg.objects.filter(transaction__round_id=rnd.pk)
            .order_by("transaction_id", "pk")
            .values(
                "id", "transaction_id", "account_id", "account__kind", "amount", "kind", "bet_ref"
            )
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
        posted = [
            leg for leg in wallet if current is not None and leg["transaction_id"] == current.pk
        ]
        self._payouts_compare(
            lines, posted, "payout", "ledger_payout", lambda e: e["stake_returned"] + e["winnings"]
        )
        self._payouts_compare(lines, posted, "bonus", "ledger_bonus", lambda e: e["bonus"])
        self._stakes_compare(lines, staked)
        if current is None and any(e["paid"] or e["stake"] for e in lines):
            self.differ(
                "unposted",
                f"round {rnd.pk} is {rnd.phase} but the ledger holds no settlement posting",
                field="settlement",
                source="ledger",
            )
        out["bets"] = _bet_totals(lines, posted, staked, self.bets)
        known = {e["bet_ref"] for e in lines}
        for ref in sorted({leg["bet_ref"] for leg in posted if leg["bet_ref"]} - known):
            self.differ(
                "unknown_bet",
                f"the ledger pays bet {ref}, which the replay does not settle",
                bet_ref=ref,
                source="ledger",
            )
        return out

    def _payouts_compare(self, lines, posted, leg_kind: str, column: str, expected) -> None:
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
                        self._line_differs(
                            entry, leg_kind, expected(entry), leg["amount"], "ledger"
                        )
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
            self.differ(
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

    def _stakes_compare(self, lines, staked: dict[str, int]) -> None:
        wanted: dict[str, int] = defaultdict(int)
        first: dict[str, dict] = {}
        for entry in lines:
            wanted[entry["bet_ref"]] += entry["stake"]
            first.setdefault(entry["bet_ref"], entry)
        for ref, stake in wanted.items():
            if staked.get(ref, 0) != stake:
                entry = first[ref]
                entry["match"] = False
                self.differ(
                    "stake",
                    f"bet {ref}: the replay stakes {stake}, the ledger debited "
                    f"{staked.get(ref, 0)}",
                    bet_ref=ref,
                    line=entry["line"],
                    hand=entry["hand"],
                    field="stake",
                    replay=stake,
                    found=staked.get(ref, 0),
                    source="ledger",
                )

    # --- the proof that the round's audit events are intact -------------------------------

    def _integrity(self) -> dict[str, Any]:
        events = self.audit_events
        seals = _seals_for(events)
        digests = _event_digests([e.pk for e in events]) if seals else {}
        rows = []
        intact = True
        for event in events:
            hash_ok = content_hash_matches(audit_event_content(event), event.content_hash)
            seal = next(
                (
                    s
                    for s in seals
                    if (s.last_txid, s.last_event_id) >= (event.txid, event.pk)
                    and (s.first_txid, s.first_event_id) <= (event.txid, event.pk)
                ),
                None,
            )
            sealed_ok = None
            if seal is not None:
                sealed_ok = _sealed_digest(seal, event.pk) == digests.get(event.pk)
            if not hash_ok or sealed_ok is False:
                intact = False
                self.differ(
                    "audit_event_modified",
                    f"audit event {event.pk} ({event.name}) no longer matches its "
                    + ("content hash" if not hash_ok else f"digest in seal {seal.seq}"),
                    bet_ref=str(event.payload.get("event", {}).get("bet_id", "")),
                    field=f"audit event {event.pk}",
                    source="audit_log",
                )
            rows.append(
                {
                    "id": event.pk,
                    "name": event.name,
                    "occurred_at": event.occurred_at,
                    "actor": event.actor_label,
                    "attribution": _attribution(event),
                    "content_hash": event.content_hash,
                    "content_hash_ok": hash_ok,
                    "seal_seq": seal.seq if seal else None,
                    "chain_hash": seal.chain_hash if seal else "",
                    "sealed_digest_ok": sealed_ok,
                }
            )
        verification = selectors.audit_verification_latest()
        last_sealed = max((r["seal_seq"] or 0 for r in rows), default=0)
        covered = bool(
            verification
            and verification.get("ok")
            and rows
            and all(r["seal_seq"] for r in rows)
            and (verification.get("head_seq") or 0) >= last_sealed
        )
        return {
            "events": rows,
            "event_count": len(rows),
            "all_sealed": bool(rows) and all(r["seal_seq"] for r in rows),
            "intact": intact,
            "seals": [
                {
                    "seq": s.seq,
                    "chain_hash": s.chain_hash,
                    "sealed_at": s.sealed_at,
                    "signature": s.signature,
                    "key_id": s.key_id,
                }
                for s in seals
            ],
            "verification": _verification_summary(verification),
            "covered_by_verification": covered,
        }


class _ShoeCounter:
    """Where each card came from: the shoe and the card's position in it (1 = first card).

    The position continues from the cards earlier rounds dealt from the same shoe; a shoe
    loaded or reshuffled mid-round (meta events) starts again at 1.
    """

    def __init__(self, rnd: Round, audit_events: list[AuditEvent]):
        opened = next((e for e in audit_events if e.name == "tables.round_opened"), None)
        self.shoe_id = (opened.payload.get("shoe_id") if opened else None) or rnd.shoe_id
        self.shoe_ids: list[int] = [self.shoe_id] if self.shoe_id is not None else []
        self.position = 0
        self.shuffle = 1
        if self.shoe_id is not None:
            earlier = RoundEvent.objects.filter(
                round__shoe_id=self.shoe_id, round_id__lt=rnd.pk, kind="meta"
            )
            self.shuffle += earlier.filter(type="shoe_reshuffled").count()
            reshuffled = earlier.filter(type="shoe_reshuffled").order_by("-id").first()
            cards = RoundEvent.objects.filter(
                round__shoe_id=self.shoe_id, round_id__lt=rnd.pk, type="card_dealt"
            )
            if reshuffled is not None:
                cards = cards.filter(id__gt=reshuffled.pk)
            self.position = cards.count()

    def meta(self, row: RoundEvent) -> None:
        if row.type == "shoe_loaded":
            self.shoe_id = row.payload.get("shoe_id", self.shoe_id)
            self.shoe_ids.append(self.shoe_id)
            self.position, self.shuffle = 0, 1
        elif row.type == "shoe_reshuffled":
            self.position, self.shuffle = 0, self.shuffle + 1

    def deal(self) -> dict[str, Any]:
        self.position += 1
        return {"shoe_id": self.shoe_id, "shuffle": self.shuffle, "position": self.position}


def _attribution(event: AuditEvent | None) -> dict[str, Any] | None:
    """Who did it (the audit event's actor) and, from its hashed payload, for whom and after
    what: the tamper-evident answer to "who dealt this card?"."""
    if event is None:
        return None
    recorded = event.payload.get("attribution") or {}
    return {
        "actor": {"kind": event.actor_kind, "id": event.actor_id, "label": event.actor_label},
        "on_behalf_of": recorded.get("on_behalf_of"),
        "via": recorded.get("via"),
    }


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


def _hands_compact(state: eng.RoundState) -> dict[str, Any]:
    return {
        "dealer": [c.code for c in state.dealer],
        "boxes": {
            str(n): [[c.code for c in h.cards] for h in box.hands] for n, box in state.boxes.items()
        },
    }


def _current_settlement(txns: list[Transaction]) -> Transaction | None:
    """The round's settlement posting in force: the original, or the replacement that an
    approved correction put in its place (``None`` when a correction only reversed it)."""
    reversed_ids = {t.reverses_id for t in txns if t.reverses_id}
    candidates = [
        t for t in txns if t.kind in ("settlement", "replacement") and t.pk not in reversed_ids
    ]
    return candidates[-1] if candidates else None


def _seals_for(events: list[AuditEvent]) -> list[AuditSeal]:
    if not events:
        return []
    first = min((e.txid, e.pk) for e in events)
    last = max((e.txid, e.pk) for e in events)
    seals = []
    for key in (first, last):
        event = AuditEvent(pk=key[1], txid=key[0])
        seal = selectors.audit_event_seal(event)
        if seal is not None:
            seals.append(seal.seq)
    if not seals:
        return []
    upper = (
        max(seals)
        if len(seals) == 2
        else AuditSeal.objects.order_by("-seq").values_list("seq", flat=True).first()
    )
    return list(AuditSeal.objects.filter(seq__gte=min(seals), seq__lte=upper).order_by("seq"))


def _sealed_digest(seal: AuditSeal, event_id: int) -> bytes | None:
    ids = unpack_ids(bytes(seal.event_ids))
    try:
        index = ids.index(event_id)
    except ValueError:
        return None
    digests = bytes(seal.event_digests)
    return digests[index * DIGEST_SIZE : (index + 1) * DIGEST_SIZE]


def _event_digests(ids: list[int]) -> dict[int, bytes]:
    """The digest (format 1, ``audit.digests``) of each event's current row."""
    if not ids:
        return {}
    id_list = ", ".join(str(int(i)) for i in ids)
    query = f"SELECT {', '.join(DIGEST_COLUMNS)} FROM audit_auditevent WHERE id IN ({id_list})"
    db = replica.connection()
    with transaction.atomic(using=db.alias), db.cursor() as cursor:
        digest_session(cursor)
        with cursor.copy(f"COPY ({query}) TO STDOUT") as copy:
            data = b"".join(copy)
    out = {}
    for line in data.split(b"\n")[:-1]:
        out[int(line.split(b"\t", 1)[0])] = hashlib.sha256(line).digest()
    return out


def _verification_summary(verification: dict[str, Any] | None) -> dict[str, Any] | None:
    if verification is None:
        return None
    return {
        "event_id": verification.get("event_id"),
        "recorded_at": verification.get("recorded_at"),
        "ok": verification.get("ok"),
        "head_seq": verification.get("head_seq"),
        "head_hash": verification.get("head_hash"),
        "problem": verification.get("problem"),
    }


def _event_key(seq: int | None, event: dict[str, Any]) -> int | str:
    """A round's engine event and its audit record, matched: by seq, or a bet (which has none:
    ``tables/services/bets.py``) by its bet id."""
    return seq if seq is not None else f"bet:{event.get('bet_id')}"
