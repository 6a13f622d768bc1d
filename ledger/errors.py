"""The ledger's domain errors; the API turns each into a problem of its own ``type``."""

from casino.errors import Conflict, Unprocessable, ValidationFailed
from casino.errors import FourEyesRequired as FourEyesRequired  # one class, raised by both apps


class InsufficientFunds(Unprocessable):
    code = "insufficient-funds"
    title = "Insufficient funds"


class WrongCurrency(Unprocessable):
    code = "wrong-currency"
    title = "Wrong currency"


class StakeMismatch(Unprocessable):
    """Settlement lines that do not match the stakes the ledger holds in play for the round."""

    code = "stake-mismatch"
    title = "Stakes do not match the stakes in play"


class AlreadySettled(Conflict):
    code = "already-settled"
    title = "Already settled"


class ReferenceReused(Conflict):
    """A posting reference that already names a different movement of money."""

    code = "reference-reused"
    title = "Reference already used"


class InvalidAmount(ValidationFailed):
    code = "invalid-amount"
    title = "Invalid amount"
