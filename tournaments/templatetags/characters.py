"""The slip's main characters: ``{% main_character_list %}`` (the <datalist>, once per page, outside any part
that htmx swaps) and ``{% main_character_note %}`` (one line above the slip saying how to fill it in)."""

from __future__ import annotations

from django import template

from ..forms_results import MAIN_CHARACTER_LIST
from ..selectors_characters import main_characters

register = template.Library()


@register.inclusion_tag("tournaments/_main_character_list.html")
def main_character_list() -> dict:
    return {"characters": main_characters(), "list_id": MAIN_CHARACTER_LIST}


@register.simple_tag
def main_character_note() -> str:
    if main_characters():
        return "Main character: pick it from the list as you type (name and set); a small typo is fine when the name is clear."
    return "Main character: free text (the rule documents with the list of Main Characters are not imported)."
