"""Money for display: integer minor units of an ISO 4217 currency shown in major units.

Storage stays integer minor units everywhere; this is the one place that turns them into text
(reports, exports, pages). The exponent (2 for EUR, 0 for JPY, 3 for BHD) and the symbol come
from CLDR through babel, so a currency is never shown with the wrong number of decimals.
"""

from __future__ import annotations

from decimal import Decimal

from babel.numbers import format_currency, get_currency_precision

LOCALE = "en_GB"


def currency_exponent(currency: str) -> int:
    return get_currency_precision(currency.upper())


def minor_to_major(amount: int, currency: str) -> Decimal:
    return Decimal(int(amount)).scaleb(-currency_exponent(currency))


def money_format(amount: int | None, currency: str, *, locale: str = LOCALE) -> str:
    """``money_format(123456, "EUR")`` -> "€1,234.56"; "" for None; unknown codes get 2
    decimals and the code itself (babel's default)."""
    if amount is None:
        return ""
    if not currency:
        return str(amount)
    return format_currency(
        minor_to_major(amount, currency), currency.upper(), locale=locale, currency_digits=True
    )
