"""Rule sets and payout schedules as data, and the five presets of ``variants.md``.

A game is a :class:`RuleSet` (how the round is played) plus a :class:`PayoutSchedule` (what wins
pay). Both are frozen dataclasses that round-trip through JSON (``to_json`` / ``from_json``), so
an operator defines a new game by storing a new JSON document; ``validate()`` rejects
inconsistent combinations with a :class:`RuleConflict` that names the conflict.

Money is integer minor units everywhere. Odds are ``(a, b)`` int tuples: a winning stake S is
paid ``S + floor(S * a / b)``.

Readings taken (where the spec is ambiguous and marks no **Decision**):

- Deal order (§5, §6): every preset deals one card to each box in box order then the dealer,
  then a second pass; the dealer takes a card in the second pass only when
  ``dealer_cards_before_play == 2``. "The player's rightmost box" is box 1 (§1 numbering), and
  §6's "box 1, the dealer, box 2, ..." is read "as in §5" (all boxes, then the dealer).
- Multihand: only the online presets let one player control several boxes
  (``max_boxes_per_player`` 5); the live presets allow one box per player, plus bets behind.
- ``british_casino``: 7 boxes, 3 bets per box (the seed is silent; bets behind are implied by §8).
- Crown rescue (§3.2): offered after the double card when the hand is under 21. A doubled 21
  always wins in crown, so the hand cannot change and forfeiting it could never help; the
  player is not asked (§8 "never asked to act on a hand that cannot change").
- Crown dealer (§3.4, clarified 2026-12-01): a player 21 (Pontoon included) wins whatever the
  dealer holds, so it is decided at once (``twenty_one_decided_at_once``): the dealer draws
  only for a hand that still needs the dealer's result, and a void pays the 21 at its odds.
  A rule-set field (default off) rather than a consequence of ``player_21_always_wins``, so a
  stored rule-set version from before the clarification replays as it was played.
- Bets behind may match a split only when they have a stake on the hand being split; a second
  (or later) double only when they matched every earlier double on that hand.
- Surrender / rescue / pontoon: a hand "acts" once any decision is made on it; surrender needs
  a box with a single hand and its two initial cards.
- Banker (§7): a banker hand stops at a hard 21, at five cards or when bust; otherwise every
  draw is the banker's decision (a ``TimeoutDefault`` applies the house policy).
- Insurance amount: from the table's minimum unit up to half the bet's own original stake
  (rounded down). Insurance may also be taken on a Pontoon instead of even money.
- Void (§8): "decided" means decided at once by the rules (busts, rescues, surrenders, even
  money, Pontoons / Five Card Tricks / crown 21s decided at once, every hand after a dealer peek
  Pontoon, insurance once the dealer's second card is out, and in the dealer's phase a Pontoon
  once the dealer's two cards are out, as only a dealer Pontoon beats it); a decided win is paid
  at its odds.
  Anything that still waits for the dealer's result is returned. A crown surrender stands (half
  returned) even though the Pontoon check never happened, as §8 lists surrenders as decided.
  Prizes (Super Bonus, envy) are not paid in a void: "nothing else is paid".
- Super Bonus envy (§3.3, clarified 2026-12-01): only for a hand on which some bet receives a
  prize, to each player with a bet on the round and none on that hand; a bet on the hand below
  the lowest tier receives neither.
- Forced draws (§6 doubled hand under hard 15, §7 four cards hard 11 or less): the card is
  dealt without a decision; the hand lists its position in ``forced_cards``.
- Rounding remainders are reported as exact :class:`fractions.Fraction` of a minor unit
  (JSON: ``"num/den"``).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, fields
from typing import Any, ClassVar, NamedTuple, Self

from .cards import RANKS
from .errors import RuleConflict

Odds = tuple[int, int]

_CHOICES: dict[str, tuple[str, ...]] = {
    "deck_kind": ("standard", "spanish"),
    "shoe_policy": ("cut_card", "fresh_each_round", "continuous_shuffler"),
    "dealer_rule": ("hit_soft_17", "stand_soft_17", "banker_choice"),
    "min_stand_total_kind": ("best", "hard"),
    "player_actions": ("hit_double", "buy_twist"),
    "double_amount": ("equal_original", "up_to_original"),
    "double_then": ("continue", "stand"),
    "split_match": ("value", "rank"),
    "split_pontoon": ("never", "split_aces", "any"),
    "dealer_pontoon_rule": ("obbo", "takes_all"),
    "tie_rule": ("push", "dealer_wins"),
    "match_double": ("up_to_original", "equal_original"),
}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


# Documents already parsed and validated, per class and canonical JSON text (which tells
# ``true`` from ``1``): a round's cached state carries both rule documents and is read and
# written on every bet. The instances are frozen, so sharing them is safe.
_PARSED: dict[tuple[type, str], Any] = {}
_PARSED_MAX = 256


def _json_key(data: dict[str, Any]) -> str | None:
    try:
        return json.dumps(data, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):  # not JSON: parsed (and refused) without the cache
        return None


class _JsonDataclass:
    """to_json / from_json shared by the two rule documents (unknown keys are refused)."""

    # Set by @dataclass on each document class; declared so that ``fields`` and ``replace``
    # accept the documents as dataclasses.
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def validate(self) -> Self:
        """The document itself, or RuleConflict naming what is inconsistent."""
        raise NotImplementedError

    def check_operator_bounds(self) -> Self:
        """The rule book's bounds on what an operator may change in a preset's document, or
        RuleConflict. Checked when a version is created, not when a stored one is read, so a
        version stored before a bound was known still replays its rounds as played."""
        return self

    def to_json(self) -> dict[str, Any]:
        text = self.__dict__.get("_json_text")
        if text is None:
            doc = {f.name: _plain(getattr(self, f.name)) for f in fields(self)}
            text = json.dumps(doc)
            object.__setattr__(self, "_json_text", text)  # frozen: a cache, not a field
        return json.loads(text)  # a fresh document each time: callers may change theirs

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        if not isinstance(data, dict):
            raise RuleConflict(f"{cls.__name__} JSON must be an object")
        text = _json_key(data)
        cached = _PARSED.get((cls, text)) if text is not None else None
        if cached is not None:
            return cached
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleConflict(f"{cls.__name__}: unknown field(s) {', '.join(unknown)}")
        obj = cls(**{k: _tupled(v) for k, v in data.items()})
        obj.validate()
        if text is not None:
            if len(_PARSED) >= _PARSED_MAX:
                _PARSED.clear()
            _PARSED[(cls, text)] = obj
        return obj

    def replace(self, **changes: Any) -> Self:
        """A copy with some fields changed (validated)."""
        obj = dataclasses.replace(self, **changes)
        obj.validate()
        return obj


def _check_odds(name: str, odds: Any) -> None:
    if (
        not isinstance(odds, tuple)
        or len(odds) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in odds)
        or odds[0] < 0
        or odds[1] <= 0
    ):
        raise RuleConflict(f"{name} must be odds (a, b) with integers a >= 0, b > 0; got {odds!r}")


@dataclass(frozen=True)
class RuleSet(_JsonDataclass):
    """Every rule that differs between presets. Defaults are a plain six-deck game."""

    name: str = "custom"
    # shoe
    deck_kind: str = "standard"
    decks: int = 6
    # cut_card; fresh_each_round; continuous_shuffler (§3.1: the machine takes each round's
    # cards back, so like fresh_each_round every round is dealt from the whole shoe)
    shoe_policy: str = "cut_card"
    penetration_percent: int = 75  # cut card position, percent of the shoe
    reshuffle_discards_when_exhausted: bool = True
    # table
    boxes: int = 7
    bets_per_box: int = 1  # > 1 allows bets behind
    max_boxes_per_player: int = 1  # multihand
    # deal
    dealer_cards_before_play: int = 1  # 1: no hole card; 2: two cards in the initial deal
    dealer_cards_face_down: bool = False
    dealer_peek: bool = False  # dealer with two cards checks for Pontoon before play
    staking_after_first_card: bool = False  # traditional: stake after seeing the first card
    # dealer play
    dealer_rule: str = "stand_soft_17"
    dealer_stand_total: int = 17  # also the banker's house policy
    dealer_card_limit: int | None = None
    # player hand
    player_card_limit: int | None = None
    min_stand_total: int = 0
    min_stand_total_kind: str = "best"  # "hard": aces counted 1 for the standing test
    soft_21_stops: bool = False
    forced_draw_four_cards_hard_max: int | None = None  # traditional: 4 cards, hard <= 11
    # player options
    player_actions: str = "hit_double"  # or buy_twist (traditional)
    double_max_per_hand: int = 1  # 0 = no doubling
    double_on_cards: tuple[int, ...] | None = (2,)  # None = any number of cards
    doubles_in_sequence: bool = False  # the n-th double only on n + 1 cards
    double_amount: str = "equal_original"
    double_then: str = "continue"  # "stand": exactly one card then the hand stands
    double_aces_count_one: bool = False  # aces among the first two cards count 1 once doubled
    doubled_auto_draw_below_hard: int | None = None  # doubled hand draws while hard < this
    double_after_split: bool = True
    double_split_aces: bool = False
    rescue: bool = False
    surrender: bool = False
    surrender_dealer_ranks: tuple[str, ...] = ()
    surrender_void_on_dealer_pontoon: bool = True
    surrender_return: Odds = (1, 2)
    split_max_hands: int = 2  # 1 = no splitting; 0 = unlimited
    split_match: str = "value"  # value (J-Q) or rank (Q-Q only)
    split_only_aces: bool = False
    split_aces: bool = True
    split_aces_max_hands: int = 2
    split_aces_one_card: bool = True
    split_pontoon: str = "never"  # which split hands can make a Pontoon
    insurance: bool = False
    even_money: bool = False
    insurance_max: Odds = (1, 2)  # of the bet's own original stake
    pontoon_decided_at_once: bool = False  # when the dealer's first card cannot make Pontoon
    # §4: a Pontoon waiting for the dealer needs only the dealer's second card (only a dealer
    # Pontoon beats it). Off by default so a stored rule set from before it replays as played.
    pontoon_waits_for_second_card_only: bool = False
    # §8 void: in the dealer's phase, the dealer's two cards out without a Pontoon, a player's
    # Pontoon has won ("any hand whose outcome no further card can change"): paid, not
    # returned. Off by default so a stored rule set from before it replays as played.
    void_pays_pontoon_after_dealer_two_cards: bool = False
    # §8 void: once the dealer has finished (the round waits for its settlement) no card can
    # change any outcome: every one stands, as settled (no prizes). Off by default so a stored
    # rule set from before it replays as played (its voids returned the stakes).
    void_stands_once_the_dealer_has_finished: bool = False
    # ranking
    player_five_card_trick: bool = False
    dealer_five_card_trick: bool = False
    five_card_trick_decided_at_once: bool = False
    twenty_one_decided_at_once: bool = False  # crown: a player 21 needs no dealer cards
    player_21_always_wins: bool = False
    dealer_pontoon_rule: str = "takes_all"  # or obbo
    tie_rule: str = "dealer_wins"
    # bets behind
    match_double: str = "equal_original"

    def validate(self) -> RuleSet:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _CHOICES and value not in _CHOICES[f.name]:
                raise RuleConflict(f"{f.name} must be one of {_CHOICES[f.name]}; got {value!r}")
        ints = (
            "decks",
            "penetration_percent",
            "boxes",
            "bets_per_box",
            "max_boxes_per_player",
            "dealer_cards_before_play",
            "dealer_stand_total",
            "min_stand_total",
            "double_max_per_hand",
            "split_max_hands",
            "split_aces_max_hands",
        )
        for name in ints:
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise RuleConflict(f"{name} must be a non-negative integer; got {v!r}")
        _check_odds("surrender_return", self.surrender_return)
        _check_odds("insurance_max", self.insurance_max)

        def need(cond: bool, msg: str) -> None:
            if not cond:
                raise RuleConflict(msg)

        need(self.decks >= 1, "decks must be at least 1")
        need(1 <= self.penetration_percent <= 100, "penetration_percent must be 1..100")
        need(self.boxes >= 1, "boxes must be at least 1")
        need(self.bets_per_box >= 1, "bets_per_box must be at least 1")
        need(
            1 <= self.max_boxes_per_player <= self.boxes,
            "max_boxes_per_player must be between 1 and boxes",
        )
        need(self.dealer_cards_before_play in (1, 2), "dealer_cards_before_play must be 1 or 2")
        need(
            not self.dealer_peek or self.dealer_cards_before_play == 2,
            "dealer_peek requires dealer_cards_before_play = 2",
        )
        need(
            not self.staking_after_first_card or self.dealer_cards_before_play == 2,
            "staking_after_first_card requires dealer_cards_before_play = 2 "
            "(the banker's second card comes with the boxes' second cards)",
        )
        need(
            not self.staking_after_first_card or self.bets_per_box == 1,
            "staking_after_first_card allows no bets behind (bets_per_box = 1)",
        )
        need(2 <= self.dealer_stand_total <= 21, "dealer_stand_total must be 2..21")
        for name in ("dealer_card_limit", "player_card_limit"):
            v = getattr(self, name)
            need(
                v is None or (isinstance(v, int) and not isinstance(v, bool) and v >= 3),
                f"{name} must be None or at least 3",
            )
        need(self.min_stand_total <= 21, "min_stand_total must be 21 or less")
        need(
            not self.player_five_card_trick or self.player_card_limit == 5,
            "player_five_card_trick requires player_card_limit = 5",
        )
        need(
            not self.dealer_five_card_trick or self.dealer_card_limit == 5,
            "dealer_five_card_trick requires dealer_card_limit = 5",
        )
        need(
            not self.five_card_trick_decided_at_once or self.player_five_card_trick,
            "five_card_trick_decided_at_once requires player_five_card_trick",
        )
        need(
            not self.twenty_one_decided_at_once or self.player_21_always_wins,
            "twenty_one_decided_at_once requires player_21_always_wins",
        )
        need(
            self.forced_draw_four_cards_hard_max is None or self.player_card_limit == 5,
            "forced_draw_four_cards_hard_max requires player_card_limit = 5",
        )
        need(
            self.insurance_max[0] <= self.insurance_max[1],
            "insurance_max may not exceed the whole stake",
        )
        need(
            not self.insurance or self.dealer_cards_before_play == 1,
            "insurance requires dealer_cards_before_play = 1 (the second card decides it)",
        )
        need(
            not self.pontoon_decided_at_once or self.dealer_cards_before_play == 1,
            "pontoon_decided_at_once requires dealer_cards_before_play = 1",
        )
        # doubles
        dbl = self.double_max_per_hand > 0
        if self.double_on_cards is not None:
            need(
                isinstance(self.double_on_cards, tuple)
                and all(isinstance(n, int) and n >= 2 for n in self.double_on_cards),
                "double_on_cards must be None or a tuple of card counts >= 2",
            )
        need(
            not (self.double_then == "stand" and self.double_max_per_hand > 1),
            "double_then = 'stand' allows only one double per hand (double_max_per_hand <= 1)",
        )
        need(
            not self.doubled_auto_draw_below_hard or self.double_then == "continue",
            "doubled_auto_draw_below_hard requires double_then = 'continue'",
        )
        need(not self.rescue or dbl, "rescue requires doubling (double_max_per_hand >= 1)")
        need(
            not self.rescue or self.double_then == "stand",
            "rescue requires double_then = 'stand' (it follows the one double card)",
        )
        need(
            not self.doubles_in_sequence or dbl,
            "doubles_in_sequence requires doubling (double_max_per_hand >= 1)",
        )
        # splits
        can_split = self.split_max_hands != 1
        need(
            not self.split_only_aces or self.split_aces,
            "split_only_aces requires split_aces = True",
        )
        if self.split_aces and can_split:
            need(self.split_aces_max_hands >= 2, "split_aces_max_hands must be at least 2")
            need(
                self.split_max_hands == 0 or self.split_aces_max_hands <= self.split_max_hands,
                "split_aces_max_hands may not exceed split_max_hands",
            )
        need(
            self.split_pontoon != "split_aces" or (self.split_aces and can_split),
            "split_pontoon = 'split_aces' requires split_aces = True and split_max_hands != 1",
        )
        need(
            self.split_pontoon != "any" or can_split,
            "split_pontoon = 'any' requires splitting (split_max_hands != 1)",
        )
        need(
            not self.double_split_aces or (self.split_aces and not self.split_aces_one_card),
            "double_split_aces requires split_aces and split_aces_one_card = False",
        )
        need(
            not self.double_split_aces or (dbl and self.double_after_split),
            "double_split_aces requires double_after_split and doubling",
        )
        # surrender
        need(
            not self.surrender or len(self.surrender_dealer_ranks) > 0,
            "surrender requires surrender_dealer_ranks (the dealer cards that allow it)",
        )
        for r in self.surrender_dealer_ranks:
            need(isinstance(r, str) and r in RANKS, f"surrender_dealer_ranks: {r!r} not a rank")
        need(
            self.surrender_return[0] <= self.surrender_return[1],
            "surrender_return may not exceed the whole stake",
        )
        # traditional buy / twist
        if self.player_actions == "buy_twist":
            need(
                not dbl,
                "player_actions = 'buy_twist' excludes doubling (set double_max_per_hand = 0)",
            )
            need(not self.surrender, "player_actions = 'buy_twist' excludes surrender")
        need(
            self.dealer_pontoon_rule != "obbo" or not self.dealer_peek,
            "dealer_pontoon_rule = 'obbo' contradicts dealer_peek (a peeked Pontoon ends play)",
        )
        return self

    def check_operator_bounds(self) -> Self:
        # §3.1: operators may set crown's decks from 4 to 8 (spanish)
        if self.name == "crown" and not (self.deck_kind == "spanish" and 4 <= self.decks <= 8):
            raise RuleConflict("crown is dealt from 4 to 8 spanish decks (rule book §3.1)")
        return self

    @property
    def can_split(self) -> bool:
        return self.split_max_hands != 1

    @property
    def whole_shoe_each_round(self) -> bool:
        """Every round starts from the whole shoe: reshuffled before it, or a continuous
        shuffler that has taken the last round's cards back."""
        return self.shoe_policy in ("fresh_each_round", "continuous_shuffler")


@dataclass(frozen=True)
class PayoutSchedule(_JsonDataclass):
    """What each winning result pays. Prizes are integer minor units."""

    name: str = "custom"
    win: Odds = (1, 1)
    pontoon: Odds = (1, 1)
    five_card_trick: Odds = (1, 1)
    # crown ladder: ((cards, odds), ...): a 21 of n cards takes the entry with the largest
    # count <= n; hands with fewer cards than the smallest entry are plain wins.
    twenty_one_by_cards: tuple[tuple[int, Odds], ...] = ()
    # ((pattern, suit_class, odds), ...); pattern "678" | "777"; class mixed|suited|spades
    three_card_bonuses: tuple[tuple[str, str, Odds], ...] = ()
    bonus_odds_on_doubled: bool = True
    insurance: Odds = (2, 1)
    even_money: Odds = (1, 1)
    # crown Super Bonus: ((minimum own stake, prize), ...) ascending; empty = no Super Bonus
    super_bonus_tiers: tuple[tuple[int, int], ...] = ()
    super_bonus_dealer_rank: str = "7"
    envy_bonus: int = 0

    def validate(self) -> PayoutSchedule:
        for name in ("win", "pontoon", "five_card_trick", "insurance", "even_money"):
            _check_odds(name, getattr(self, name))
        last = 0
        for entry in self.twenty_one_by_cards:
            if not (isinstance(entry, tuple) and len(entry) == 2):
                raise RuleConflict(f"twenty_one_by_cards entry {entry!r} must be (cards, odds)")
            n, odds = entry
            if not isinstance(n, int) or n <= last or n < 3:
                raise RuleConflict("twenty_one_by_cards card counts must be >= 3 and ascending")
            _check_odds(f"twenty_one_by_cards[{n}]", odds)
            last = n
        seen: set[tuple[str, str]] = set()
        for bonus in self.three_card_bonuses:
            if not (isinstance(bonus, tuple) and len(bonus) == 3):
                raise RuleConflict(
                    f"three_card_bonuses entry {bonus!r} must be (pattern, class, odds)"
                )
            pattern, klass, odds = bonus
            if pattern not in ("678", "777") or klass not in ("mixed", "suited", "spades"):
                raise RuleConflict(f"three_card_bonuses entry {bonus!r}: unknown pattern or class")
            if (pattern, klass) in seen:
                raise RuleConflict(f"three_card_bonuses lists {pattern} {klass} twice")
            seen.add((pattern, klass))
            _check_odds(f"three_card_bonuses[{pattern} {klass}]", odds)
        last = 0
        for tier in self.super_bonus_tiers:
            if not (isinstance(tier, tuple) and len(tier) == 2):
                raise RuleConflict(f"super_bonus_tiers entry {tier!r} must be (min_stake, prize)")
            lo, prize = tier
            if not (isinstance(lo, int) and isinstance(prize, int)) or lo <= last or prize <= 0:
                raise RuleConflict("super_bonus_tiers must have ascending positive minimum stakes")
            last = lo
        if self.super_bonus_dealer_rank not in RANKS:
            raise RuleConflict(
                f"super_bonus_dealer_rank {self.super_bonus_dealer_rank!r} not a rank"
            )
        if not isinstance(self.envy_bonus, int) or self.envy_bonus < 0:
            raise RuleConflict("envy_bonus must be a non-negative integer (minor units)")
        if self.envy_bonus and not self.super_bonus_tiers:
            raise RuleConflict("envy_bonus requires super_bonus_tiers (it follows a Super Bonus)")
        return self


class Preset(NamedTuple):
    rules: RuleSet
    payouts: PayoutSchedule


_CROWN = RuleSet(
    name="crown",
    void_pays_pontoon_after_dealer_two_cards=True,
    void_stands_once_the_dealer_has_finished=True,
    deck_kind="spanish",
    decks=8,
    shoe_policy="cut_card",
    boxes=7,
    bets_per_box=3,
    dealer_cards_before_play=1,
    dealer_rule="hit_soft_17",
    soft_21_stops=True,
    double_max_per_hand=1,
    double_on_cards=None,
    double_amount="up_to_original",
    double_then="stand",
    double_aces_count_one=True,
    double_after_split=True,
    rescue=True,
    surrender=True,
    surrender_dealer_ranks=("A", "K", "Q", "J"),
    split_max_hands=3,
    split_match="value",
    split_aces_max_hands=2,
    split_aces_one_card=True,
    split_pontoon="never",
    player_21_always_wins=True,
    twenty_one_decided_at_once=True,
    dealer_pontoon_rule="obbo",
    tie_rule="push",
    match_double="up_to_original",
)

_CROWN_PAY = PayoutSchedule(
    name="crown",
    pontoon=(3, 2),
    twenty_one_by_cards=((5, (3, 2)), (6, (2, 1)), (7, (3, 1))),
    three_card_bonuses=(
        ("678", "mixed", (3, 2)),
        ("678", "suited", (2, 1)),
        ("678", "spades", (3, 1)),
        ("777", "mixed", (3, 2)),
        ("777", "suited", (2, 1)),
        ("777", "spades", (3, 1)),
    ),
    bonus_odds_on_doubled=False,
    super_bonus_tiers=((500, 100_000), (2_500, 500_000)),
    super_bonus_dealer_rank="7",
    envy_bonus=5_000,
)

_BRITISH = RuleSet(
    name="british_casino",
    void_pays_pontoon_after_dealer_two_cards=True,
    void_stands_once_the_dealer_has_finished=True,
    deck_kind="standard",
    decks=6,
    shoe_policy="cut_card",
    boxes=7,
    bets_per_box=3,
    dealer_cards_before_play=1,
    dealer_rule="stand_soft_17",
    player_card_limit=5,
    soft_21_stops=False,
    double_max_per_hand=2,
    double_on_cards=(2, 3),
    doubles_in_sequence=True,
    double_amount="equal_original",
    double_then="continue",
    double_after_split=True,
    split_max_hands=0,
    split_match="value",
    split_aces_max_hands=2,
    split_aces_one_card=True,
    split_pontoon="never",
    insurance=True,
    even_money=True,
    pontoon_decided_at_once=True,
    pontoon_waits_for_second_card_only=True,
    player_five_card_trick=True,
    five_card_trick_decided_at_once=True,
    dealer_pontoon_rule="takes_all",
    tie_rule="dealer_wins",
    match_double="equal_original",
)

_BRITISH_PAY = PayoutSchedule(name="british_casino", pontoon=(2, 1), five_card_trick=(3, 2))

_ONLINE8 = RuleSet(
    name="online_8deck",
    void_pays_pontoon_after_dealer_two_cards=True,
    void_stands_once_the_dealer_has_finished=True,
    deck_kind="standard",
    decks=8,
    shoe_policy="fresh_each_round",
    boxes=5,
    bets_per_box=1,
    max_boxes_per_player=5,
    dealer_cards_before_play=2,
    dealer_cards_face_down=True,
    dealer_peek=True,
    dealer_rule="hit_soft_17",
    dealer_card_limit=5,
    player_card_limit=5,
    min_stand_total=15,
    double_max_per_hand=1,
    double_on_cards=(2, 3, 4),
    double_then="continue",
    double_after_split=True,
    double_split_aces=True,
    split_max_hands=3,
    split_match="value",
    split_aces_max_hands=3,
    split_aces_one_card=False,
    split_pontoon="any",
    player_five_card_trick=True,
    dealer_five_card_trick=True,
    dealer_pontoon_rule="takes_all",
    tie_rule="dealer_wins",
)

_ONLINE_PAY = PayoutSchedule(name="online", pontoon=(2, 1), five_card_trick=(2, 1))

_ONLINE2 = _ONLINE8.replace(
    name="online_2deck",
    decks=2,
    dealer_peek=False,
    min_stand_total_kind="hard",
    soft_21_stops=True,
    doubled_auto_draw_below_hard=15,
    split_match="rank",
    split_pontoon="split_aces",
)

_TRADITIONAL = RuleSet(
    name="traditional",
    void_pays_pontoon_after_dealer_two_cards=True,
    void_stands_once_the_dealer_has_finished=True,
    deck_kind="standard",
    decks=1,
    shoe_policy="fresh_each_round",
    reshuffle_discards_when_exhausted=True,
    boxes=9,
    bets_per_box=1,
    dealer_cards_before_play=2,
    dealer_cards_face_down=True,
    staking_after_first_card=True,
    dealer_rule="banker_choice",
    dealer_card_limit=5,
    player_card_limit=5,
    min_stand_total=16,
    forced_draw_four_cards_hard_max=11,
    player_actions="buy_twist",
    double_max_per_hand=0,
    double_on_cards=None,
    double_after_split=False,
    split_max_hands=2,
    split_only_aces=True,
    split_aces=True,
    split_aces_max_hands=2,
    split_aces_one_card=False,
    split_pontoon="split_aces",
    player_five_card_trick=True,
    dealer_five_card_trick=True,
    dealer_pontoon_rule="takes_all",
    tie_rule="dealer_wins",
)

_TRADITIONAL_PAY = PayoutSchedule(name="traditional", pontoon=(1, 1), five_card_trick=(1, 1))

PRESETS: dict[str, Preset] = {
    "crown": Preset(_CROWN.validate(), _CROWN_PAY.validate()),
    "british_casino": Preset(_BRITISH.validate(), _BRITISH_PAY.validate()),
    "online_8deck": Preset(_ONLINE8.validate(), _ONLINE_PAY.replace(name="online_8deck")),
    "online_2deck": Preset(_ONLINE2.validate(), _ONLINE_PAY.replace(name="online_2deck")),
    "traditional": Preset(_TRADITIONAL.validate(), _TRADITIONAL_PAY.validate()),
}


def get_preset(name: str) -> Preset:
    try:
        return PRESETS[name]
    except KeyError:
        raise RuleConflict(f"unknown preset {name!r}; known: {', '.join(PRESETS)}") from None
