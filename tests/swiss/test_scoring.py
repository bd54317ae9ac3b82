from __future__ import annotations

import pytest

from tournaments.swiss import CLASSIC, ScoringProfile, SwissError, scoring_profile


def test_classic_scores_5_3_2_2_and_5_3_2():
    assert CLASSIC.for_table(4) == (5, 3, 2, 2)
    assert CLASSIC.for_table(3) == (5, 3, 2)


def test_refusing_to_sign_scores_zero():
    assert CLASSIC.points_for(1, 4, refused_to_sign=True) == 0


def test_a_custom_profile_from_a_mapping():
    profile = scoring_profile({"name": "steep", "3": [6, 3, 0], "4": [6, 3, 1, 0]})
    assert profile.points_for(2, 4) == 3
    assert profile.for_table(5) == (6, 3, 1, 0, 0)


def test_a_profile_that_rewards_a_worse_place_is_refused():
    with pytest.raises(SwissError, match="fewer points"):
        ScoringProfile("odd", {3: (1, 2, 0)})


def test_an_unknown_preset_is_refused():
    with pytest.raises(SwissError, match="unknown scoring"):
        scoring_profile("nope")
