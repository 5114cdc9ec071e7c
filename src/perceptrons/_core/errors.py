"""The library's one error type, and how a value is shown in a one-line message."""


class PerceptronsError(ValueError):
    """Bad input or a bad parameter. The message is one line, fit to show a user as is."""


class PerceptronsTypeError(PerceptronsError, TypeError):
    """Input of the wrong kind, such as a str where a list of words is expected, or a parameter
    that none of its allowed values or types accepts.

    A ``TypeError`` as NLTK raises for the first (``nltk.pos_tag("a string")``) and scikit-learn
    for the second (its ``InvalidParameterError`` is both), and still a
    :class:`PerceptronsError`, so code catching either works.
    """


def shown(value, limit=80):
    """``repr(value)`` on one line, cut to ``limit`` characters: an array's repr spans lines,
    and a refusal is one line."""
    text = " ".join(repr(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
