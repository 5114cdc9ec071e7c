"""pyarrow columns that hold numbers in a type of their own: decimals, dates and times.

A Parquet file written by pandas, Spark or a database keeps money as ``decimal128`` and days as
``date32`` or ``timestamp``, and pyarrow's CSV reader infers ``date32`` or ``timestamp`` for a
column of ISO dates.  Each is read as a column of float64, as the text readers read the same
cells (:mod:`perceptrons.io.cells`): a decimal as its value, a date or a time as days since
1970-01-01 UTC (a time zone's offset applied; a time without one taken as UTC).
"""

#: the units of a timestamp or a date64, a day in each
_PER_DAY = {"s": 86_400, "ms": 86_400_000, "us": 86_400_000_000, "ns": 86_400_000_000_000}
#: how a summary names what a column of each type was read as
DATES_READ_AS = "dates read as days since 1970-01-01"
BOOLEANS_READ_AS = "true and false read as 1 and 0"
TIMES_READ_AS = "times of day read as a fraction of a day"
DURATIONS_READ_AS = "durations read as days"


def is_number(arrow_type):
    """Whether a column of ``arrow_type`` holds numbers as they are: integers, floats, booleans."""
    import pyarrow.types as pt

    return pt.is_integer(arrow_type) or pt.is_floating(arrow_type) or pt.is_boolean(arrow_type)


def is_index_list(arrow_type):
    """Whether a column of ``arrow_type`` holds lists of integers (feature indices): a list or a
    large list (64-bit offsets, as polars writes lists).
    """
    import pyarrow.types as pt

    return (pt.is_list(arrow_type) or pt.is_large_list(arrow_type)) and pt.is_integer(arrow_type.value_type)


def is_number_like(arrow_type):
    """Whether a column of ``arrow_type`` holds numbers in another type: a decimal, a date, a
    timestamp, a time of day, a duration, or no value at all (a column of nulls: numbers, every
    one missing).
    """
    import pyarrow.types as pt

    return (
        pt.is_decimal(arrow_type)
        or pt.is_date(arrow_type)
        or pt.is_timestamp(arrow_type)
        or pt.is_time(arrow_type)
        or pt.is_duration(arrow_type)
        or pt.is_null(arrow_type)
    )


def is_text(arrow_type):
    """Whether a column of ``arrow_type`` holds text: strings, large strings, or either dictionary-encoded."""
    import pyarrow.types as pt

    if pt.is_dictionary(arrow_type):
        arrow_type = arrow_type.value_type
    return pt.is_string(arrow_type) or pt.is_large_string(arrow_type)


def read_as(arrow_type):
    """What a summary says a column of ``arrow_type`` was read as (dates as days, booleans as 1
    and 0), or None for numbers and text as they are.
    """
    import pyarrow.types as pt

    if is_date(arrow_type):
        return DATES_READ_AS
    if pt.is_time(arrow_type):
        return TIMES_READ_AS
    if pt.is_duration(arrow_type):
        return DURATIONS_READ_AS
    return BOOLEANS_READ_AS if pt.is_boolean(arrow_type) else None


def is_date(arrow_type):
    """Whether a column of ``arrow_type`` is read as days: a date or a timestamp."""
    import pyarrow.types as pt

    return pt.is_date(arrow_type) or pt.is_timestamp(arrow_type)


def as_float64(column):
    """A number-like column (:func:`is_number_like`) as float64, its nulls kept; another column as it is.

    Parameters
    ----------
    column : pyarrow.Array or pyarrow.ChunkedArray

    Returns
    -------
    pyarrow.Array or pyarrow.ChunkedArray
    """
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.types as pt

    kind = column.type
    if pt.is_null(kind):
        return pc.cast(column, pa.float64())
    if pt.is_integer(kind):  # to the nearest float64, as its text reads: an int64 past 2**53 too (nanoseconds)
        return pc.cast(column, pa.float64(), safe=False)
    if pt.is_decimal(kind):
        return pc.cast(column, pa.float64(), safe=False)  # to the nearest float64, as its text reads
    if pt.is_date32(kind):  # days already
        return pc.cast(pc.cast(column, pa.int32()), pa.float64())
    if pt.is_date64(kind):
        per_day = _PER_DAY["ms"]
    elif pt.is_timestamp(kind) or pt.is_duration(kind):  # UTC when it has a zone, the wall clock when not
        per_day = _PER_DAY[kind.unit]
    elif pt.is_time(kind):  # since midnight: a fraction of a day
        per_day = _PER_DAY[kind.unit]
        column = pc.cast(column, pa.int32() if pt.is_time32(kind) else pa.int64())
    else:
        return column
    # unchecked: nanoseconds since 1970 are beyond 2**53, where a float64 rounds them
    return pc.divide(pc.cast(pc.cast(column, pa.int64()), pa.float64(), safe=False), float(per_day))


def label_texts(column):
    """A label column's cells as the texts both Parquet readers type them from: pyarrow's own
    spelling (``true``, ``1``, ``2020-01-01 00:00:00.000000``), a null as None, so that a model
    trained in memory and one trained streamed name their classes alike.

    Parameters
    ----------
    column : pyarrow.Array or pyarrow.ChunkedArray
        Of numbers, number-like values (:func:`is_number_like`) or text, dictionary-encoded or not.

    Returns
    -------
    pyarrow.Array or pyarrow.ChunkedArray of string
    """
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.types as pt

    if pt.is_dictionary(column.type):
        column = pc.cast(column, column.type.value_type)
    return column if pt.is_string(column.type) else pc.cast(column, pa.string())
