"""A cell as people write one: numbers in the forms spreadsheets export, and the marks that stand
for no value in a column of numbers."""

import math
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perceptrons.io.cells import (
    CURRENCY,
    DATES,
    DECIMAL_COMMA,
    PERCENT,
    THOUSANDS,
    formatted_number,
    is_placeholder,
    plain_number,
)


@pytest.mark.parametrize(
    "cell, decimal_comma, value, forms",
    [
        ("1,234", False, 1234.0, [THOUSANDS]),
        ("-12,345,678.25", False, -12345678.25, [THOUSANDS]),
        ("$12.50", False, 12.5, [CURRENCY]),
        ("-$5", False, -5.0, [CURRENCY]),
        ("$-5", False, -5.0, [CURRENCY]),
        ("12,50 €", True, 12.5, [CURRENCY, DECIMAL_COMMA]),
        ("£1,000", False, 1000.0, [CURRENCY, THOUSANDS]),
        ("45%", False, 0.45, [PERCENT]),
        ("-2.5 %", False, -0.025, [PERCENT]),
        ("0,126", True, 0.126, [DECIMAL_COMMA]),
        (",5", True, 0.5, [DECIMAL_COMMA]),
        ("1.234,5", True, 1234.5, [THOUSANDS, DECIMAL_COMMA]),
        ("1.234.567", True, 1234567.0, [THOUSANDS]),
        ("1970-01-02", False, 1.0, [DATES]),
        ("1970-01-01 12:00:00", False, 0.5, [DATES]),
        ("1970-01-01T06:00:00Z", False, 0.25, [DATES]),
        ("1970-01-01T02:00:00+02:00", False, 0.0, [DATES]),
    ],
)
def test_the_forms_spreadsheets_write(cell, decimal_comma, value, forms):
    got, form = formatted_number(cell, decimal_comma)
    assert got == pytest.approx(value, rel=1e-12, abs=1e-12) and form == ", ".join(forms)


@pytest.mark.parametrize(
    "cell, decimal_comma",
    [
        ("0,126", False),  # a comma is no decimal mark in a file separated by commas
        ("1,23", False),  # nor a grouping of thousands
        ("01,234", False),
        ("1,234", True),  # in a ';' file "1,234" is 1.234, and "1.234,5" groups by points
        ("1,234.5", True),
        ("12a3", False),  # "12a" is 12 and a unit: the column decides (every number with it, or none)
        ("$", False),
        ("%", False),
        ("- 5", False),
        ("$$5", False),
        ("2020-13-45", False),
        ("20-07-2020", False),
        ("inf%", False),
        ("$nan", False),
        ("", False),
    ],
)
def test_what_is_no_number(cell, decimal_comma):
    got = formatted_number(cell, decimal_comma)
    if cell == "1,234" and decimal_comma:
        assert got == (pytest.approx(1.234), DECIMAL_COMMA)
    else:
        assert got is None


def test_plain_numbers_are_what_every_reader_reads():
    assert plain_number(" 1.5e3 ") == 1500.0 and plain_number("-.5") == -0.5
    assert plain_number("1_000") is None and plain_number("١٢") is None and plain_number("1,5") is None


@pytest.mark.parametrize("cell", ["?", "-", "--", ".", "*", " ? ", "#VALUE!", "#DIV/0!", "missing", "Unknown", "n.a."])
def test_marks_of_no_value(cell):
    assert is_placeholder(cell)


@pytest.mark.parametrize("cell", ["", " ", "abc", "12a", "\x00", "\x07?", "large", "ø"])
def test_what_is_no_mark(cell):
    assert not is_placeholder(cell)


@given(st.floats(min_value=-1e12, max_value=1e12, allow_nan=False).map(lambda v: round(v, 2)))
def test_grouped_numbers_read_back_as_their_value(value):
    grouped = f"{abs(value):,.2f}"
    sign = "-" if value < 0 else ""
    got = formatted_number(f"{sign}${grouped}")
    assert got is not None and math.isclose(got[0], float(f"{value:.2f}"), rel_tol=1e-15, abs_tol=1e-15)


def test_a_date_is_its_days_since_1970():
    day = datetime(2020, 7, 20, tzinfo=UTC)
    assert formatted_number("2020-07-20")[0] == (day - datetime(1970, 1, 1, tzinfo=UTC)).days


@pytest.mark.parametrize(
    "cell, value, form",
    [
        ("(1,150.22)", -1150.22, "negatives in parentheses, thousands separators"),
        ("(38.19)", -38.19, "negatives in parentheses"),
        ("58 kg", 58.0, "the unit 'kg'"),
        ("3.5cm", 3.5, "the unit 'cm'"),
        ("20 °C", 20.0, "the unit '°C'"),
        ("100 km/h", 100.0, "the unit 'km/h'"),
    ],
)
def test_accounting_negatives_and_units(cell, value, form):
    assert formatted_number(cell) == (pytest.approx(value), form)


@pytest.mark.parametrize("cell", ["(-5)", "(abc)", "()", "5 kg kg", "kg", "nan kg", "inf kg", "5 verylongunit"])
def test_what_parentheses_and_units_do_not_make_a_number(cell):
    assert formatted_number(cell) is None


def test_points_group_thousands_in_a_file_of_decimal_commas():
    assert formatted_number("3.386", True, points_group=True) == (3386.0, THOUSANDS)
    assert formatted_number("-1.234.567", True, points_group=True) == (-1234567.0, THOUSANDS)
    assert formatted_number("3.386", True) is None  # without decimal commas elsewhere: 3.386, plainly
    # with a currency sign, a percentage or a unit too
    assert formatted_number("1.000 €", True, points_group=True) == (1000.0, "currency signs, thousands separators")
    assert formatted_number("(1.000)", True, points_group=True) == (
        -1000.0,
        "negatives in parentheses, thousands separators",
    )
    assert formatted_number("2.500 kg", True, points_group=True)[0] == 2500.0


@pytest.mark.parametrize(
    ("cell", "decimal_comma", "value"),
    [
        ("32\u00a0610,55", True, 32610.55),  # French, a no-break space
        ("32\u202f610,55", True, 32610.55),  # a narrow no-break space
        ("1 234 567", False, 1234567.0),
        ("32\u2009610.55", False, 32610.55),  # SI, a thin space and a decimal point
        ("32 610,55 €", True, 32610.55),
        ("-1 234", False, -1234.0),
    ],
)
def test_thousands_grouped_by_spaces(cell, decimal_comma, value):
    """Locales that group thousands by a space (French, Nordic, SI): such a column was read as
    text, one hashed category per value."""
    got = formatted_number(cell, decimal_comma)
    assert got is not None and got[0] == value and "thousands separators" in got[1]


@pytest.mark.parametrize(
    ("cell", "decimal_comma"),
    [("12 34", False), ("1 2345", False), ("32 610,55", False), ("32 610.55", True), ("0 123", False)],
)
def test_spaces_that_group_no_thousands_are_no_number(cell, decimal_comma):
    assert formatted_number(cell, decimal_comma) is None
