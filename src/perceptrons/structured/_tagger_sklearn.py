"""scikit-learn's protocol for the :class:`~perceptrons.structured.tagging.Tagger`: its tags and
``score``, so that ``cross_val_score``, ``GridSearchCV`` and the HTML repr take a tagger (they
read an estimator's tags, and score it with ``score(X, y)`` when given no scoring)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from perceptrons.structured.nltk_api import _token_accuracy

if TYPE_CHECKING:
    from collections.abc import Sequence


class SklearnTaggerMixin:
    """``score`` and ``__sklearn_tags__`` of the fitted tagger."""

    def score(self, sentences: Sequence[Sequence[str]], tags: Sequence[Sequence[str]] | None = None) -> float:
        """Token accuracy, scikit-learn's ``score(X, y)``: what ``GridSearchCV`` and
        ``cross_val_score`` use when given no scoring.

        Parameters
        ----------
        sentences : list of list of str, or list of list of (str, str)
            Words; or, with ``tags=None``, tagged sentences, as :meth:`accuracy` takes them.
        tags : list of list of str, default=None
            One gold tag per word.

        Returns
        -------
        float
            In [0, 1].
        """
        if tags is None:
            return self.accuracy(sentences)
        from perceptrons.structured._tagger_predict import check_corpus

        check_corpus(sentences, tags)
        return _token_accuracy(tags, self.predict(sentences))

    def __sklearn_tags__(self):
        """scikit-learn's tags, for its model selection and display tools: a tagger takes lists of
        word strings, not a 2-D array, and is no classifier of rows (so ``cross_val_score``
        splits its sentences with ``KFold``, not by their tags).
        """
        from sklearn.utils import InputTags, Tags, TargetTags

        return Tags(
            estimator_type=None,
            target_tags=TargetTags(required=False),  # tagged sentences carry their tags
            input_tags=InputTags(two_d_array=False, string=True),
        )
