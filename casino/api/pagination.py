import re

from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import Cursor
from rest_framework.pagination import CursorPagination as _CursorPagination

from casino.api.inputs import MAX_ID

_POSITION = re.compile(r"-?[0-9]{1,19}")


class CursorPagination(_CursorPagination):
    """Stable pages under concurrent inserts; newest first by primary key."""

    ordering = "-pk"
    page_size_query_param = "page_size"
    max_page_size = 500

    def decode_cursor(self, request):
        """A cursor the client altered is a 400 naming ``cursor``. DRF answers an undecodable
        one with 404 and passes any position it decodes straight into the filter, where a
        position that is no primary key (``p=abc``; every list is ordered by its bigint pk)
        would be a 500."""
        refusal = ValidationError({self.cursor_query_param: ["Invalid cursor."]})
        try:
            cursor = super().decode_cursor(request)
        except NotFound:
            raise refusal from None
        position = cursor.position if cursor is not None else None
        if position is not None and not (
            _POSITION.fullmatch(position) and abs(int(position)) <= MAX_ID
        ):
            raise refusal
        return cursor


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
