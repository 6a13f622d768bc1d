"""Engine refusals become the API's problems by their type, never by their wording."""

import pytest

from casino.errors import Conflict, Unprocessable, ValidationFailed
from tables import engine
from tables.errors import NotYourTurn, RuleRefused, WrongPhase, engine_error


@pytest.mark.parametrize(
    ("refusal", "problem"),
    [
        # The wording is deliberately misleading: only the type may decide.
        (engine.NotTheirTurn("bet 'b' has no pending match decision"), NotYourTurn),
        (engine.NotExpectedNow("no card is expected now (turn ('hand', 1, 0))"), WrongPhase),
        (engine.IllegalAction("T 6 can't split"), RuleRefused),
        (engine.ImpossibleCard("XS: bad code"), RuleRefused),
        (engine.InvalidEvent("box 9 does not exist"), ValidationFailed),
        (engine.RuleConflict("payouts do not fit"), ValidationFailed),
        (engine.ShoeExhausted("no card left"), Conflict),
        (engine.RoundNotComplete("the dealer has not finished"), Unprocessable),
    ],
)
def test_engine_refusal_maps_by_type(refusal, problem):
    mapped = engine_error(refusal)
    assert type(mapped) is problem
    assert mapped.detail == str(refusal)


def test_every_engine_out_of_turn_is_one_of_the_two_kinds():
    # engine_error maps the base class to WrongPhase: a third kind must be mapped on purpose.
    assert {cls.__name__ for cls in engine.OutOfTurn.__subclasses__()} == {
        "NotExpectedNow",
        "NotTheirTurn",
    }
