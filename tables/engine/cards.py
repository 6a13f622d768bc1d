"""Cards, decks and hand valuation.

A card is a rank 1..13 (ace = 1, ten = 10, J Q K = 11 12 13) and a suit letter. Cards are interned:
``parse_card("as") is parse_card("AS")``, so identity and equality agree and hands stay cheap.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .errors import ImpossibleCard

RANKS = "A23456789TJQK"
SUITS = "SHDC"
DECK_KINDS = ("standard", "spanish")


@dataclass(frozen=True, slots=True)
class Card:
    rank: int  # 1 (ace) .. 13 (king)
    suit: str  # one of S H D C

    @property
    def code(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    @property
    def value(self) -> int:
        """Pip value with an ace counted as 1."""
        return 10 if self.rank >= 10 else self.rank

    @property
    def is_ace(self) -> bool:
        return self.rank == 1

    @property
    def is_ten_value(self) -> bool:
        return self.rank >= 10

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


_BY_CODE: dict[str, Card] = {r + s: Card(i + 1, s) for i, r in enumerate(RANKS) for s in SUITS}


def parse_card(text: str | Card) -> Card:
    """Parse ``AS``, ``td``, ``10h`` ... into the interned :class:`Card`."""
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise ImpossibleCard(f"card code must be a string, got {type(text).__name__}")
    code = text.strip().upper()
    if code.startswith("10"):
        code = "T" + code[2:]
    card = _BY_CODE.get(code)
    if card is None:
        raise ImpossibleCard(f"{text!r} is not a card code (rank A23456789TJQK + suit SHDC)")
    return card


def rank_of(code: str) -> int:
    """Rank number of a rank letter (``"A"`` -> 1, ``"K"`` -> 13; ``"10"`` accepted)."""
    letter = "T" if code.strip().upper() == "10" else code.strip().upper()
    if len(letter) != 1 or letter not in RANKS:
        raise ImpossibleCard(f"{code!r} is not a rank (A23456789TJQK)")
    return RANKS.index(letter) + 1


def deck(kind: str = "standard") -> list[Card]:
    """One deck in canonical order: suits S H D C, ranks A..K; spanish drops the four tens."""
    if kind not in DECK_KINDS:
        raise ImpossibleCard(f"unknown deck kind {kind!r}; expected one of {DECK_KINDS}")
    return [_BY_CODE[r + s] for s in SUITS for r in RANKS if not (kind == "spanish" and r == "T")]


def card_allowed(card: Card, kind: str) -> bool:
    return not (kind == "spanish" and card.rank == 10)


class HandValue(NamedTuple):
    total: int  # best total: one flexible ace as 11 where it does not bust
    soft: bool  # an ace is counted as 11 in ``total``
    hard: int  # every ace counted as 1


def hand_total(cards: Sequence[Card], aces_as_one_positions: Iterable[int] = ()) -> HandValue:
    """Value a hand (§1). Aces at ``aces_as_one_positions`` may only count 1 (crown doubles)."""
    hard = 0
    flexible_ace = False
    fixed = (
        aces_as_one_positions
        if isinstance(aces_as_one_positions, (set, frozenset))
        else set(aces_as_one_positions)
    )
    for i, c in enumerate(cards):
        r = c.rank
        if r == 1:
            hard += 1
            if i not in fixed:
                flexible_ace = True
        else:
            hard += 10 if r >= 10 else r
    if flexible_ace and hard <= 11:
        return HandValue(hard + 10, True, hard)
    return HandValue(hard, False, hard)


def is_ace_and_ten(cards: Sequence[Card]) -> bool:
    """Exactly two cards: an ace and a ten-value card (the shape of a Pontoon)."""
    if len(cards) != 2:
        return False
    a, b = cards
    return (a.rank == 1 and b.rank >= 10) or (b.rank == 1 and a.rank >= 10)
