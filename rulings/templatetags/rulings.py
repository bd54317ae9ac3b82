"""Cross-references as links that open in place.

- ``{{ text|link_rules }}``: rule numbers cited in plain text become links to the rules;
- ``{{ segments|xref_text }}``: an entry's text (``selectors.segments``) with its cross-references;
- ``{{ shown.named|xref_names }}``: the cards a card note's label names, as such links;
- ``{% xref url peek text title %}`` (or ``{% include "rulings/_xref.html" %}``): one such link;
- ``xref_link(...)``: the same markup from Python, for code that builds HTML (search snippets).

Every link is a plain link to the target's page. When it also carries the target's inline view
(``data-peek``), ``static/js/xref-peek.js`` opens that view right below the paragraph on a tap and
closes it on the next one: tooltips do not work on touch screens.
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from collections.abc import Iterable

from django import template
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from .. import references
from ..parsers.base import GAME_DCDB
from ..selectors import Segment, rule_links

register = template.Library()


def xref_link(*, url: str, text: str, peek: str = "", title: str = "", css: str = "xref") -> SafeString:
    """``<a class="xref" href=… data-peek=…>text</a>``: a link to ``url`` that opens ``peek`` in place."""
    return format_html(
        '<a class="{}" href="{}"{}{}>{}</a>',
        css,
        url,
        format_html(' data-peek="{}"', peek) if peek else "",
        format_html(' title="{}"', title) if title else "",
        text,
    )


@register.simple_tag
def xref(url: str, peek: str, text: str, title: str = "") -> SafeString:
    return xref_link(url=url, peek=peek, text=text, title=title)


@register.filter(is_safe=True)
def xref_text(segments: Iterable[Segment]) -> SafeString:
    """Render text segments: plain runs escaped, resolved references as links that open in place,
    an ambiguous reference with a link to each candidate."""
    out: list[str] = []
    for segment in segments or ():
        if segment.status == "resolved" and segment.url:
            out.append(
                xref_link(url=segment.url, peek=segment.peek, text=segment.text, title=segment.links[0].label)
            )
        elif segment.status == "ambiguous" and segment.links:
            choices = format_html_join(
                " · ",
                "{}",
                ((xref_link(url=link.url, peek=link.peek, text=link.label),) for link in segment.links),
            )
            out.append(
                format_html(
                    '<span class="xref-ambiguous">{} <span class="xref-choices">({})</span></span>',
                    segment.text,
                    choices,
                )
            )
        else:
            out.append(escape(segment.text))
    return mark_safe("".join(out))


@register.filter(is_safe=True)
def xref_names(segments: Iterable[Segment]) -> SafeString:
    """Cards named by a note's label (``ShownEntry.named``): each a link that opens in place, " · " between."""
    return format_html_join(" · ", "{}", ((xref_text([segment]),) for segment in segments or ()))


@register.filter(is_safe=True)
def link_rules(text: object, game: str = GAME_DCDB) -> SafeString:
    """Escape ``text`` and link each rule number it cites (one query; numbers not found stay text)."""
    text = "" if text is None else str(text)
    refs = [ref for ref in references.find_references(text, game=game) if ref.kind == references.RULE]
    if not refs:
        return escape(text)
    return mark_safe(_linked(text, refs, rule_links([ref.number for ref in refs], game=game)))


def _linked(text: str, refs: list, links: dict) -> str:
    """``text`` escaped, with each of its rule references (``refs``, in order) a link to the rule that opens it
    in place where ``links`` (number → ``Link``) has it; the others stay text."""
    out, position = [], 0
    for ref in refs:
        out.append(escape(text[position : ref.start]))
        link, label = links.get(ref.number), text[ref.start : ref.end]
        out.append(
            xref_link(url=link.url, peek=link.peek, text=label, css="rule-link") if link else escape(label)
        )
        position = ref.end
    out.append(escape(text[position:]))
    return "".join(out)


_TAG = re.compile(r"(<[^>]+>)")


def link_snippets(hits) -> None:
    """Make the rule numbers cited in the hits' snippets links that open the rule in place (``xref_link``),
    as on an entry's page: one query per game among the hits. A snippet is escaped text with <mark> tags;
    only its text between tags is read, so a number the query marked in two parts stays text."""
    parsed: list[list[tuple[str, list | None]]] = []
    wanted: dict[str, set[str]] = defaultdict(set)
    for hit in hits:
        pieces: list[tuple[str, list | None]] = []
        for piece in _TAG.split(str(hit.snippet)):
            if _TAG.fullmatch(piece):
                pieces.append((piece, None))  # a <mark> tag, kept as it is
                continue
            text = html.unescape(piece)
            refs = [r for r in references.find_references(text, game=hit.game) if r.kind == references.RULE]
            wanted[hit.game].update(ref.number for ref in refs)
            pieces.append((text, refs))
        parsed.append(pieces)
    links = {game: rule_links(numbers, game=game) for game, numbers in wanted.items() if numbers}
    for hit, pieces in zip(hits, parsed, strict=True):
        found = links.get(hit.game, {})
        hit.snippet = mark_safe(
            "".join(text if refs is None else _linked(text, refs, found) for text, refs in pieces)
        )
