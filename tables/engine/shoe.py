"""Shoes: shuffling with a commitment, dealing, cut card, and composition tracking.

Commitment (§8, architecture §2): ``sha256(order_string + salt)`` as lower-case hex, where
``order_string`` is the canonical two-character codes of the shuffled order concatenated
without separators (``"AS7CTD..."``) and ``salt`` is a hex string. It is recorded before the
first card and checked after the reveal with :func:`verify_commitment`.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .cards import Card, card_allowed, deck, parse_card
from .errors import ImpossibleCard, ShoeExhausted
from .rules import RuleSet


def commitment_of(order_codes: Sequence[str], salt: str) -> str:
    order = "".join(parse_card(c).code for c in order_codes)
    return hashlib.sha256((order + salt).encode("ascii")).hexdigest()


def verify_commitment(order_codes: Sequence[str], salt: str, commitment: str) -> bool:
    """True when the revealed order and salt hash to the recorded commitment."""
    try:
        return secrets.compare_digest(commitment_of(order_codes, salt), commitment.lower())
    except ImpossibleCard:
        return False


@dataclass(frozen=True)
class ShuffleRecord:
    """One shuffle: its commitment (public before the first card) and, once revealed, the order."""

    commitment: str
    cards: int


@dataclass
class Shoe:
    kind: str
    decks: int
    order: list[Card]
    salt: str
    cut_index: int
    position: int = 0
    discards: list[Card] = field(default_factory=list)
    shuffles: list[ShuffleRecord] = field(default_factory=list)
    _orders: list[tuple[list[Card], str]] = field(default_factory=list, repr=False)

    @property
    def commitment(self) -> str:
        """Commitment of the current shuffle (recorded before its first card)."""
        return self.shuffles[-1].commitment

    @property
    def remaining(self) -> int:
        return len(self.order) - self.position

    @property
    def cut_card_out(self) -> bool:
        """The cut card has come out: finish the round, then reshuffle."""
        return self.position >= self.cut_index

    def deal(self) -> Card:
        if self.position >= len(self.order):
            raise ShoeExhausted("the shoe is exhausted; reshuffle the discards or load a new shoe")
        card = self.order[self.position]
        self.position += 1
        return card

    def reveal(self) -> list[tuple[list[str], str, str]]:
        """Every shuffle of this shoe as ``(order codes, salt, commitment)`` for verification."""
        return [
            ([c.code for c in order], salt, rec.commitment)
            for (order, salt), rec in zip(self._orders, self.shuffles, strict=True)
        ]

    def reshuffle_discards(
        self, live_cards: Iterable[Card], rng: random.Random | None = None, salt: str | None = None
    ) -> ShuffleRecord:
        """Shuffle the dealt cards that are in no live hand and continue dealing from them (§7, §8).

        Undealt cards stay in front in their order; the reshuffled discards go behind them.
        """
        live = Counter(parse_card(c) for c in live_cards)
        pool: list[Card] = []
        for c in self.order[: self.position]:
            if live[c]:
                live[c] -= 1
            else:
                pool.append(c)
        rng = rng or secrets.SystemRandom()
        rng.shuffle(pool)
        salt = salt if salt is not None else secrets.token_hex(16)
        rest = self.order[self.position :]
        self.order = rest + pool
        self.position = 0
        self.cut_index = len(self.order)  # no cut card in the refilled stack
        rec = ShuffleRecord(commitment_of([c.code for c in pool], salt), len(pool))
        self.shuffles.append(rec)
        self._orders.append((pool, salt))
        return rec


def shuffle_shoe(
    *, rule_set: RuleSet, rng: random.Random | None = None, salt: str | None = None
) -> Shoe:
    """A freshly shuffled shoe for ``rule_set`` (CSPRNG unless an rng is injected for tests)."""
    cards = deck(rule_set.deck_kind) * rule_set.decks
    rng = rng or secrets.SystemRandom()
    rng.shuffle(cards)
    return stacked_shoe(cards, rule_set=rule_set, salt=salt)


def stacked_shoe(
    cards: Iterable[Card | str], *, rule_set: RuleSet, salt: str | None = None
) -> Shoe:
    """A shoe in a given order (tests, or a reader-fed shoe whose order is known)."""
    order = [parse_card(c) for c in cards]
    comp = ShoeComposition(rule_set.deck_kind, rule_set.decks)
    for c in order:
        comp.take(c)
    salt = salt if salt is not None else secrets.token_hex(16)
    cut = len(order) * rule_set.penetration_percent // 100
    if rule_set.whole_shoe_each_round:
        cut = len(order)
    shoe = Shoe(rule_set.deck_kind, rule_set.decks, order, salt, cut)
    shoe.shuffles.append(ShuffleRecord(commitment_of([c.code for c in order], salt), len(order)))
    shoe._orders.append((list(order), salt))
    return shoe


class ShoeComposition:
    """Counts the cards seen from a shoe whose order is unknown (reader-fed tables)."""

    def __init__(self, kind: str, decks: int):
        if kind not in ("standard", "spanish"):
            raise ImpossibleCard(f"unknown deck kind {kind!r}")
        self.kind = kind
        self.decks = decks
        self.seen: Counter[Card] = Counter()

    def check(self, card: Card | str) -> Card:
        c = parse_card(card)
        if not card_allowed(c, self.kind):
            raise ImpossibleCard(f"{c.code}: a {self.kind} shoe holds no tens")
        if self.seen[c] >= self.decks:
            raise ImpossibleCard(
                f"{c.code}: all {self.decks} copies in this {self.decks}-deck shoe are already out"
            )
        return c

    def take(self, card: Card | str) -> Card:
        c = self.check(card)
        self.seen[c] += 1
        return c

    def remaining(self, card: Card | str) -> int:
        c = parse_card(card)
        return (self.decks if card_allowed(c, self.kind) else 0) - self.seen[c]

    @property
    def total_remaining(self) -> int:
        per_deck = 48 if self.kind == "spanish" else 52
        return per_deck * self.decks - sum(self.seen.values())
