from django import template

from casino.money import money_text

register = template.Library()


@register.filter
def money(amount, currency: str) -> str:
    """``{{ stake|money:round.currency }}``: minor units shown by the currency's exponent."""
    return money_text(amount, currency) if isinstance(amount, int) else ""
