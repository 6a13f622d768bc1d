"""Money for display: integer minor units shown in major units by the currency's exponent
(Babel's CLDR data: EUR 2, JPY 0, BHD 3). Storage and the API stay integer minor units."""

from __future__ import annotations

import functools
from datetime import date
from decimal import Decimal

from babel.core import get_global
from babel.numbers import format_currency, get_currency_precision, get_territory_currencies


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


@functools.cache
def tender_currencies() -> frozenset[str]:
    """The ISO 4217 codes legal tender in some territory today (Babel's CLDR data): what a new
    wallet or table may hold, besides the sandbox's PLAY_MONEY. Not ZZZ (no currency), nor the
    codes of gold, bond units or drawing rights (XAU, XBA, XDR), nor a withdrawn one (DEM)."""
    today = date.today()
    return frozenset(
        code
        for territory in get_global("territory_currencies")
        for code in get_territory_currencies(territory, today, tender=True)
    )
