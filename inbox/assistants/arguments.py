"""An assistant's arguments through the API's own serializers: the same types, sizes and rules,
refused with the same words (the tool error names each field and its rule)."""

from __future__ import annotations

from rest_framework import serializers


def validated(serializer_class: type[serializers.Serializer], data: dict, **kwargs) -> dict:
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
