"""CoNLL-U reading and writing, and its bad-input messages."""

import pytest

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.conllu import format_conllu, iter_conllu, read_conllu, write_conllu

SAMPLE = (
    "# sent_id = 1\n"
    "# text = I don't know.\n"
    "1\tI\tI\tPRON\tPRP\t_\t3\tnsubj\t_\t_\n"
    "2-3\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "2\tdo\tdo\tAUX\tVBP\t_\t3\taux\t_\t_\n"
    "3\tn't\tnot\tPART\tRB\t_\t4\tadvmod\t_\t_\n"
    "4\tknow\tknow\tVERB\tVB\t_\t0\troot\t_\t_\n"
    "4.1\tknows\t_\t_\t_\t_\t_\t_\t4:x\t_\n"
    "5\t.\t.\tPUNCT\t.\t_\t4\tpunct\t_\t_\n"
    "\n"
    "# sent_id = 2\n"
    "1\tHi\thi\tINTJ\tUH\t_\t0\troot\t_\t_\n"
    "\n"
)


def write(tmp_path, text, name="a.conllu", mode="w"):
    p = tmp_path / name
    if mode == "wb":
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


def test_reads_words_and_tags_skipping_ranges_and_empty_nodes(tmp_path):
    sents = read_conllu(write(tmp_path, SAMPLE))
    assert [s.words for s in sents] == [["I", "do", "n't", "know", "."], ["Hi"]]
    assert sents[0].tags == ["PRON", "AUX", "PART", "VERB", "PUNCT"]
    assert read_conllu(write(tmp_path, SAMPLE), column="xpos")[0].tags == ["PRP", "VBP", "RB", "VB", "."]


def test_without_lines(tmp_path):
    path = write(tmp_path, SAMPLE.replace("\tAUX\t", "\t_\t"))
    sents = read_conllu(path, keep_lines=False)
    assert sents[0].lines == [] and sents[0].words == ["I", "do", "n't", "know", "."]
    with pytest.raises(PerceptronsError, match=r"a\.conllu:5: the upos column is '_'"):
        read_conllu(path, require_tags=True, keep_lines=False)
    with pytest.raises(PerceptronsError, match="keep_lines=False"):
        format_conllu(sents, [s.tags for s in sents])


def test_streams(tmp_path):
    it = iter_conllu(write(tmp_path, SAMPLE))
    assert next(it).words[0] == "I"


def test_no_trailing_blank_line_and_crlf(tmp_path):
    text = SAMPLE.rstrip("\n").replace("\n", "\r\n")
    assert [s.words for s in read_conllu(write(tmp_path, text))][-1] == ["Hi"]


def test_write_back_fills_the_column(tmp_path):
    path = write(tmp_path, SAMPLE)
    sents = read_conllu(path)
    pred = [["X"] * len(s.words) for s in sents]
    out = tmp_path / "out.conllu"
    write_conllu(out, sents, pred, column="upos")
    back = read_conllu(out)
    assert [s.tags for s in back] == pred
    assert [s.words for s in back] == [s.words for s in sents]
    assert back[0].tags != sents[0].tags and "2-3\tdon't" in out.read_text()
    # everything but the tag column is untouched
    same = format_conllu(sents, [s.tags for s in sents])
    assert same == SAMPLE


def test_wrong_column_count_names_file_and_line(tmp_path):
    bad = SAMPLE.replace("4\tknow\tknow\tVERB\tVB\t_\t0\troot\t_\t_", "4\tknow\tVERB")
    path = write(tmp_path, bad)
    with pytest.raises(PerceptronsError, match=r"a\.conllu:7: expected 10 tab-separated columns, found 3"):
        read_conllu(path)


def test_empty_tag_column(tmp_path):
    text = "".join(
        "\t".join(p[:3] + ["_"] + p[4:]) + "\n" if len(p := line.split("\t")) == 10 else line + "\n"
        for line in SAMPLE.splitlines()
    )
    path = write(tmp_path, text)
    with pytest.raises(PerceptronsError, match="the upos column is empty"):
        read_conllu(path, require_tags=True)
    assert len(read_conllu(path)) == 2  # without tags needed (prediction) it is fine


def test_partly_missing_tags_name_a_line(tmp_path):
    path = write(tmp_path, SAMPLE.replace("\tAUX\t", "\t_\t"))
    with pytest.raises(PerceptronsError, match=r"a\.conllu:5: the upos column is '_' on 1 of 6 tokens"):
        read_conllu(path, require_tags=True)


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n\n"])
def test_empty_file(tmp_path, text):
    with pytest.raises(PerceptronsError, match="no sentences"):
        read_conllu(write(tmp_path, text))


def test_non_utf8_names_the_line(tmp_path):
    path = write(tmp_path, SAMPLE.encode().replace(b"know\tknow", b"kn\xffw\tknow"), mode="wb")
    with pytest.raises(PerceptronsError, match=r"a\.conllu:7: not valid UTF-8 \(byte 0xff"):
        read_conllu(path)


def test_bad_token_id(tmp_path):
    with pytest.raises(PerceptronsError, match=r":3: token ID 'x'"):
        read_conllu(write(tmp_path, SAMPLE.replace("1\tI\t", "x\tI\t")))


def test_unknown_column(tmp_path):
    with pytest.raises(PerceptronsError, match="unknown tag column 'lemma'"):
        read_conllu(write(tmp_path, SAMPLE), column="lemma")


@pytest.mark.data
def test_reads_ewt_dev(shared_data):
    sents = read_conllu(shared_data("ud-english-ewt") / "dev.conllu", require_tags=True)
    assert len(sents) == 2001
    assert sum(len(s.words) for s in sents) == 25147


def test_probabilities_go_to_misc_and_read_back(tmp_path):
    sents = read_conllu(write(tmp_path, SAMPLE))
    pred = [s.tags for s in sents]
    conf = [[(i + 1) / (len(s.words) + 1) for i in range(len(s.words))] for s in sents]
    out = tmp_path / "out.conllu"
    write_conllu(out, sents, pred, column="xpos", conf=conf)
    again = tmp_path / "again.conllu"
    write_conllu(again, read_conllu(out), pred, column="xpos", conf=conf)  # replaced, not added twice
    assert again.read_text() == out.read_text()
    rows = [line.split("\t") for line in out.read_text().splitlines() if line[:1].isdigit()]
    rows = [r for r in rows if r[0].isdigit()]  # not the multiword tokens' lines
    assert [r[9].split("|")[-1] for r in rows] == [f"XPOSConf={p:.4f}" for c in conf for p in c]
    assert [s.words for s in read_conllu(out)] == [s.words for s in sents]


_PLUS = "# global.columns = {}\n# sent_id = 1\n1\tHi\thi\tINTJ\tUH\t_\t0\troot\t_\t_\n\n"


@pytest.mark.parametrize("reader", ["read", "stream"])
def test_a_declaration_of_other_columns_is_refused(tmp_path, reader):
    """CoNLL-U Plus names its columns on its first line; one that swaps UPOS and XPOS was read by
    position, and evaluated at 0.0004."""
    from perceptrons.io.conllu_stream import stream_conllu

    read = read_conllu if reader == "read" else (lambda p: list(stream_conllu(p)))
    path = tmp_path / "p.conllu"
    path.write_text(_PLUS.format("ID FORM LEMMA XPOS UPOS FEATS HEAD DEPREL DEPS MISC"))
    with pytest.raises(PerceptronsError, match=r"p\.conllu:1: global\.columns declares 'ID FORM LEMMA XPOS UPOS"):
        read(path)
    path.write_text(_PLUS.format("ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC"))
    assert [s.tags for s in read(path)] == [["INTJ"]]


def test_a_byte_order_mark_inside_a_file_is_named(tmp_path):
    """Two files joined by cat: the second's byte-order mark, invisible, made its first comment
    "1 column"."""
    one = "\ufeff# sent_id = 1\n1\tHi\thi\tINTJ\tUH\t_\t0\troot\t_\t_\n\n"
    path = tmp_path / "j.conllu"
    path.write_text(one + one, encoding="utf-8")
    with pytest.raises(PerceptronsError, match=r"j\.conllu:4: a byte-order mark \(U\+FEFF\) starts the line"):
        read_conllu(path)


@pytest.mark.parametrize("reader", ["read", "stream"])
@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "1\tHi\thi\tINTJ \tUH\t_\t0\troot\t_\t_",
            r"column 4 \(UPOS\) has white space around 'INTJ'; expected 'INTJ' alone",
        ),
        ("1\tHi\thi\t \tUH\t_\t0\troot\t_\t_", r"column 4 \(UPOS\) is empty; CoNLL-U writes '_' for no value"),
        ("1 Hi hi INTJ UH _ 0 root _ _", r"found 1; the columns are separated by spaces, expected tabs"),
    ],
)
def test_a_bad_token_line_is_told_what_is_wrong_with_it(tmp_path, reader, line, message):
    from perceptrons.io.conllu_stream import stream_conllu

    read = read_conllu if reader == "read" else (lambda p: list(stream_conllu(p)))
    path = tmp_path / "p.conllu"
    path.write_text(f"# sent_id = 1\n{line}\n\n")
    with pytest.raises(PerceptronsError, match=rf"p\.conllu:2: .*{message}"):
        read(path)
