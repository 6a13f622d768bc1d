from rest_framework.pagination import CursorPagination as _CursorPagination


class CursorPagination(_CursorPagination):
    """Stable pages under concurrent inserts; newest first by primary key."""

    ordering = "-pk"
    page_size_query_param = "page_size"
    max_page_size = 500
