"""The label table: raw labels (numbers or strings) to int32 codes and back."""

import numpy as np

from perceptrons._core.errors import PerceptronsError
from perceptrons.io.cache._format import _INT32_MAX, _INT64, _finite

_PLURAL = {"number": "numbers", "str": "strings"}


class _LabelTable:
    """Raw labels -> int32 codes, in first-seen order; one dict lookup per distinct label of a
    block, never one per row.
    """

    def __init__(self):
        self.codes = {}
        self.kind = None  # "number" or "str", fixed by the first labelled block

    def encode(self, y):
        kind, y = _label_kind(y)
        if self.kind is None:
            self.kind = kind
        elif kind != self.kind:
            raise PerceptronsError(
                f"epoch cache: labels are {_PLURAL[self.kind]} in earlier blocks and {_PLURAL[kind]} here; "
                "one kind per source"
            )
        uniques, first, inverse = np.unique(y, return_index=True, return_inverse=True)
        # codes in the order the labels first appear, as the source reads
        order = np.argsort(first, kind="stable")
        code_of_unique = np.empty(uniques.shape[0], dtype="<i4")
        codes = self.codes
        for pos, label in zip(order.tolist(), uniques[order].tolist()):
            code_of_unique[pos] = codes.setdefault(label, len(codes))
        if len(codes) > _INT32_MAX:
            raise PerceptronsError(f"epoch cache: more than {_INT32_MAX} distinct labels")
        return code_of_unique[inverse.reshape(-1)]

    def footer(self):
        return {"kind": self.kind or "number", "values": list(self.codes)}


def _label_kind(y):
    """("number" | "str", y as an array np.unique and dict keys handle exactly)."""
    if y.dtype.kind == "O":
        kinds = set(map(type, y.tolist()))
        if not kinds <= {str}:
            raise PerceptronsError(
                f"epoch cache: labels must be numbers or strings; got {sorted(k.__name__ for k in kinds)}"
            )
        y = y.astype(str)
    if y.dtype.kind == "U":
        return "str", y
    if y.dtype.kind in "iu":
        if y.size and y.dtype.kind == "u" and int(y.max()) > _INT64[1]:
            raise PerceptronsError("epoch cache: integer labels beyond the int64 range")
        return "number", y
    if y.dtype.kind == "f":
        if not _finite(y):
            raise PerceptronsError("epoch cache: a label is NaN or infinite; every row needs a finite label")
        return "number", y.astype(np.float64, copy=False)
    raise PerceptronsError(f"epoch cache: labels must be numbers or strings; got an array of {y.dtype}")


def _label_array(kind, values):
    """The label table as numpy: str; int64 when every number is whole and fits; else float64."""
    if kind == "str":
        return np.array(values, dtype=str)
    whole = all(_INT64[0] <= v <= _INT64[1] and (type(v) is int or v.is_integer()) for v in values)
    if whole:
        return np.array([int(v) for v in values], dtype=np.int64)
    return np.array(values, dtype=np.float64)
