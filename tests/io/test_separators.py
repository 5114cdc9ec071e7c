"""The mark that separates a table's fields, found from its first line."""

import pytest

from perceptrons.io.separators import decimal_comma_in, delimiter_of, sniff_delimiter


@pytest.mark.parametrize(
    "line, found",
    [
        ("a,b,label", ","),
        ("a;b;label", ";"),
        ('"fixed acidity";"volatile acidity";"quality"', ";"),
        ("a\tb\tlabel", "\t"),
        ("a|b|label", "|"),
        ('"x;y",b,label', ","),  # a separator inside quotes does not count
        ("a;b,c;d;label", ","),  # a comma outside quotes: a CSV whose names hold semicolons
        ("label", ","),
        ("", ","),
    ],
)
def test_the_separator_of_a_header(line, found):
    assert delimiter_of(line) == found
    assert delimiter_of(line, "\t") == "\t"  # a TSV is read as one, whatever its names hold


@pytest.mark.parametrize(
    "line, comma",
    [("0,126;1;0", True), ('1;"2,5";x', True), ("-,5;1", True), ("0.126;1;0", False), ("a,b;1", False), ("1;2", False)],
)
def test_a_decimal_comma_in_a_data_line(line, comma):
    assert decimal_comma_in(line) is comma


def test_excels_separator_line_and_blank_lines_first(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("\n\nsep=;\na;b\n")
    assert sniff_delimiter(path, ",") == (";", True)
    path.write_text("\na;b\n")
    assert sniff_delimiter(path, ",") == (";", False)
    path.write_text("sep=\t\r\na\tb\r\n")
    assert sniff_delimiter(path, ",") == ("\t", True)
