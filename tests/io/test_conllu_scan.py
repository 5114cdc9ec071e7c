"""The compiled CoNLL-U pass against the line-by-line reader: the same sentences whenever it
accepts a file, and the reader's own error whenever the file is bad."""

import tempfile
from pathlib import Path

import numpy as np
import pytest
from conllu_documents import documents
from hypothesis import given, settings
from hypothesis import strategies as st
from test_conllu import SAMPLE

from perceptrons._core.errors import PerceptronsError
from perceptrons._jit.conllu_scan import _is_space
from perceptrons.io.conllu import _read_scanned, iter_conllu, read_conllu


def as_tuples(sentences):
    return [(s.words, s.tags, s.lines, s.token_lines, s.first_line) for s in sentences]


def line_by_line(path, column, keep_lines):
    """The reader's sentences, or its error message."""
    try:
        return as_tuples(iter_conllu(path, column, keep_lines))
    except PerceptronsError as exc:
        return str(exc)


def test_whitespace_is_pythons():
    # every code point (surrogates aside) encoded alone: the compiled test says what str.isspace says
    chars = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    encoded = [c.encode("utf-8") for c in chars]
    blob = np.frombuffer(b"".join(encoded), dtype=np.uint8)
    starts = np.cumsum([0] + [len(e) for e in encoded])
    spaces = [c for c, a, b in zip(chars, starts[:-1].tolist(), starts[1:].tolist()) if _is_space(blob, a, b)]
    assert spaces == [c for c in chars if c.isspace()]


@pytest.mark.parametrize(
    "text",
    [
        SAMPLE,
        SAMPLE.replace("\n", "\r\n"),
        "\ufeff" + SAMPLE,
        SAMPLE.rstrip("\n"),
        SAMPLE.replace("I\tI\t", "Ünïcode\tü\t").replace("Hi\thi", "日本\t日本"),
        SAMPLE.replace("\tknow\t", "\t know \t"),  # spaces around the form are the form's
        "# only a comment\n\n" + SAMPLE + "\n\n   \n# trailing comment\n",
    ],
)
@pytest.mark.parametrize("column", ["upos", "xpos"])
@pytest.mark.parametrize("keep_lines", [True, False])
def test_the_compiled_pass_reads_what_the_reader_reads(tmp_path, text, column, keep_lines):
    path = tmp_path / "a.conllu"
    path.write_bytes(text.encode("utf-8"))
    scanned = _read_scanned(path, column, keep_lines)
    assert scanned is not None, "the compiled pass should accept this file"
    assert as_tuples(scanned) == line_by_line(path, column, keep_lines)


def test_more_tags_than_the_table_holds_are_read_line_by_line(tmp_path):
    from perceptrons.io.conllu_bytes import TAG_SLOTS

    path = tmp_path / "many.conllu"
    for n_tags, scanned in ((TAG_SLOTS // 2, True), (TAG_SLOTS // 2 + 1, False)):
        path.write_text("".join(f"1\tw\tl\tT{i}\tX\t_\t0\tdep\t_\t_\n\n" for i in range(n_tags)))
        assert (_read_scanned(path, "upos", False) is not None) == scanned
        assert as_tuples(read_conllu(path, keep_lines=False)) == line_by_line(path, "upos", False)


@pytest.mark.data
@pytest.mark.parametrize("name", [pytest.param("train", marks=pytest.mark.slow), "dev", "test"])
def test_ewt_in_one_compiled_pass(shared_data, name):
    path = shared_data("ud-english-ewt") / f"{name}.conllu"
    for column in ("upos", "xpos"):
        scanned = _read_scanned(path, column, keep_lines=True)
        assert scanned is not None
        assert as_tuples(scanned) == line_by_line(path, column, True)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(documents(), st.sampled_from(["upos", "xpos"]), st.booleans())
def test_fuzz_same_sentences_or_the_readers_error(data, column, keep_lines):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f.conllu"
        path.write_bytes(data)
        expected = line_by_line(path, column, keep_lines)
        scanned = _read_scanned(path, column, keep_lines)
        if isinstance(expected, str):
            assert scanned is None  # a bad file is always left to the reader, which names the line
        elif scanned is not None:
            assert as_tuples(scanned) == expected
        try:
            got = as_tuples(read_conllu(path, column, keep_lines=keep_lines))
        except PerceptronsError as exc:
            got = str(exc)
        assert got == expected


# ---------------------------------------------------------------------- a block at a time
@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(documents(), st.sampled_from(["upos", "xpos"]), st.booleans(), st.sampled_from([1, 7, 40, 200, 1 << 20]))
def test_fuzz_streamed_blocks_give_the_readers_sentences_or_its_error(data, column, keep_lines, block):
    """``stream_conllu`` cut into blocks of every size (1 byte: a block grows to the next
    empty line; past MAX_BLOCKS blocks without one, the line reader takes over)."""
    from perceptrons.io.conllu_stream import stream_conllu

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f.conllu"
        path.write_bytes(data)
        try:
            got = as_tuples(stream_conllu(path, column, keep_lines, block_bytes=block))
        except PerceptronsError as exc:
            got = str(exc)
        assert got == line_by_line(path, column, keep_lines)


@pytest.mark.data
@pytest.mark.parametrize("block", [1 << 16, 1 << 20])
def test_ewt_streamed_a_block_at_a_time(shared_data, block):
    from perceptrons.io import conllu_stream

    path = shared_data("ud-english-ewt") / "train.conllu"
    calls = []
    scan = conllu_stream.scan_bytes
    try:  # every block is scanned: none falls back to the line reader
        conllu_stream.scan_bytes = lambda *a: calls.append(scan(*a)) or calls[-1]
        got = as_tuples(conllu_stream.stream_conllu(path, "upos", True, block_bytes=block))
    finally:
        conllu_stream.scan_bytes = scan
    assert len(calls) > 1 and all(c is not None for c in calls)
    assert got == line_by_line(path, "upos", True)


def test_a_byte_order_mark_after_the_first_block_is_left_to_the_line_reader(tmp_path):
    from perceptrons.io.conllu_stream import stream_conllu

    path = tmp_path / "bom.conllu"
    row = "1\tw\tl\tX\tX\t_\t0\tdep\t_\t_\n\n"
    path.write_bytes(("\ufeff" + row + row + "\ufeff" + row).encode())
    with pytest.raises(PerceptronsError) as info:  # a mark inside the file is no mark: it is kept
        list(stream_conllu(path, "upos", True, block_bytes=len(row) + 3))
    assert str(info.value) == line_by_line(path, "upos", True)
    assert "bom.conllu:5: token ID '\\ufeff1' is not an integer" in str(info.value)
