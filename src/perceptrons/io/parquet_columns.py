"""Which columns of a Parquet file hold data.

pandas' ``DataFrame.to_parquet`` writes an index that is not a plain range as columns named
``__index_level_0__`` after the data, so the last column, the label by default, was the index.
R's data frames written through a CSV keep their row names as a first column without a name.
Neither is data: both readers, in memory and streamed, leave them out.
"""

from perceptrons.io.delimited import PANDAS_INDEX, leading_row_names, unnamed


def parquet_columns(pf, label=None):
    """The columns of a Parquet file (a ``pyarrow.parquet.ParquetFile``) that hold data, as the
    in-memory reader takes them: not pandas' index (:data:`~perceptrons.io.delimited.PANDAS_INDEX`),
    nor row names in front (:func:`~perceptrons.io.delimited.leading_row_names`, as the first row
    group shows them); ``label`` (None: the last column) is never row names.
    """
    import pyarrow.compute as pc

    names = [n for n in pf.schema_arrow.names if not PANDAS_INDEX.fullmatch(n)]
    if not names or pf.metadata.num_row_groups == 0:
        return names
    col = names.index(label) if label in names else len(names) - 1
    lead = [n for n in names[:col] if unnamed(n)]
    if not lead or names.count(names[0]) > 1:
        return names
    first = pf.read_row_group(0, columns=lead)

    def distinct(j):
        column = first.column(j)
        return first.num_rows > 1 and column.null_count == 0 and pc.count_distinct(column).as_py() == first.num_rows

    return names[leading_row_names(names, lambda j: j < len(lead) and distinct(j), col) :]


def parquet_categories(pf, label=None, text=None, drop=()):
    """The feature columns of a Parquet file (a ``pyarrow.parquet.ParquetFile``) that the
    streamed reader hashes as words: its columns of text, but the label, the raw ``text``
    column and those dropped.  A streamed model keeps them, as it keeps a CSV's
    (:func:`~perceptrons.io.arrow.delimited_categories`).
    """
    from perceptrons.io.arrow_numbers import is_text

    names = parquet_columns(pf, label)
    last = names[-1] if names else None
    label = label if label in names else last
    schema = pf.schema_arrow
    return [n for n in names if n != label and n != text and n not in drop and is_text(schema.field(n).type)]
