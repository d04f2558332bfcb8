import json

from django import template
from django.utils.safestring import mark_safe

register = template.Library()

_ESCAPES = {ord("<"): "\\u003C", ord(">"): "\\u003E", ord("&"): "\\u0026"}


@register.filter
def jsonld(data) -> str:
    """`data` as a JSON-LD script element. Feed titles are user data: with <, > and & escaped
    as JSON unicode escapes, no title can close the script element or open another."""
    payload = json.dumps(data, ensure_ascii=False, sort_keys=True).translate(_ESCAPES)
    return mark_safe(f'<script type="application/ld+json">{payload}</script>')
