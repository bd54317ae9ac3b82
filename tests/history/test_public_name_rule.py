"""The one rule for the name the public sees for a person (``tournaments.people.public_name``): pure."""

from __future__ import annotations

import pytest

from tournaments.people import NameRecord, public_name


def test_it_is_the_latest_records_name():
    records = [NameRecord("Ann Archer", False, latest=(2,)), NameRecord("Annie Archer", False, latest=(7,))]
    assert public_name(records) == "Annie Archer"


def test_the_latest_is_the_highest_key_whatever_the_order_given():
    records = [
        NameRecord("Annie Archer", False, latest=(1, 3)),
        NameRecord("Ann Archer", False, latest=(0, 9)),
    ]
    assert public_name(records) == "Annie Archer"


def test_one_older_record_choosing_the_short_name_shortens_the_latest_name():
    records = [
        NameRecord("Ann Archer", True, latest=(2,)),
        NameRecord("Annie Marie Archer", False, latest=(7,)),
    ]
    assert public_name(records) == "Annie A."


def test_a_single_record_follows_its_own_choice():
    assert public_name([NameRecord("Ann Archer", False)]) == "Ann Archer"
    assert public_name([NameRecord("Ann Archer", True)]) == "Ann A."


def test_a_person_without_records_is_a_bug():
    with pytest.raises(ValueError):
        public_name([])
