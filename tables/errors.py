"""The tables app's domain errors, and the mapping of engine errors onto problem types."""

from __future__ import annotations

from casino.errors import Conflict, DomainError, Unprocessable, ValidationFailed
from casino.errors import FourEyesRequired as FourEyesRequired  # one class, raised by both apps
from tables import engine


class BettingClosed(Conflict):
    """A bet arrived after betting closed (by the dealer or the betting timer)."""

    code = "betting-closed"
    title = "Betting is closed"

    def __init__(self, detail: str, *, round_id: int, table_id: int, bet: dict):
        super().__init__(detail)
        self.round_id = round_id
        self.table_id = table_id
        self.bet = bet


class RoundSuspended(Conflict):
    """The round is suspended (an impossible card, a count mismatch): nothing happens in it
    until the pit resumes it."""

    code = "round-suspended"
    title = "The round is suspended"


class RoundHeld(Conflict):
    """A void request holds the round (§8): nothing happens in it until the request is
    approved, rejected, cancelled or expires."""

    code = "round-held"
    title = "The round is on hold for a void request"


class NotYourTurn(Conflict):
    """The decision is for a bet, box or hand whose turn it is not: the round's `turn` names
    whose it is."""

    code = "not-your-turn"
    title = "Not this player's turn"


class WrongPhase(Conflict):
    """The round is not in a phase that allows this (betting closed, not dealing, already
    settled): the round's `phase` says where it is."""

    code = "wrong-phase"
    title = "Not allowed in the current phase"


class RuleRefused(Unprocessable):
    """The table's rules do not allow this action or amount now: the round's `your_actions`
    lists what is legal."""

    code = "rule-refused"
    title = "The rules do not allow this"


def engine_error(exc: engine.EngineError) -> DomainError:
    """An engine refusal as the API's problem: out of turn 409, against the rules 422."""
    detail = str(exc)
    if isinstance(exc, engine.NotTheirTurn):
        return NotYourTurn(detail)
    if isinstance(exc, engine.OutOfTurn):
        return WrongPhase(detail)
    if isinstance(exc, (engine.IllegalAction, engine.ImpossibleCard)):
        return RuleRefused(detail)
    if isinstance(exc, (engine.InvalidEvent, engine.RuleConflict)):
        return ValidationFailed(detail)
    if isinstance(exc, engine.ShoeExhausted):
        return Conflict(detail)
    return Unprocessable(detail)


class TooManyStreams(DomainError):
    """The credential holds as many table streams as it may (``TABLES_STREAMS_PER_CREDENTIAL``)."""

    status = 429
    code = "too-many-streams"
    title = "Too many open streams"
