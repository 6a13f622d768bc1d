import hashlib
import re
from base64 import urlsafe_b64encode
from functools import cache
from urllib import parse

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import Cursor
from rest_framework.pagination import CursorPagination as _CursorPagination
from rest_framework.utils.urls import replace_query_param

_PAGE_SIZE = re.compile(r"[0-9]{1,6}")


def _key(secret: str) -> Fernet:
    digest = hashlib.sha256(f"casino.api.pagination.cursor:{secret}".encode()).digest()
    return Fernet(urlsafe_b64encode(digest))


@cache
def _fernet(secrets: tuple[str, ...]) -> MultiFernet:
    """Sealing with the first secret, opening with any: like Django's signing, a cursor sealed
    before a SECRET_KEY rotation still opens under SECRET_KEY_FALLBACKS (an integrator stores
    the events feed's ``next`` link between polls)."""
    return MultiFernet([_key(secret) for secret in secrets])


def _keys() -> MultiFernet:
    return _fernet((settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS))


def _seal(path: str, tokens: str) -> str:
    """DRF's cursors are base64 of "o=…&r=…&p=…": a client could forge any offset, direction
    or position (a feed read backwards, a `next` that restarts it), carry one list's cursor
    to another, and read the position, a database key (the ledger's or the events' volume).
    Sealed (Fernet: encrypted and authenticated) with the list's path, it is opaque and
    valid on its own list only."""
    return _keys().encrypt(f"{path}\n{tokens}".encode()).decode("ascii")


def _unseal(path: str, cursor: str) -> str:
    plain = _keys().decrypt(cursor.encode("ascii")).decode("ascii")
    sealed_for, _, tokens = plain.partition("\n")
    if sealed_for != path:
        raise ValueError("a cursor of another list")
    return tokens


class CursorPagination(_CursorPagination):
    """Stable pages under concurrent inserts; newest first by primary key."""

    ordering = "-pk"
    page_size_query_param = "page_size"
    max_page_size = 500

    def get_page_size(self, request):
        """``page_size`` from 1 up (beyond ``max_page_size``: that many); anything else is a
        400 naming it, not the default page."""
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not _PAGE_SIZE.fullmatch(raw) or int(raw) < 1:
            raise ValidationError(
                {
                    self.page_size_query_param: [
                        f"An integer from 1 to 999999 (more than {self.max_page_size} gives "
                        f"{self.max_page_size})."
                    ]
                }
            )
        return min(int(raw), self.max_page_size)

    def encode_cursor(self, cursor):
        tokens = {}
        if cursor.offset != 0:
            tokens["o"] = str(cursor.offset)
        if cursor.reverse:
            tokens["r"] = "1"
        if cursor.position is not None:
            tokens["p"] = cursor.position
        sealed = _seal(self.request.path, parse.urlencode(tokens))
        return replace_query_param(self.base_url, self.cursor_query_param, sealed)

    def decode_cursor(self, request):
        """A cursor this server did not seal for this list is a 400 naming ``cursor``."""
        sealed = request.query_params.get(self.cursor_query_param)
        if sealed is None:
            return None
        try:
            tokens = parse.parse_qs(_unseal(request.path, sealed), keep_blank_values=True)
            offset = int(tokens.get("o", ["0"])[0])
            reverse = tokens.get("r", ["0"])[0] == "1"
            position = tokens.get("p", [None])[0]
        except (InvalidToken, UnicodeError, TypeError, ValueError):
            raise ValidationError({self.cursor_query_param: ["Invalid cursor."]}) from None
        return Cursor(offset=offset, reverse=reverse, position=position)


class FeedPagination(CursorPagination):
    """A feed read oldest first and polled: ``next`` is never null. At the end it is a cursor
    just past the last item seen (or the position asked), for the next poll to resume from."""

    ordering = "pk"

    def get_next_link(self):
        link = super().get_next_link()
        if link is not None:
            return link
        if self.page:
            position = self._get_position_from_instance(self.page[-1], self.ordering)
        else:
            position = self.cursor.position if self.cursor else None
        return self.encode_cursor(Cursor(offset=0, reverse=False, position=position))
