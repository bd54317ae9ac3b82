"""How the results page nests an example under its rule (rulings.search.results.group)."""

from __future__ import annotations

from types import SimpleNamespace

from rulings.search.results import Hit, group


def hit(pk: int, parent: int | None = None) -> Hit:
    return Hit(SimpleNamespace(pk=pk, parent_id=parent), 1.0, "", "text")


def test_it_nests_an_example_under_its_rule_when_the_rule_ranks_first():
    rule, example = hit(1), hit(2, parent=1)

    shown = group([rule, example])

    assert shown == [rule]
    assert rule.children == [example.entry]


def test_it_keeps_an_example_first_when_it_ranks_above_its_rule():
    example, other, rule = hit(2, parent=1), hit(3), hit(1)

    shown = group([example, other, rule])

    assert shown == [example, other, rule]
    assert rule.children == []


def test_it_keeps_an_example_whose_rule_is_not_a_hit():
    example = hit(2, parent=9)

    assert group([example]) == [example]
