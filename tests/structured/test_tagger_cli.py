"""perceptrons tag train / predict / evaluate, end to end on small CoNLL-U files."""

import numpy as np
import pytest

from perceptrons import SequencePerceptron, save_model
from perceptrons.cli import main
from perceptrons.io.conllu import read_conllu

SENTS = [
    (["The", "dog", "barks", "."], ["DET", "NOUN", "VERB", "PUNCT"], ["DT", "NN", "VBZ", "."]),
    (["A", "cat", "sleeps", "."], ["DET", "NOUN", "VERB", "PUNCT"], ["DT", "NN", "VBZ", "."]),
    (
        ["The", "cat", "sees", "a", "dog", "."],
        ["DET", "NOUN", "VERB", "DET", "NOUN", "PUNCT"],
        ["DT", "NN", "VBZ", "DT", "NN", "."],
    ),
    (["Dogs", "bark", "."], ["NOUN", "VERB", "PUNCT"], ["NNS", "VBP", "."]),
]


def conllu(sents, with_mwt=True):
    out = []
    for k, (words, upos, xpos) in enumerate(sents):
        out.append(f"# sent_id = {k}")
        if with_mwt and k == 0:
            out.append("1-2\tThedog\t_\t_\t_\t_\t_\t_\t_\t_")
        for i, (w, u, x) in enumerate(zip(words, upos, xpos), 1):
            out.append(f"{i}\t{w}\t{w.lower()}\t{u}\t{x}\t_\t0\tdep\t_\t_")
        out.append("")
    return "\n".join(out) + "\n"


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(list(map(str, args)))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


@pytest.fixture
def files(tmp_path):
    train = tmp_path / "train.conllu"
    train.write_text(conllu(SENTS * 3), encoding="utf-8")
    dev = tmp_path / "dev.conllu"
    dev.write_text(conllu(SENTS[:2]), encoding="utf-8")
    return tmp_path, train, dev


def test_train_predict_evaluate(files, capsys):
    tmp, train, dev = files
    model = tmp / "m.npz"
    code, out, err = run(capsys, "tag", "train", train, "--dev", dev, "--epochs", 3, "-o", model)
    assert code == 0, err
    assert "kept epoch" in out and "dev acc" in out and model.exists()

    code, out, err = run(capsys, "tag", "predict", model, dev)
    assert code == 0, err
    pred = tmp / "p.conllu"
    pred.write_text(out, encoding="utf-8")
    assert [s.tags for s in read_conllu(pred)] == [s[1] for s in SENTS[:2]]
    assert "1-2\tThedog" in out

    text = tmp / "plain.txt"
    text.write_text("The dog barks .\n\nA cat sleeps .\n", encoding="utf-8")
    code, out, err = run(capsys, "tag", "predict", model, text)
    assert code == 0, err
    assert out.splitlines() == ["The/DET dog/NOUN barks/VERB ./PUNCT", "", "A/DET cat/NOUN sleeps/VERB ./PUNCT"]

    code, out, err = run(capsys, "tag", "predict", model, dev, "-o", tmp / "o.conllu")
    assert code == 0 and (tmp / "o.conllu").exists()

    code, out, err = run(capsys, "tag", "evaluate", model, dev)
    assert code == 0, err
    assert "token accuracy    1.0000" in out and "sentence accuracy 1.0000" in out
    assert "unknown words" in out and "NOUN" in out
    assert "unknown words     -        (0 tokens)" in out and "nan" not in out  # dev holds no new word


@pytest.mark.parametrize("first", ["1-2\tThedog\t_\t_\t_\t_\t_\t_\t_\t_", "0.1\tnull\t_\t_\t_\t_\t_\t_\t_\t_"])
def test_conllu_is_recognised_by_content_whatever_its_first_token(files, capsys, first):
    """A CoNLL-U file named otherwise is read as CoNLL-U when its first token line is a
    multiword token's range or an empty node (common in Spanish, French, German treebanks):
    it was tagged as plain text, every column a word, exit 0."""
    tmp, train, dev = files
    model = tmp / "m.npz"
    assert run(capsys, "tag", "train", train, "--epochs", 1, "-o", model)[0] == 0
    lines = conllu(SENTS[:2], with_mwt=False).splitlines()
    lines.insert(1, first)  # after the first sentence's comment
    named = tmp / "sentences.txt"
    named.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "tag", "predict", model, named)
    assert code == 0, err
    assert first in out.splitlines()  # written back as it was, untagged
    pred = tmp / "p.conllu"
    pred.write_text(out, encoding="utf-8")
    assert [len(s.words) for s in read_conllu(pred)] == [len(s[0]) for s in SENTS[:2]]  # CoNLL-U, not text


def test_xpos_and_greedy(files, capsys):
    tmp, train, dev = files
    model = tmp / "x.npz"
    code, out, err = run(
        capsys,
        "tag",
        "train",
        train,
        "--column",
        "xpos",
        "--decoder",
        "greedy",
        "--epochs",
        3,
        "--edges",
        "l[-1],l[0]",
        "--tag-dict",
        "--templates",
        "basic",
        "--second-order",
        "-o",
        model,
    )
    assert code == 0, err
    code, out, err = run(capsys, "tag", "evaluate", model, dev, "--column", "xpos")
    assert code == 0 and "VBZ" in out


def test_bad_templates_option(files, capsys):
    tmp, train, _ = files
    code, _, err = run(capsys, "tag", "train", train, "--templates", "l[0]|q[1]", "-o", tmp / "m.npz")
    assert code == 2 and "bad feature template 'l[0]|q[1]'" in err


def test_clusters_option(files, capsys):
    tmp, train, dev = files
    paths = tmp / "paths"
    paths.write_text("00\tThe\t9\n00\ta\t5\n01\tdog\t4\n01\tcat\t4\n1\tbarks\t2\n", encoding="utf-8")
    model = tmp / "c.npz"
    code, out, err = run(capsys, "tag", "train", train, "--clusters", paths, "--epochs", 3, "-o", model)
    assert code == 0, err
    assert "clusters   5 words, file" in out
    code, out, err = run(capsys, "tag", "evaluate", model, dev)
    assert code == 0 and "token accuracy    1.0000" in out

    paths.write_text("00\tThe\t9\n0x\ta\t5\n", encoding="utf-8")
    code, _, err = run(capsys, "tag", "train", train, "--clusters", paths, "-o", tmp / "d.npz")
    assert (
        code == 2 and err.startswith(f"error: {paths}:2: expected 'bits<TAB>word[<TAB>count]'") and err.count("\n") == 1
    )
    assert not (tmp / "d.npz").exists()


def test_wrong_column_count(files, capsys):
    tmp, train, _ = files
    bad = tmp / "bad.conllu"
    lines = conllu(SENTS).splitlines()
    lines[3] = "2\tdog\tNOUN"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "tag", "train", bad, "-o", tmp / "m.npz")
    assert code == 2 and err.strip() == f"error: {bad}:4: expected 10 tab-separated columns, found 3"
    assert not (tmp / "m.npz").exists()


def test_empty_column(files, capsys):
    tmp, _, _ = files
    empty = tmp / "e.conllu"
    empty.write_text(conllu([(w, ["_"] * len(w), x) for w, _, x in SENTS]), encoding="utf-8")
    code, _, err = run(capsys, "tag", "train", empty, "-o", tmp / "m.npz")
    assert code == 2 and "the upos column is empty" in err and len(err.strip().splitlines()) == 1


def test_empty_file(files, capsys):
    tmp, _, _ = files
    (tmp / "z.conllu").write_text("", encoding="utf-8")
    code, _, err = run(capsys, "tag", "train", tmp / "z.conllu", "-o", tmp / "m.npz")
    assert code == 2 and "no sentences" in err


def test_non_utf8(files, capsys):
    tmp, train, _ = files
    model = tmp / "m.npz"
    assert run(capsys, "tag", "train", train, "--epochs", 1, "-o", model)[0] == 0
    bad = tmp / "bad.txt"
    bad.write_bytes(b"The dog\nbad \xe9 byte\n")
    code, _, err = run(capsys, "tag", "predict", model, bad)
    assert code == 2 and f"{bad}:2: not valid UTF-8" in err
    bad.write_bytes(b"The dog barks .\nA d\x00g sleeps .\n")  # a NUL passed into a word and the output
    code, out, err = run(capsys, "tag", "predict", model, bad)
    assert code == 2 and f"{bad}:2: a NUL byte; expected text" in err and out == ""
    badc = tmp / "bad.conllu"
    badc.write_bytes(conllu(SENTS).encode().replace(b"barks", b"bark\xff"))
    code, _, err = run(capsys, "tag", "predict", model, badc)
    assert code == 2 and f"{badc}:5: not valid UTF-8" in err
    # tag commands take no --encoding: the advice is to convert
    assert "iconv -f CP1252 -t UTF-8" in err and "--encoding" not in err


@pytest.mark.parametrize("confidence", [False, True])
def test_predict_changes_the_tag_column_and_nothing_else(files, capsys, confidence):
    """Comment blocks outside sentences (``# newdoc``), a comment after the last sentence, runs
    of blank lines, a byte-order mark, CRLF line ends and a missing last newline were dropped or
    normalised: the output now differs from its input in the tag column alone (and MISC, with
    --confidence)."""
    tmp, train, _ = files
    model = tmp / "m.npz"
    assert run(capsys, "tag", "train", train, "--epochs", 2, "-o", model)[0] == 0
    body = conllu(SENTS).replace("\tNOUN\t", "\t_\t").rstrip("\n")
    text = "\ufeff# newdoc id = d1\n# a note of its own\n\n\n" + body.replace("\n\n", "\n\n\n", 1) + "\n\n# the end"
    path = tmp / "odd.conllu"
    path.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    out = tmp / "o.conllu"
    code, _, err = run(capsys, "tag", "predict", model, path, "-o", out, *(["--confidence"] if confidence else []))
    assert code == 0, err
    before, after = path.read_bytes().split(b"\r\n"), out.read_bytes().split(b"\r\n")
    assert len(before) == len(after) and out.read_bytes().startswith(b"\xef\xbb\xbf")
    for a, b in zip(before, after):
        fa, fb = a.split(b"\t"), b.split(b"\t")
        if len(fa) != 10:
            assert a == b
        else:
            assert fa[:3] + fa[4:9] == fb[:3] + fb[4:9] and (confidence or fa[9] == fb[9])
    assert [s.tags for s in read_conllu(out)] == [s[1] for s in SENTS]


def test_long_sentence(files, capsys):
    tmp, train, _ = files
    model = tmp / "m.npz"
    assert run(capsys, "tag", "train", train, "--epochs", 1, "-o", model)[0] == 0
    long = tmp / "long.txt"
    long.write_text(" ".join(["the", "dog", "barks"] * 4000) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "tag", "predict", model, long)
    assert code == 0, err
    assert len(out.split()) == 12_000


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # one epoch: only the file kind matters
def test_model_of_another_kind(files, capsys):
    tmp, _, dev = files
    other = tmp / "seq.npz"
    save_model(SequencePerceptron(max_epochs=1).fit(np.eye(2), [0, 1]), other)
    code, _, err = run(capsys, "tag", "predict", other, dev)
    assert code == 2 and "holds a SequencePerceptron, but a Tagger is needed here" in err


@pytest.mark.parametrize("tag", ["VERB\tX", "VERB X", "VERB\nX", "", "\ud800"])
def test_a_model_whose_tag_cannot_fill_a_column_is_refused(files, capsys, tag):
    """A tag with a tab, a space or a line break, or an empty one (a Tagger trained in Python, or
    a tampered file) would shift or split the CoNLL-U written out; a lone surrogate cannot be
    written as UTF-8 at all (the error named the input file)."""
    from perceptrons.structured.tagging import Tagger

    tmp, _, dev = files
    words = [s[0] for s in SENTS]
    tags = [[tag if t == "VERB" else t for t in s[1]] for s in SENTS]
    model = tmp / "odd.npz"
    save_model(Tagger(max_epochs=1).fit(words, tags), model)
    code, _, err = run(capsys, "tag", "predict", model, dev, "-o", tmp / "out.conllu")
    assert code == 2 and "odd.npz: model tag" in err and repr(tag) in err and "Traceback" not in err
    assert not (tmp / "out.conllu").exists()


def test_a_model_of_number_tags_is_refused(files, capsys):
    """A Tagger fitted in Python on tags that are numbers: a CoNLL-U file's tags are text, so
    tagging one failed with a traceback, and evaluating one could only score 0."""
    from perceptrons.structured.tagging import Tagger

    tmp, _, dev = files
    names = sorted({t for s in SENTS for t in s[1]})
    model = tmp / "ints.npz"
    save_model(Tagger(max_epochs=1).fit([s[0] for s in SENTS], [[names.index(t) for t in s[1]] for s in SENTS]), model)
    for command in ("predict", "evaluate"):
        code, _, err = run(capsys, "tag", command, model, dev)
        assert code == 2 and "ints.npz: model tag 0 is of type int; expected text tags" in err, err


def test_patience_without_dev_is_refused(files, capsys):
    tmp, train, _ = files
    code, _, err = run(capsys, "tag", "train", train, "--patience", 2, "-o", tmp / "m.npz")
    assert code == 2 and "--patience goes with --dev" in err and not (tmp / "m.npz").exists()


def test_evaluate_refuses_a_column_whose_tags_the_model_never_saw(files, capsys):
    # a model file that does not record its column (written before it did, or by save_model)
    from perceptrons import load_model

    tmp, train, dev = files
    assert run(capsys, "tag", "train", train, "--epochs", 2, "-o", tmp / "m.npz")[0] == 0
    save_model(load_model(tmp / "m.npz"), tmp / "old.npz")
    code, out, err = run(capsys, "tag", "evaluate", tmp / "old.npz", dev, "--column", "xpos")
    assert code == 2 and "none of its xpos tags" in err and "accuracy" not in out


def test_predict_and_evaluate_read_the_column_the_model_was_trained_on(files, capsys):
    from perceptrons import load_model

    tmp, train, dev = files
    assert run(capsys, "tag", "train", train, "--column", "xpos", "--epochs", 3, "-o", tmp / "x.npz")[0] == 0
    assert load_model(tmp / "x.npz", with_info=True)[1] == {"tag_column": "xpos"}
    blank = tmp / "blank.conllu"
    blank.write_text(conllu([(w, ["_"] * len(w), ["_"] * len(w)) for w, _, _ in SENTS[:2]]), encoding="utf-8")
    code, out, err = run(capsys, "tag", "predict", tmp / "x.npz", blank)
    assert code == 0, err
    rows = [line.split("\t") for line in out.splitlines() if line and line[0].isdigit() and "-" not in line[:3]]
    assert [r[4] for r in rows] == ["DT", "NN", "VBZ", ".", "DT", "NN", "VBZ", "."]  # XPOS filled
    assert {r[3] for r in rows} == {"_"}  # UPOS left as it was
    code, out, err = run(capsys, "tag", "evaluate", tmp / "x.npz", dev)
    assert code == 0 and "token accuracy    1.0000" in out, err
    # the other column would receive tags of the wrong set: refused, nothing written
    for command in (["predict", tmp / "x.npz", blank, "-o", tmp / "out.conllu"], ["evaluate", tmp / "x.npz", dev]):
        code, out, err = run(capsys, "tag", *command, "--column", "upos")
        assert code == 2 and err.count("\n") == 1, err
        assert "--column" in err and "the model was trained on the xpos column" in err
    assert not (tmp / "out.conllu").exists()
    # given the column it was trained on, or a model that does not say: as before
    assert run(capsys, "tag", "evaluate", tmp / "x.npz", dev, "--column", "xpos")[0] == 0
    save_model(load_model(tmp / "x.npz"), tmp / "old.npz")
    assert run(capsys, "tag", "evaluate", tmp / "old.npz", dev, "--column", "xpos")[0] == 0


def test_missing_files(files, capsys):
    tmp, train, _ = files
    code, _, err = run(capsys, "tag", "predict", tmp / "none.npz", train)
    assert code == 2 and "no such model file" in err
    code, _, err = run(capsys, "tag", "train", train, "-o", tmp / "nodir" / "m.npz")
    assert code == 2 and "does not exist" in err


def test_ctrl_c_writes_nothing(files, capsys, monkeypatch):
    tmp, train, _ = files
    from perceptrons.structured import tagging

    def interrupted(self, *a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(tagging.Tagger, "fit", interrupted)
    code, _, err = run(capsys, "tag", "train", train, "-o", tmp / "m.npz")
    assert code == 130 and "nothing was written" in err and not (tmp / "m.npz").exists()


def test_evaluate_aligns_long_tags(tmp_path, capsys):
    # morphological tags (UPOS|FEATS) run past the table's 8 columns: the numbers stay aligned
    sents = [(w, [f"{u}|Number=Sing|Person=3" if u == "VERB" else u for u in upos], x) for w, upos, x in SENTS]
    path = tmp_path / "m.conllu"
    path.write_text(conllu(sents * 3), encoding="utf-8")
    model = tmp_path / "m.npz"
    assert run(capsys, "tag", "train", path, "-o", model, "--epochs", "2")[0] == 0
    code, out, err = run(capsys, "tag", "evaluate", model, path)
    assert code == 0, err
    lines = out.splitlines()
    table = lines[next(i for i, line in enumerate(lines) if line.startswith("tag ")) :]
    assert any(line.startswith("VERB|Number=Sing|Person=3 ") for line in table)
    assert len(table) > 3 and len(set(map(len, table))) == 1  # the header and every row: one width


def test_predict_writes_the_probabilities_of_the_tags(files, capsys):
    from perceptrons import load_model

    tmp, train, dev = files
    model = tmp / "m.npz"
    assert run(capsys, "tag", "train", train, "--epochs", 3, "-o", model)[0] == 0
    tagger = load_model(model)
    sents = read_conllu(dev)
    tags, conf = tagger.predict([s.words for s in sents], return_conf=True)
    # an earlier probability is replaced, other MISC entries are kept
    lines = dev.read_text(encoding="utf-8").splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("2\tdog\t"))
    lines[i] = lines[i][: -len("_")] + "SpaceAfter=No|UPOSConf=0.5|Gloss=x"
    dev.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "tag", "predict", model, dev, "--confidence")
    assert code == 0, err
    rows = [
        line.split("\t") for line in out.splitlines() if line and line[0].isdigit() and "-" not in line.split("\t")[0]
    ]
    assert [r[3] for r in rows] == [t for s in tags for t in s]
    misc = [r[9] for r in rows]
    assert misc[1] == f"SpaceAfter=No|Gloss=x|UPOSConf={conf[0][1]:.4f}"
    assert [m.split("|")[-1] for m in misc] == [f"UPOSConf={p:.4f}" for c in conf for p in c]
    assert "1-2\tThedog\t_\t_\t_\t_\t_\t_\t_\t_" in out  # a multiword token's line is left alone

    plain = tmp / "plain.txt"
    plain.write_text("The dog barks .\n\nA cat sleeps .\n", encoding="utf-8")
    code, out, err = run(capsys, "tag", "predict", model, plain, "--confidence")
    assert code == 0, err
    tags, conf = tagger.predict([["The", "dog", "barks", "."], [], ["A", "cat", "sleeps", "."]], return_conf=True)
    assert out.splitlines()[1] == ""
    for line, ts, cs in zip(out.splitlines()[::2], tags[::2], conf[::2]):
        assert [tok.rsplit("/", 2)[1:] for tok in line.split()] == [[t, f"{p:.4f}"] for t, p in zip(ts, cs)]


# ---------------------------------------------------------------- --pretrained: the packaged model
RAW = "I don't e-mail Dr. Smith.\nCall me at 10:30 please.\n\nThe rules start on Monday.\n"


def test_pretrained_tags_raw_text_as_pos_tag_sents_does(tmp_path, capsys):
    from perceptrons import pos_tag_sents

    (tmp_path / "raw.txt").write_text(RAW, encoding="utf-8")
    code, out, err = run(capsys, "tag", "predict", "--pretrained", "en", tmp_path / "raw.txt")
    assert code == 0, err
    lines = out.splitlines()
    expected = [s for paragraph in RAW.split("\n\n") for s in pos_tag_sents(paragraph.strip())]
    assert lines == [" ".join(f"{w}/{t}" for w, t in s) for s in expected]
    assert lines[0].startswith("I/PRON do/AUX n't/PART e-mail/")
    # the same file as whitespace-split text, when asked
    code, out, _ = run(capsys, "tag", "predict", "--pretrained", "eng", "--format", "text", tmp_path / "raw.txt")
    assert code == 0 and out.splitlines()[0].split()[1] == "don't/" + out.splitlines()[0].split()[1].split("/")[-1]


def test_pretrained_fills_conllu_and_evaluates(tmp_path, capsys):
    path = tmp_path / "gold.conllu"
    path.write_text(conllu(SENTS), encoding="utf-8")
    code, out, err = run(capsys, "tag", "predict", "--pretrained", "en", path, "-o", tmp_path / "out.conllu")
    assert code == 0, err
    tagged = read_conllu(tmp_path / "out.conllu", "upos")
    assert [s.words for s in tagged] == [s[0] for s in SENTS]
    from perceptrons import Tagger

    predicted = Tagger.pretrained("en").predict([s[0] for s in SENTS])
    assert [s.tags for s in tagged] == predicted
    code, out, err = run(capsys, "tag", "evaluate", "--pretrained", "en", path)
    assert code == 0, err
    right = sum(p == g for s, tags in zip(SENTS, predicted) for p, g in zip(tags, s[1]))
    assert out.splitlines()[1] == f"token accuracy    {right / sum(len(s[1]) for s in SENTS):.4f}"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--pretrained", "fr", "F"],
            "Invalid value for '--pretrained': 'fr': no such pretrained model; the names are en",
        ),
        (["--pretrained", "../en", "F"], "'../en': no such pretrained model"),
        (["--pretrained", "en", "M", "F"], "--pretrained en is the model: give FILE alone, not a MODEL file too"),
        (["--pretrained", "en"], "Missing argument 'FILE'"),
        (["F"], "Missing argument 'FILE' (or give --pretrained NAME and FILE)"),
        ([], "Missing argument 'MODEL'"),
        (["--pretrained", "en", "missing.txt"], "missing.txt: no such file"),
        # the first argument is FILE with --pretrained: its directory was named as '[MODEL]'
        (["--pretrained", "en", "D"], "Invalid value for 'FILE': File 'D' is a directory."),
        (["D", "F"], "Invalid value for 'MODEL': File 'D' is a directory."),
    ],
)
def test_pretrained_misuse_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "F").write_text(RAW, encoding="utf-8")
    (tmp_path / "D").mkdir()
    code, out, err = run(capsys, "tag", "predict", *args)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err
    assert len([line for line in err.splitlines() if line.startswith("error")]) == 1


def test_pretrained_raw_text_refuses_a_nul_and_bad_utf8(tmp_path, capsys):
    (tmp_path / "nul.txt").write_bytes(b"fine line\nbad \x00 line\n")
    code, _, err = run(capsys, "tag", "predict", "--pretrained", "en", tmp_path / "nul.txt")
    assert code == 2 and "nul.txt:2: a NUL byte; expected text" in err
    (tmp_path / "latin.txt").write_bytes(b"caf\xe9\n")
    code, _, err = run(capsys, "tag", "predict", "--pretrained", "en", tmp_path / "latin.txt")
    assert code == 2 and "latin.txt" in err and "Traceback" not in err


# ---------------------------------------------------------------- --column feats
def _feats_conllu(sents):
    """CoNLL-U whose FEATS column is a function of the word; '_' for punctuation."""
    feats = {"The": "Definite=Def|PronType=Art", "A": "Definite=Ind|PronType=Art", "a": "Definite=Ind|PronType=Art"}
    out = []
    for k, (words, upos, _) in enumerate(sents):
        out.append(f"# sent_id = {k}")
        for i, (w, u) in enumerate(zip(words, upos), 1):
            f = feats.get(
                w, "_" if u == "PUNCT" else "Number=Plur" if w.endswith("s") and u == "NOUN" else "Number=Sing"
            )
            out.append(f"{i}\t{w}\t{w.lower()}\t{u}\t_\t{f}\t0\tdep\t_\t_")
        out.append("")
    return "\n".join(out) + "\n"


def test_feats_column_trains_predicts_and_evaluates_with_underscore_as_a_tag(tmp_path, capsys):
    path = tmp_path / "feats.conllu"
    path.write_text(_feats_conllu(SENTS * 5), encoding="utf-8")
    code, out, err = run(capsys, "tag", "train", path, "--column", "feats", "--epochs", "5", "-o", tmp_path / "m.npz")
    assert code == 0, err
    code, out, err = run(capsys, "tag", "predict", tmp_path / "m.npz", path)  # the model's column by default
    assert code == 0, err
    predicted = [line.split("\t") for line in out.splitlines() if line and not line.startswith("#")]
    gold = [line.split("\t") for line in _feats_conllu(SENTS * 5).splitlines() if line and not line.startswith("#")]
    assert [p[5] for p in predicted] == [g[5] for g in gold]  # learnt, '_' included
    assert [p[3] for p in predicted] == [g[3] for g in gold]  # the other columns untouched
    code, out, err = run(capsys, "tag", "evaluate", tmp_path / "m.npz", path)
    assert code == 0 and "token accuracy    1.0000" in out


def test_a_feats_column_of_nothing_but_underscores_is_refused(tmp_path, capsys):
    path = tmp_path / "none.conllu"
    path.write_text(conllu(SENTS, with_mwt=False), encoding="utf-8")  # FEATS '_' everywhere
    code, _, err = run(capsys, "tag", "train", path, "--column", "feats", "-o", tmp_path / "m.npz")
    assert code == 2 and "the feats column is empty ('_' on every token); choose another with --column" in err
