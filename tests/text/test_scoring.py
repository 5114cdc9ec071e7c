"""Gold words and sentences from CoNLL-U: spans found in the raw text (multiword tokens shared
out), documents and paragraphs joined, refusals that name the line, and the F1 arithmetic."""

import pytest

from perceptrons._core.errors import PerceptronsError
from perceptrons.text.scoring import documents, gold_sentences, span_f1

ROW = "{}\t{}\t_\tX\t_\t_\t0\tdep\t_\t_"


def conllu(tmp_path, *sentences):
    blocks = []
    for comments, rows in sentences:
        blocks.append("\n".join([*comments, *(ROW.format(i, f) for i, f in rows)]))
    path = tmp_path / "gold.conllu"
    path.write_text("\n\n".join(blocks) + "\n\n", encoding="utf-8")
    return path


def test_spans_multiword_tokens_and_documents(tmp_path):
    path = conllu(
        tmp_path,
        (
            ["# newdoc id = d1", "# newpar", "# text = I don't  know."],
            [(1, "I"), ("2-3", "don't"), (2, "do"), (3, "n't"), (4, "know"), (5, ".")],
        ),
        (["# text = Its fine"], [("1-2", "Its"), (1, "It"), (2, "s"), (3, "fine")]),
        (["# newpar", "# text = Won't."], [("1-2", "Won't"), (1, "will"), (2, "not"), (3, ".")]),
        (["# newdoc", "# text = Next"], [(1, "Next")]),
    )
    gold = gold_sentences(path)
    assert [s.spans for s in gold] == [
        [(0, 1), (2, 4), (4, 7), (9, 13), (13, 14)],
        [(0, 2), (2, 3), (4, 8)],
        [(0, 5), (0, 5), (5, 6)],  # "will not" do not spell "Won't": no split can match them
        [(0, 4)],
    ]
    assert [s.words for s in gold][0] == ["I", "do", "n't", "know", "."]
    assert documents(gold) == [("I don't  know. Its fine\n\nWon't.", [14, 23, 31]), ("Next", [4])]


def test_a_sentence_without_its_text_is_refused(tmp_path):
    path = conllu(tmp_path, (["# sent_id = 1"], [(1, "a")]))
    with pytest.raises(PerceptronsError, match=r"gold.conllu:1: the sentence has no '# text"):
        gold_sentences(path)


def test_a_word_missing_from_the_text_is_refused(tmp_path):
    path = conllu(tmp_path, (["# text = a b"], [(1, "a"), (2, "c")]))
    with pytest.raises(PerceptronsError, match=r"gold.conllu:1: 'c' is not in the sentence's text after offset 1"):
        gold_sentences(path)


@pytest.mark.parametrize("ident", ["2-1", "1-1"])
def test_a_backward_range_is_refused(tmp_path, ident):
    path = conllu(tmp_path, (["# text = ab"], [(ident, "ab"), (1, "a"), (2, "b")]))
    # the reader refuses it before a walk over the words could go backwards
    with pytest.raises(PerceptronsError, match=f"gold.conllu:2: multi-word token range '{ident}' does not go from"):
        gold_sentences(path)


def test_span_f1():
    # a span predicted twice counts once
    assert span_f1([(0, 1), (1, 2), (1, 2)], [(0, 1), (1, 2), (2, 3), (3, 4)]) == pytest.approx(
        (2 / 3, 2 / 4, 4 / 7, 3, 4)
    )
    assert span_f1([], [(0, 1)]) == (0.0, 0.0, 0.0, 0, 1)


def test_tagged_span_scores_count_a_word_right_only_with_its_span_and_its_tag():
    from perceptrons.text.scoring import GoldSentence, tagged_span_scores

    gold = [
        GoldSentence(
            "I don't.",
            [(0, 1), (2, 4), (4, 7), (7, 8)],
            ["I", "do", "n't", "."],
            ["PRON", "AUX", "PART", "PUNCT"],
            True,
            False,
        )
    ]
    # a split missed ("don't" whole) and a wrong tag on "I": one of four gold words right
    recall, f1 = tagged_span_scores(gold, [[(0, 1), (2, 7), (7, 8)]], [["NOUN", "AUX", "PUNCT"]])
    assert recall == 0.25 and f1 == 2 * (1 / 3) * 0.25 / (1 / 3 + 0.25)
    assert tagged_span_scores(gold, [[(0, 1), (2, 4), (4, 7), (7, 8)]], [["PRON", "AUX", "PART", "PUNCT"]]) == (
        1.0,
        1.0,
    )
