"""Long names shrink, then wrap, then (only past all reason) are cut; they never overflow their box."""

import io

from pypdf import PdfReader

from tests.printing.helpers import slips_document
from tournaments.printing import render_slips
from tournaments.printing.draw import ELLIPSIS, FLOOR_SIZE, fit
from tournaments.printing.fonts import fonts

LONG = "Maximiliana Evangelista Rodríguez-Villanueva de la Santísima Trinidad"


def widest(fitted) -> float:
    return max(fonts().width(line, fitted.size) for line in fitted.lines)


def test_a_short_name_keeps_its_size_on_one_line():
    fitted = fit("Ann Archer", 10, 130)
    assert (fitted.size, fitted.lines) == (10, ("Ann Archer",))


def test_a_longer_name_shrinks_before_it_wraps():
    fitted = fit("Γιώργος Παπαδόπουλος-Καραμανλής", 10, 130)
    assert len(fitted.lines) == 1
    assert 6 <= fitted.size < 10
    assert widest(fitted) <= 130


def test_a_long_name_wraps_at_spaces_within_the_width():
    fitted = fit(LONG, 10, 130, min_size=6)
    assert fitted.size == 6
    assert len(fitted.lines) == 2
    assert " ".join(fitted.lines) == LONG
    assert widest(fitted) <= 130


def test_a_name_without_spaces_breaks_between_characters():
    name = "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaftschaferswessen"
    fitted = fit(name, 10, 130, min_size=6)
    assert len(fitted.lines) == 2
    assert "".join(fitted.lines) == name
    assert widest(fitted) <= 130


def test_an_absurd_name_is_cut_with_an_ellipsis_and_still_fits():
    fitted = fit(LONG * 6, 10, 130, min_size=6, max_lines=2)
    assert fitted.size == FLOOR_SIZE
    assert len(fitted.lines) == 2
    assert fitted.lines[-1].endswith(ELLIPSIS)
    assert widest(fitted) <= 130


def test_every_font_in_a_slip_is_embedded():
    pdf = render_slips(slips_document(1, sizes=(3,), names=["Дмитрий Волков", "Zoë Ng", "Ann Archer"]))
    fonts_used = PdfReader(io.BytesIO(pdf)).pages[0]["/Resources"]["/Font"]
    names = set()
    for ref in fonts_used.values():
        font = ref.get_object()
        descriptor = (
            font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            if "/DescendantFonts" in font
            else font["/FontDescriptor"]
        )
        assert "/FontFile2" in descriptor.get_object(), font["/BaseFont"]
        names.add(str(font["/BaseFont"]).split("+")[-1])
    assert {"FiraSans-Regular", "FiraSans-Bold"} <= names
