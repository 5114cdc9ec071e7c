"""The text encodings a table is read in: the names every reader can take, and those refused."""

import pytest

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.encodings import check_encoding


@pytest.mark.parametrize(
    ("name", "codec"),
    [("utf-8", "utf-8"), ("UTF8", "utf-8"), ("utf-8-sig", "utf-8"), ("latin-1", "iso8859-1"), ("cp1252", "cp1252")],
)
def test_encodings_that_write_ascii_as_ascii_are_taken_by_their_codec_name(name, codec):
    assert check_encoding(name) == codec


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("utf-16", "does not write ASCII as ASCII does"),
        ("utf-32-le", "does not write ASCII as ASCII does"),
        ("cp037", "does not write ASCII as ASCII does"),  # EBCDIC
        ("nope", "no text encoding Python knows"),
        ("utf\x008", "no text encoding Python knows"),
        ("base64", "is no text encoding"),
        ("rot13", "is no text encoding"),
        ("", "expected the name of a text encoding"),
    ],
)
def test_other_names_are_refused_naming_the_option(name, said):
    with pytest.raises(PerceptronsError, match=rf"^--encoding: .*{said}"):
        check_encoding(name)
