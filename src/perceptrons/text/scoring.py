"""Words and sentences of raw text against a treebank's gold ones, as F1 over character spans.

A CoNLL-U sentence carries its raw text (``# text = …``) and its words; each word's span in that
text is found by walking the text with the surface forms (a multiword token's surface, "don't",
is shared out among its words "do" and "n't" when their forms spell it, as they do for all but a
handful of EWT's).  A predicted word counts when its span is a gold word's span, the measure of
the CoNLL 2018 shared task (Zeman et al. 2018, "tokens" and "words" F1 over character offsets).

Documents (``# newdoc``) are the sentences' texts joined by a space, paragraphs (``# newpar``)
by a blank line; a sentence boundary counts when a predicted sentence ends where a gold one
does.
"""

from dataclasses import dataclass

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.conllu import iter_conllu


@dataclass
class GoldSentence:
    """One treebank sentence: its raw ``text``, its words' ``spans`` in it, and whether it opens
    a document or a paragraph.
    """

    text: str
    spans: list
    words: list
    tags: list
    newdoc: bool
    newpar: bool


def gold_sentences(path, column="upos"):
    """The sentences of a CoNLL-U file with their raw text and word spans.

    Parameters
    ----------
    path : str or path-like
    column : {"upos", "xpos", "feats"}

    Returns
    -------
    list of GoldSentence

    Raises
    ------
    PerceptronsError
        A sentence without a ``# text`` line, or whose words are not found in it (the message
        names the file and line).
    """
    out = []
    for sentence in iter_conllu(path, column=column, keep_lines=True):
        text, newdoc, newpar, surface = None, False, False, []
        for line in sentence.lines:
            if line.startswith("#"):
                key, _, value = line[1:].partition("=")
                key = key.strip()
                if key == "text":
                    text = value.strip()
                newdoc |= key == "newdoc" or key.startswith("newdoc ")
                newpar |= key == "newpar" or key.startswith("newpar ")
                continue
            surface.append(line.split("\t"))
        where = f"{path}:{sentence.first_line}"
        if text is None:
            raise PerceptronsError(f"{where}: the sentence has no '# text = ...' line")
        spans = _word_spans(text, surface, where)
        out.append(GoldSentence(text, spans, sentence.words, sentence.tags, newdoc, newpar))
    return out


def _word_spans(text, rows, where):
    """Each syntactic word's span in ``text``, from the token rows (ranges and words)."""
    spans = []
    pos = 0
    j = 0
    while j < len(rows):
        ident, form = rows[j][0], rows[j][1]
        if "." in ident:  # an empty node: no text
            j += 1
            continue
        start = text.find(form, pos)
        if start < 0:
            raise PerceptronsError(f"{where}: {form!r} is not in the sentence's text after offset {pos}")
        end = start + len(form)
        if "-" in ident:
            first, last = (int(x) for x in ident.split("-"))
            parts = [r[1] for r in rows[j + 1 : j + 2 + last - first]]
            spans.extend(_shared_out(start, end, form, parts))
            j += 2 + last - first
        else:
            spans.append((start, end))
            j += 1
        pos = end
    return spans


def _shared_out(start, end, surface, parts):
    """The spans of a multiword token's words: consecutive slices of the surface where the
    words spell it (any case), else all of it for each (so none is matched by a split).
    """
    if "".join(parts).lower() == surface.lower():
        out, at = [], start
        for p in parts:
            out.append((at, at + len(p)))
            at += len(p)
        return out
    return [(start, end)] * len(parts)


def span_f1(predicted, gold):
    """``(precision, recall, f1, n_predicted, n_gold)`` of spans matched exactly (as multisets)."""
    from collections import Counter

    hit = sum((Counter(predicted) & Counter(gold)).values())
    p = hit / len(predicted) if predicted else 0.0
    r = hit / len(gold) if gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f, len(predicted), len(gold)


def tagged_span_scores(gold, spans, tags):
    """Raw text tagged end to end against the gold: ``(recall, f1)`` of (span, tag) pairs.

    A gold word counts when a predicted word has its span in the sentence's text and its tag
    (the CoNLL 2018 shared task's UPOS F1 over aligned words, Zeman et al. 2018); recall is
    the share of the gold words that came out right.

    Parameters
    ----------
    gold : list of GoldSentence
    spans : list of list of (int, int)
        Each sentence's predicted words, as spans of its ``text``.
    tags : list of list of str
        Their predicted tags.
    """
    predicted = [(k, a, b, t) for k, (sp, ts) in enumerate(zip(spans, tags)) for (a, b), t in zip(sp, ts)]
    expected = [(k, a, b, t) for k, s in enumerate(gold) for (a, b), t in zip(s.spans, s.tags)]
    _, recall, f1, _, _ = span_f1(predicted, expected)
    return recall, f1


def documents(sentences):
    """The raw text of each document and the end offsets of its gold sentences: a list of
    ``(text, ends)``.
    """
    docs = []
    for s in sentences:
        if s.newdoc or not docs:
            docs.append(([], []))
        parts, ends = docs[-1]
        if parts:
            parts.append("\n\n" if s.newpar else " ")
        parts.append(s.text)
        ends.append(sum(map(len, parts)))
    return [("".join(parts), ends) for parts, ends in docs]
