from tests.printing.helpers import page_texts, render_pngs
from tournaments.printing import (
    PairingsDocument,
    PlayoffsDocument,
    PlayoffSeat,
    PlayoffTableSheet,
    Seating,
    SlipPlayer,
    SlipTable,
    StandingsDocument,
    render_pairings_by_name,
    render_pairings_by_table,
    render_playoffs,
    render_standings,
)


def pairings(count: int = 12) -> PairingsDocument:
    seatings = tuple(
        Seating(f"Zed{i:03d}, Ann", table=i // 4 + 1, seat=i % 4 + 1) for i in reversed(range(count))
    )
    tables = tuple(
        SlipTable(t, tuple(SlipPlayer(s, f"Ann Zed{(t - 1) * 4 + s - 1:03d}") for s in range(1, 5)), "")
        for t in range(1, count // 4 + 1)
    )
    return PairingsDocument("Test Open", "2026-12-05", "Round 1", "A4", seatings, tables)


def test_pairings_by_name_are_alphabetical_with_table_and_seat():
    text = " ".join(page_texts(render_pairings_by_name(pairings())))
    assert "Zed000, Ann — Table 1, seat 1" in text
    assert text.index("Zed000, Ann") < text.index("Zed001, Ann") < text.index("Zed011, Ann")


def test_pairings_by_name_run_onto_more_pages_for_a_big_event():
    pdf = render_pairings_by_name(pairings(400))
    texts = page_texts(pdf)
    assert len(texts) > 1
    assert all(f"Zed{i:03d}, Ann" in " ".join(texts) for i in range(400))


def test_pairings_by_table():
    text = " ".join(page_texts(render_pairings_by_table(pairings())))
    assert "Table 3" in text and "4. Ann Zed011" in text


def test_standings_sheet_lists_rank_name_and_values():
    doc = StandingsDocument(
        "Test Open", "2026-12-05", "Standings after round 4", "A4", ("Pts", "SV"),
        tuple((rank, f"Player {rank}", (str(30 - rank), "2")) for rank in range(1, 81)),
    )  # fmt: skip
    texts = page_texts(render_standings(doc))
    assert len(texts) >= 2
    assert "Player 80" in " ".join(texts)


def test_playoff_seating_states_turn_order_by_standing():
    doc = PlayoffsDocument(
        "Test Open", "2026-12-05", "Semi-finals", "A4",
        (PlayoffTableSheet(1, tuple(PlayoffSeat(i + 1, f"P{r}", r) for i, r in enumerate((1, 4, 5, 8)))),),
    )  # fmt: skip
    pdf = render_playoffs(doc)
    text = " ".join(page_texts(pdf))
    assert "Seat 2 (goes 2nd): P4 — 4th after the Swiss rounds" in text
    assert len(render_pngs(pdf, dpi=30)) == 1


def test_pairings_by_name_sort_accented_names_among_their_base_letters():
    seatings = tuple(
        Seating(name, table=t, seat=1)
        for t, name in enumerate(
            ["Zimmer, Ann", "Łukasiewicz, Zoë", "Álvarez, Bo", "Lee, Cy", "Baker, Di"], 1
        )
    )
    doc = PairingsDocument("Test Open", "2026-12-05", "Round 1", "A4", seatings, ())
    text = " ".join(page_texts(render_pairings_by_name(doc)))
    order = [text.index(name) for name in ("Álvarez", "Baker", "Lee", "Łukasiewicz", "Zimmer")]
    assert order == sorted(order)


def test_an_unknown_paper_size_is_a_clear_error():
    import dataclasses

    import pytest

    from tournaments.printing.draw import UnknownPaperSize

    with pytest.raises(UnknownPaperSize, match="'Legal'"):
        render_pairings_by_table(dataclasses.replace(pairings(), paper="Legal"))
