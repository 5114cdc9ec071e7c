"""JSON as the library writes it, read from untrusted files: no NaN or Infinity, no key given
twice, and a bounded nesting depth, all in time linear in the text.
"""

import json


def strict_loads(text, max_depth):
    """The JSON value of ``text``.

    Parameters
    ----------
    text : str
    max_depth : int
        The deepest nesting of objects and arrays allowed (a top-level object is depth 1).

    Returns
    -------
    object

    Raises
    ------
    ValueError
        One line saying what is wrong: not JSON, a NaN or Infinity constant, a duplicate key,
        or nested deeper than ``max_depth``.
    """

    def no_constant(token):  # NaN, Infinity: not JSON, and never written
        raise ValueError(f"{token} is not a JSON number")

    def unique_keys(pairs):
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            raise ValueError("duplicate key in a JSON object")
        return dict(pairs)

    too_deep = ValueError(f"nested deeper than {max_depth} levels")
    try:
        # the parser recurses once a level, and stops at the interpreter's recursion limit
        value = json.loads(text, parse_constant=no_constant, object_pairs_hook=unique_keys)
    except RecursionError:
        raise too_deep from None
    if _depth(value, max_depth) > max_depth:
        raise too_deep
    return value


def _depth(value, limit):
    """The nesting depth of a parsed JSON value, counted up to ``limit + 1``, without recursion.

    A regular expression that blanked the strings before counting brackets took quadratic time
    on an unterminated string of escaped quotes (400 KB: over two minutes).
    """
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (dict, list)):
            deepest = max(deepest, d)
            if deepest > limit:
                return deepest
            stack.extend((child, d + 1) for child in (v.values() if isinstance(v, dict) else v))
    return deepest
