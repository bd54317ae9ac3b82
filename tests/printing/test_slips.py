import zxingcpp
from PIL import Image

from tests.printing.helpers import page_texts, render_pngs, slips_document
from tournaments.printing import digest, render_slips


def test_every_table_number_and_player_is_printed_in_turn_order():
    doc = slips_document(5, sizes=(4, 3, 5))
    texts = page_texts(render_slips(doc))
    assert len(texts) == 3  # two slips per page
    joined = " ".join(texts)
    for table in doc.tables:
        assert f"Table {table.number}" in joined
        positions = [joined.index(p.name) for p in table.players]
        assert positions == sorted(positions), f"table {table.number} is not in turn order"


def test_the_qr_code_points_at_the_tables_result_entry_page():
    doc = slips_document(2)
    [first_page] = render_pngs(render_slips(doc), dpi=150)
    found = {code.text for code in zxingcpp.read_barcodes(Image.open(first_page))}
    assert found == {t.result_url for t in doc.tables}


def test_every_page_renders_and_is_not_blank():
    pages = render_pngs(render_slips(slips_document(3)), dpi=40)
    assert len(pages) == 2
    for png in pages:
        lo, hi = Image.open(png).convert("L").getextrema()
        assert lo < 100 and hi > 200


def test_the_extra_turns_table_matches_the_table_size():
    text = " ".join(page_texts(render_slips(slips_document(2, sizes=(4, 3)))))
    assert "P1: +3 · P2: +6 · P3: +5 · P4: +4" in text
    assert "P1: +2 · P2: +4 · P3: +3" in text


def test_names_in_other_scripts_come_out_as_text():
    names = ["Дмитрий Волков", "Γιώργος Παπαδόπουλος", "Zoë Łukasiewicz", "Ann Archer"]
    text = " ".join(page_texts(render_slips(slips_document(1, sizes=(4,), names=names))))
    for name in names:
        assert name in text


def test_a_very_long_name_is_kept_whole():
    long = "Maximiliana Evangelista Rodríguez-Villanueva de la Santísima Trinidad"
    text = " ".join(page_texts(render_slips(slips_document(1, sizes=(3,), names=[long, "B B", "C C"]))))
    assert "Maximiliana Evangelista" in text and "Trinidad" in text


def test_progress_is_reported_per_table():
    seen = []
    render_slips(slips_document(3), on_table=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_the_same_data_renders_the_same_bytes_and_the_same_digest():
    assert render_slips(slips_document(2)) == render_slips(slips_document(2))
    assert digest(slips_document(2)) == digest(slips_document(2))
    assert digest(slips_document(2)) != digest(slips_document(3))


def test_letter_paper():
    import io

    from pypdf import PdfReader

    page = PdfReader(io.BytesIO(render_slips(slips_document(1, paper="Letter")))).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)


def test_chinese_japanese_and_korean_names_use_the_fallback_font():
    from tests.conftest import need
    from tournaments.printing.fonts import fonts

    names = ["山田 太郎", "김민준", "王小明"]
    need(
        "CJK fallback fonts (Debian fonts-droid-fallback, fonts-nanum)", all(fonts().covers(n) for n in names)
    )
    text = " ".join(page_texts(render_slips(slips_document(1, sizes=(3,), names=names))))
    for name in names:
        assert name in text


def test_an_unknown_paper_size_is_a_clear_error():
    import pytest

    from tournaments.printing.draw import UnknownPaperSize

    with pytest.raises(UnknownPaperSize, match="Unknown paper size 'A5': printouts are made on A4 or Letter"):
        render_slips(slips_document(1, paper="A5"))


def test_hebrew_and_arabic_names_are_drawn_right_to_left_and_arabic_letters_joined():
    from tests.conftest import need
    from tournaments.printing.fonts import fonts, visual

    names = ["שרה כהן", "محمد علي"]
    need("Hebrew and Arabic font (Debian fonts-dejavu-core)", all(fonts().covers(n) for n in names))
    # The line reads left to right: the seat number stays in front, the Hebrew letters are reversed.
    assert visual("1. שרה כהן") == "1. ןהכ הרש"
    # Each Arabic letter in the form that joins its neighbours (presentation forms), last letter leftmost.
    assert visual("محمد") == "\ufeaa\ufee4\ufea4\ufee3"
    assert {font for font, part in fonts().runs("محمد علي") if part.strip()} == {"DejaVuSans"}
    text = " ".join(page_texts(render_slips(slips_document(1, sizes=(3,), names=[*names, "Ann Archer"]))))
    assert "\ufee3\ufea4\ufee4\ufeaa" in text or "\ufeaa\ufee4\ufea4\ufee3" in text
    assert "Ann Archer" in text


def test_latin_text_is_drawn_as_typed():
    from tournaments.printing.fonts import visual

    assert visual("Zoë Łukasiewicz (P1)") == "Zoë Łukasiewicz (P1)"
