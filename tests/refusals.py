"""The verdict the argument tables share (core/test_api_params.py, distributed/test_distributed.py): a bad value
must be refused in one line of :class:`PerceptronsError` that names the argument."""

from perceptrons._core.errors import PerceptronsError


def refusal_failure(call, name, value):
    """None when ``call(value)`` raises one line of PerceptronsError naming ``name``; else what
    happened instead (another exception, several lines, or the value accepted)."""
    try:
        call(value)
    except PerceptronsError as e:
        if name not in str(e) or "\n" in str(e):
            return f"{name}={value!r}: {e}"
        return None
    except Exception as e:  # noqa: BLE001 - what escapes unchecked is the finding
        return f"{name}={value!r}: {type(e).__name__}: {e}"
    return f"{name}={value!r}: accepted"
