from rest_framework.pagination import CursorPagination


class NewestFirstCursorPagination(CursorPagination):
    ordering = ("-id",)
    page_size_query_param = "limit"
    max_page_size = 200
