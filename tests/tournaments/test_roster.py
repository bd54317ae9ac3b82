from tournaments.roster import parse_roster


def test_it_reads_one_name_per_line_and_skips_blank_lines():
    roster = parse_roster("Ann Archer\n\n  Bruno   Diaz \n")
    assert [row.name for row in roster.rows] == ["Ann Archer", "Bruno Diaz"]
    assert roster.ok


def test_it_reports_an_empty_name_with_its_line():
    roster = parse_roster("name,email\nAnn,ann@example.com\n,bob@example.com\n")
    assert not roster.ok
    [bad] = roster.bad_rows
    assert bad.line == 3
    assert bad.errors == ["The name is empty."]


def test_it_reports_a_player_already_in_the_event():
    roster = parse_roster("Ann Archer\nbruno diaz", existing_names=["Bruno  Diaz"])
    assert [row.errors for row in roster.rows] == [[], ["bruno diaz is already registered for this event."]]


def test_it_reports_a_duplicate_within_the_list():
    roster = parse_roster("Ann Archer\nann archer")
    assert roster.rows[1].errors == ["ann archer is listed twice (also on line 1)."]


def test_it_reports_an_unknown_header_column():
    roster = parse_roster("name,rating\nAnn,1500")
    assert roster.errors and "rating" in roster.errors[0]
    assert not roster.ok


def test_it_reports_too_many_columns():
    roster = parse_roster("name,email\nAnn,ann@example.com,extra")
    assert "3 columns" in roster.rows[0].errors[0]


def test_it_reads_columns_in_any_order():
    roster = parse_roster("Email,Name\nann@example.com,Ann Archer")
    assert (roster.rows[0].name, roster.rows[0].email) == ("Ann Archer", "ann@example.com")


def test_it_rejects_a_malformed_email():
    roster = parse_roster("name,email\nAnn,not-an-email")
    assert roster.rows[0].errors == ["'not-an-email' is not an email address."]


def test_an_empty_list_is_an_error():
    assert parse_roster("  \n\n").errors
