"""Tagging scores: token and sentence accuracy, known vs unknown words, per-tag P/R/F1."""

import numpy as np

from perceptrons._core.errors import PerceptronsError


def tagging_report(gold, predicted, known=None):
    """Scores of predicted tag sequences against gold ones.

    Parameters
    ----------
    gold, predicted : list of list of str
        One tag per word, sentence by sentence.
    known : ndarray of shape (n_tokens,) of bool, default=None
        Whether each word was seen in training (enables the known / unknown split).

    Returns
    -------
    dict
        ``tokens``, ``sentences``, ``token_accuracy``, ``sentence_accuracy``, and when ``known`` is
        given ``known_accuracy``, ``unknown_accuracy``, ``n_unknown``; ``per_tag``: a list of
        ``(tag, precision, recall, f1, support)`` sorted by tag (0 where undefined).

    Examples
    --------
    >>> r = tagging_report([["D", "N"], ["V"]], [["D", "V"], ["V"]])
    >>> r["token_accuracy"], r["sentence_accuracy"]
    (0.6666666666666666, 0.5)
    """
    if len(gold) != len(predicted) or any(len(g) != len(p) for g, p in zip(gold, predicted)):
        raise PerceptronsError("gold and predicted tags must have the same sentences and lengths")
    g = np.array([t for s in gold for t in s], dtype=str)
    p = np.array([t for s in predicted for t in s], dtype=str)
    if g.size == 0:
        raise PerceptronsError("no tokens to evaluate")
    right = g == p
    report = {
        "tokens": int(g.size),
        "sentences": len(gold),
        "token_accuracy": float(right.mean()),
        "sentence_accuracy": float(np.mean([list(a) == list(b) for a, b in zip(gold, predicted)])),
    }
    if known is not None:
        known = np.asarray(known, dtype=bool)
        report["n_unknown"] = int((~known).sum())
        report["known_accuracy"] = float(right[known].mean()) if known.any() else float("nan")
        report["unknown_accuracy"] = float(right[~known].mean()) if (~known).any() else float("nan")
    rows = []
    for tag in np.union1d(g, p):
        tp = int(np.sum(right & (g == tag)))
        n_pred, n_gold = int(np.sum(p == tag)), int(np.sum(g == tag))
        prec = tp / n_pred if n_pred else 0.0
        rec = tp / n_gold if n_gold else 0.0
        f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
        rows.append((str(tag), prec, rec, f1, n_gold))
    report["per_tag"] = rows
    return report
