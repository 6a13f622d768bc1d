"""Money for display: integer minor units shown in major units by the currency's exponent
(Babel's CLDR data: EUR 2, JPY 0, BHD 3). Storage and the API stay integer minor units."""

from __future__ import annotations

from decimal import Decimal

from babel.numbers import format_currency, get_currency_precision


def minor_to_major(amount: int, currency: str) -> Decimal:
    """``1250, "EUR"`` -> ``Decimal("12.50")``: the number a spreadsheet reads (CSV exports)."""
    return Decimal(int(amount)).scaleb(-get_currency_precision(currency))


def money_text(amount: int | None, currency: str) -> str:
    """``123456, "EUR"`` -> ``"1,234.56 EUR"``; ``1234, "JPY"`` -> ``"1,234 JPY"``."""
    if amount is None:
        return "—"
    value = minor_to_major(amount, currency)
    return format_currency(
        value, currency, format="#,##0.00\u00a0¤¤", currency_digits=True, locale="en"
    )


# The sandbox's play money (casino/sandbox): ISO 4217 reserves XTS for testing, so sandbox
# wallets, tables and ledger lines are never counted with a real currency.
PLAY_MONEY = "XTS"
