"""What the tables console modules share: permission names, badges, the RTP text."""

from __future__ import annotations

from django import forms
from django.utils.html import format_html

from tables import models, services

OPERATE = "tables.operate_table"
DEAL = "tables.deal_round"


def dealing_check(request, table: models.Table) -> None:
    """A dealer runs rounds at their own table; pit staff at any (tables.selectors)."""
    services.dealing_check(table=table, user_id=request.user.pk, pit=request.user.has_perm(OPERATE))


def badge(value: str) -> str:
    return format_html('<span class="console-badge console-{}">{}</span>', value, value)


def rtp_text(figure: models.RtpFigure) -> str:
    if figure.rtp is None:
        return "pending (the game maths is computing; refresh in a few seconds)"
    return f"{figure.rtp * 100:.4f} %"


class NoteForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), max_length=500, required=False, label="Note"
    )
