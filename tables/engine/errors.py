"""Typed errors raised by the Pontoon engine. Every message says why the input was refused."""


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class RuleConflict(EngineError):
    """A rule set or payout schedule is inconsistent or malformed."""


class InvalidEvent(EngineError):
    """An event is malformed, or does not fit the round's phase at all."""


class OutOfTurn(InvalidEvent):
    """An event the round does not take now: one of the two below."""


class NotExpectedNow(OutOfTurn):
    """The round awaits no event of this kind now (betting closed, no card due, no such
    decision window open)."""


class NotTheirTurn(OutOfTurn):
    """A decision of this kind is awaited, but from another hand or bet."""


class IllegalAction(InvalidEvent):
    """A decision is not allowed for the hand or bet by the rules."""


class ImpossibleCard(InvalidEvent):
    """A card the shoe cannot contain (too many copies, a ten in a spanish shoe, bad code)."""


class ShoeExhausted(EngineError):
    """The shoe has no card left and may not be refilled from the discards."""


class RoundNotComplete(EngineError):
    """Settlement was asked for before the dealer finished the round."""
