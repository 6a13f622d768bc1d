"""The ledger's domain errors; the API turns each into a problem of its own ``type``."""

from casino.errors import Conflict, Unprocessable, ValidationFailed
from casino.errors import FourEyesRequired as FourEyesRequired  # one class, raised by both apps


class InsufficientFunds(Unprocessable):
    """The wallet holds less than the amount to debit (a withdrawal, a stake). Nothing was
    debited."""

    code = "insufficient-funds"
    title = "Insufficient funds"


class WrongCurrency(Unprocessable):
    """The wallet's currency is not the table's (or the movement's): a player needs a wallet
    in the table's currency to bet there."""

    code = "wrong-currency"
    title = "Wrong currency"


class StakeMismatch(Unprocessable):
    """Settlement lines that do not match the stakes the ledger holds in play for the round."""

    code = "stake-mismatch"
    title = "Stakes do not match the stakes in play"


class AlreadySettled(Conflict):
    """The round's settlement was already posted: nothing more can be posted or refunded for
    it."""

    code = "already-settled"
    title = "Already settled"


class ReferenceReused(Conflict):
    """A posting reference that already names a different movement of money."""

    code = "reference-reused"
    title = "Reference already used"


class InvalidAmount(ValidationFailed):
    """An amount that is not an integer number of minor units within the allowed range.
    `param` names it."""

    code = "invalid-amount"
    title = "Invalid amount"
