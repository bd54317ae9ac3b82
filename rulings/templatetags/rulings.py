"""``{% load rulings %}{{ text|link_rules }}``: DCDB rule numbers in text become links to the rules."""

from __future__ import annotations

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from .. import references
from ..parsers.base import GAME_DCDB
from ..selectors import rule_urls

register = template.Library()


@register.filter(is_safe=True)
def link_rules(text: object, game: str = GAME_DCDB) -> SafeString:
    """Escape ``text`` and link each rule number it cites (one query; numbers not found stay text)."""
    text = "" if text is None else str(text)
    refs = [ref for ref in references.find_references(text, game=game) if ref.kind == references.RULE]
    if not refs:
        return escape(text)
    urls = rule_urls([ref.number for ref in refs], game=game)
    out, position = [], 0
    for ref in refs:
        out.append(escape(text[position : ref.start]))
        url = urls.get(ref.number)
        label = text[ref.start : ref.end]
        out.append(format_html('<a class="rule-link" href="{}">{}</a>', url, label) if url else escape(label))
        position = ref.end
    out.append(escape(text[position:]))
    return mark_safe("".join(out))
