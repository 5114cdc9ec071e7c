"""A value given another numba type, with the same bits: the function behind
:func:`perceptrons._jit.index.unsigned` and :func:`perceptrons._jit.view.read_only`.

Such a cast is typed and lowered directly (``type_callable`` / ``lower_builtin``), not as an
``@overload``: a sparse loop calls ``unsigned`` a dozen times a row, and each overload call site
cost numba a resolution, which made the CSR loops compile 1.8x as long.
"""

from numba.core.extending import lower_builtin, type_callable
from numba.core.imputils import impl_ret_borrowed


def retyping(name, accepts, new_type, doc):
    """A function that returns its argument, typed ``new_type(arg_type)`` in compiled code.

    Parameters
    ----------
    name : str
        The function's name.
    accepts : numba type class
        The argument types it takes (``types.Integer``, ``types.Array``); others do not type.
    new_type : callable
        The argument's numba type → the result's, whose data model must be the argument's.
    doc : str
        The docstring of the function made.

    Returns
    -------
    callable
        The identity in Python (without the JIT), the cast in compiled code.
    """

    def cast(x):
        return x

    cast.__name__ = cast.__qualname__ = name
    cast.__doc__ = doc

    @type_callable(cast)
    def _type(context):  # pragma: no cover - compile-time only; the JIT runs it
        def typer(x):
            return new_type(x) if isinstance(x, accepts) else None

        return typer

    @lower_builtin(cast, accepts)
    def _lower(context, builder, sig, args):  # pragma: no cover - compile-time only
        # the same value in the same representation: only its type differs
        return impl_ret_borrowed(context, builder, sig.return_type, args[0])

    return cast
