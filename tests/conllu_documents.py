"""Random CoNLL-U documents for the hypothesis tests of the CoNLL-U readers (io/test_conllu_scan.py,
structured/test_corpus.py)."""

from hypothesis import strategies as st

# clean documents (words, multi-word tokens, empty nodes, comments, blank lines), then at most
# two hostile pieces: whitespace of every kind at the edges of columns, non-ASCII and spaced
# tags, empty columns, malformed IDs, a column too few or too many, odd lines, a byte not UTF-8
FORMS = ["a", "café", "日本", "x_y", "_", "'s", "2,000"]
TAGS = ["NOUN", "X", "PUNCT", "_", "-LRB-", "NN$"]
HOSTILE = {
    "form": [" x", "x ", "a b", "\u3000x", "x\u00a0", ""],
    "lemma": [" x", "x ", "x\u2028", "x\x1c", "\u0085x", "\u00a0x", "x\u202f", ""],
    "tag": ["NO UN", "A B", "ñ", "\u00a0X", "X ", " X", "", "X\x7f", "Ω"],
    "id": ["0", "01", "2-1", "1-1", "01-2", "1-02", "00.1", "1.0", "01.1", "1.", ".1", "a", "1-", "-1", "1a", "+1"]
    + ["99999999999999999999", "1-99999999999999999999", "1.99999999999999999999"],
    "line": [" ", "\t", "\u3000", "\x0b", "\x1c", "#", "no tabs here", "1\t2\t3", " # x"],
}


@st.composite
def documents(draw):
    rows = []  # each a list of columns, or a str for a line that is not a token
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            rows.append(draw(st.sampled_from(["# sent_id = x", "# text = a b"])))
        for i in range(1, draw(st.integers(1, 5)) + 1):
            if draw(st.integers(0, 5)) == 0:
                rows.append([f"{i}-{i + 1}", "ab", "_", "_", "_", "_", "_", "_", "_", "_"])
            tags = [draw(st.sampled_from(TAGS)), draw(st.sampled_from(TAGS))]
            rows.append([str(i), draw(st.sampled_from(FORMS)), "lemma", *tags, "_", "0", "dep", "_", "_"])
            if draw(st.integers(0, 5)) == 0:
                rows.append([f"{i}.1", "e", "_", "_", "_", "_", "_", "_", "_", "_"])
        rows.append("")
    tokens = [r for r in rows if isinstance(r, list)]
    for _ in range(draw(st.integers(0, 2))):
        what = draw(st.sampled_from(["form", "lemma", "tag", "id", "line", "columns"]))
        row = draw(st.sampled_from(tokens))
        if what == "line":
            rows.insert(draw(st.integers(0, len(rows))), draw(st.sampled_from(HOSTILE["line"])))
        elif what == "id" and draw(st.booleans()):  # a line with a bad ID among good ones
            bad = [draw(st.sampled_from(HOSTILE["id"])), *row[1:]]
            rows.insert(rows.index(row) + draw(st.integers(0, 1)), bad)
        elif what == "columns":
            row[:] = row[: draw(st.integers(1, 9))] if draw(st.booleans()) else row + ["_"]
        else:
            at = {"form": [1], "lemma": [2, 5, 9], "tag": [3, 4], "id": [0]}[what]
            row[draw(st.sampled_from(at)) % len(row)] = draw(st.sampled_from(HOSTILE[what]))
    text = "\n".join(r if isinstance(r, str) else "\t".join(r) for r in rows)
    text += draw(st.sampled_from(["", "\n", "\n\n"]))
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    data = (("\ufeff" if draw(st.booleans()) else "") + text).encode("utf-8")
    if draw(st.integers(0, 9)) == 0:  # a byte that is not UTF-8
        at = draw(st.integers(0, len(data)))
        data = data[:at] + b"\xff" + data[at:]
    return data
