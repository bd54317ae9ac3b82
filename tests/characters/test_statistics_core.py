"""tournaments.characters.statistics: the maths, without a database."""

from __future__ import annotations

import pytest

from tournaments.characters import Play, statistics

BAT, STAR = "main_character/batman/base-set", "main_character/starfire/teen-titans"


def plays():
    """Game 1 (4 players): Batman 1st, Starfire 2nd, Batman 3rd, nobody recorded 4th.
    Game 2 (3 players): Starfire 1st, Batman 2nd, free text 3rd. Game 3 (3 players): nothing recorded."""
    return [
        Play(1, 4, 1, "Batman (Base Set)", BAT),
        Play(1, 4, 2, "Starfire (Teen Titans)", STAR),
        Play(1, 4, 3, "Batman (Base Set)", BAT),
        Play(1, 4, 4, ""),
        Play(2, 3, 1, "Starfire (Teen Titans)", STAR),
        Play(2, 3, 2, "Batman (Base Set)", BAT),
        Play(2, 3, 3, "Mr Miracle"),
        Play(3, 3, 1, ""),
        Play(3, 3, 2, ""),
        Play(3, 3, 3, ""),
    ]


def line(result, key):
    return next(line for line in result.lines if line.key == key)


def test_it_counts_games_with_a_main_character_and_the_plays():
    result = statistics(plays())
    assert (result.games, result.plays, result.unrecorded) == (2, 6, 4)
    assert result.games_by_size == {3: 1, 4: 1}


def test_each_figure_comes_with_its_number_of_games():
    batman = line(statistics(plays()), BAT)
    assert batman.overall.games == 3
    assert batman.overall.share.value == 1.0 and batman.overall.share.games == 2  # both games
    assert batman.overall.average_place.value == pytest.approx(2.0)  # (1 + 3 + 2) / 3
    assert batman.overall.win_rate.value == pytest.approx(1 / 3) and batman.overall.win_rate.games == 3


def test_it_splits_by_table_size():
    starfire = line(statistics(plays()), STAR)
    assert starfire.by_size[4].win_rate.value == 0 and starfire.by_size[4].games == 1
    assert starfire.by_size[3].win_rate.value == 1 and starfire.by_size[3].share.value == 1.0


def test_a_table_size_filter_keeps_only_those_tables():
    result = statistics(plays(), table_size=4)
    assert result.games == 1 and {line.key for line in result.lines} == {BAT, STAR}
    assert line(result, BAT).overall.share.value == 1.0


def test_free_text_not_matched_counts_on_its_own():
    other = line(statistics(plays()), "text:mr miracle")
    assert not other.matched and other.label == "Mr Miracle" and other.overall.games == 1


def test_most_played_first():
    assert [line.key for line in statistics(plays()).lines][:2] == [BAT, STAR]


def test_the_catalogue_label_wins_over_an_older_spelling():
    result = statistics([Play(1, 3, 1, "Batman (Base)", BAT)], labels={BAT: "Batman (Base Set)"})
    assert result.lines[0].label == "Batman (Base Set)"


def test_par_is_the_mean_chance_of_winning():
    assert statistics(plays()).par_win_rate == pytest.approx((3 * 0.25 + 3 / 3) / 6)


def test_no_game_has_no_figures():
    result = statistics([])
    assert result.lines == [] and result.games == 0 and result.par_win_rate is None


def test_a_size_with_no_game_has_empty_figures():
    result = statistics([Play(1, 4, 1, "Batman (Base Set)", BAT)])
    three = result.lines[0].by_size[3]
    assert three.games == 0 and three.win_rate.value is None and three.share.value is None


@pytest.mark.django_db
def test_the_chart_bars_are_in_the_order_of_the_share_they_draw():
    from tournaments.views_characters import _chart_data

    # Batman: 3 plays at 2 tables; Starfire: 2 plays at 2 tables; Raven: 2 plays at 1 table (played twice there).
    raven = "main_character/raven/teen-titans"
    found = statistics(
        [
            *plays(),
            Play(4, 3, 1, "Raven (Teen Titans)", raven),
            Play(4, 3, 2, "Raven (Teen Titans)", raven),
            Play(4, 3, 3, "Starfire (Teen Titans)", STAR),
        ]
    )
    chart = _chart_data(found)
    assert chart["share"] == sorted(chart["share"], reverse=True)
    assert chart["labels"].index("Raven (Teen Titans)") > chart["labels"].index("Starfire (Teen Titans)")
