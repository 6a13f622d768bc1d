"""Card genuineness in a replay: where each card came from (shoe, shuffle, position) and the
check of every card against the shuffle's revealed order."""

from __future__ import annotations

from typing import Any

from audit.models import AuditEvent
from forensics.replay_differences import Differences
from tables.models import Round, RoundEvent, Shoe
from tables.selectors import shoe_proof


class ShoeCounter:
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


def shoes_check(
    *, counter: ShoeCounter, steps: list[dict[str, Any]], differences: Differences
) -> list[dict[str, Any]]:
    """Each shoe's proof (``tables.selectors.shoe_proof``), and each card checked against
    the revealed order at its position: a card that is not there is a difference. Returns the
    proofs."""
    proofs = {
        shoe.pk: shoe_proof(shoe)
        for shoe in Shoe.objects.filter(pk__in=counter.shoe_ids).order_by("pk")
    }
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
            differences.add(
                "card_not_in_shoe_order",
                f"event {step['seq']} deals {step['card']} as card {position} of shoe "
                f"{where['shoe_id']} shuffle {where['shuffle']}; its revealed order has "
                f"{found}",
                field=f"event {step['seq']}",
                replay=found,
                found=step["card"],
                source="shoe",
            )
    return list(proofs.values())
