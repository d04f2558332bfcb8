"""Answers every API view gives the same way."""

from __future__ import annotations

from django.urls import reverse
from rest_framework import status
from rest_framework.response import Response


def created(request, body, url_name: str, *, new: bool = True, **url_kwargs) -> Response:
    """201 with a `Location` naming where the new resource lives (`url_name` reversed with
    `url_kwargs`, absolute); 200 without one when nothing new was made (`new` false)."""
    if not new:
        return Response(body, status=status.HTTP_200_OK)
    location = request.build_absolute_uri(reverse(url_name, kwargs=url_kwargs))
    return Response(body, status=status.HTTP_201_CREATED, headers={"Location": location})
