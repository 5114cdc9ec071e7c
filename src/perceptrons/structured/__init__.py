"""Structured prediction: Collins' perceptron for sequences, its decoders, and a POS tagger.

* :class:`~perceptrons.structured.sequence.SequencePerceptron` — numeric API (X, y, lengths);
* :mod:`~perceptrons.structured.decoders` — the decoder registry (``"viterbi"``, ``"greedy"``);
* :class:`~perceptrons.structured.tagging.Tagger` — words in, tags out;
* :mod:`~perceptrons.structured.features` — tagging feature templates mapped to integers;
* :mod:`~perceptrons.structured.corpus` — a tagged corpus with its words numbered.
"""
