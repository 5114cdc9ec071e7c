"""The columns of a streamed CSV whose cells are numbers as spreadsheets write them.

pyarrow reads ``$1,234.50``, ``45%``, ``(1,150.22)`` or ``58 kg`` as text.  The in-memory reader
reads them as numbers (:mod:`perceptrons.io.cells`), and the streamed one must read a file as it
does: the first run of lines decides which text columns are such numbers, by the in-memory
reader's own rules (:func:`perceptrons.io.table.read_column`), and every run's cells of those
columns are then read by the same rules.
"""

import itertools

import numpy as np

from perceptrons._core.errors import PerceptronsError

#: the cells of a text column looked at first, to tell text from numbers written as spreadsheets write them
SAMPLE = 200


class WrittenNumbers:
    """The text columns of a CSV's first run that hold numbers, and how to read them.

    Parameters
    ----------
    positions : tuple of int
        The columns, by position in the run's table.
    decimal_comma, points_group : bool
        As :func:`perceptrons.io.cells.formatted_number` takes them.
    read_as : dict of str to str, optional
        How each column's first run was written, by name (``"numbers written with currency
        signs, e.g. '$3.50'"``), as the in-memory reader's summary says it.
    """

    def __init__(self, positions, decimal_comma, points_group, read_as=None):
        self.read_as = dict(read_as or {})
        self.positions = tuple(positions)
        self.decimal_comma = decimal_comma
        self.points_group = points_group

    @classmethod
    def found(cls, path, names, table, reading, decimal_comma, comma_point, categories=None):
        """The columns of the first run ``table`` whose cells are numbers as spreadsheets write them.

        Parameters
        ----------
        path : str
        names : list of str
            The header's names.
        table : pyarrow.Table
            The first run, parsed with pyarrow's inference.
        reading : tuple
            (the label's position, the text column's name, ``hash_bits``, the lines of its
            rows, :class:`~perceptrons.io.csv_runs.RunLines`).
        decimal_comma : bool
            The file is separated by ``;``.
        comma_point : bool
            pyarrow reads the file's decimal commas, so a point there groups thousands.
        categories : list of str, optional
            A model's columns of words (left as text); every other column must then be numbers,
            and a word in one is refused as the in-memory reader refuses it for a model.

        Returns
        -------
        WrittenNumbers

        Raises
        ------
        PerceptronsError
            A word among a column's numbers (under 5 % of its cells), refused as the in-memory
            reader refuses it, unless ``hash_bits`` asks for text categories.  A column whose
            first :data:`SAMPLE` cells are text is text, without reading the rest cell by cell.
        """
        import pyarrow.types as pt

        from perceptrons.io.cells import writes_decimal_comma
        from perceptrons.io.table import read_column

        col, text, hash_bits, places = reading
        texts = {}
        for j, field in enumerate(table.schema):
            if j == col or field.name == text or names.count(field.name) != 1 or not pt.is_string(field.type):
                continue
            cells = ["" if v is None else v for v in table.column(j).to_pylist()]
            if any(cells):
                texts[j] = cells
        points = decimal_comma and (comma_point or any(map(writes_decimal_comma, itertools.chain(*texts.values()))))
        found, read_as = [], {}
        for j, cells in texts.items():
            if categories is not None and names[j] in categories:
                continue
            want = None if categories is None else "number"  # a model's column of numbers
            sample = [c for c in cells[: 4 * SAMPLE] if c][:SAMPLE]
            try:
                seen = read_column(path, names[j], sample, places, want, decimal_comma, points)[1]
            except PerceptronsError:  # a typo: the whole column's reading names its line
                seen = None
            if seen == "text":
                continue  # a column of reviews costs no more than this look
            try:
                _, kind, _, _, how = read_column(path, names[j], cells, places, want, decimal_comma, points)
            except PerceptronsError:
                if hash_bits is None or want is not None:
                    raise
                continue
            if kind == "number":
                found.append(j)
                if how:
                    read_as[names[j]] = how
        return cls(found, decimal_comma, points, read_as)

    def read(self, path, table, places):
        """``table`` (a run, whose rows' lines are ``places``) with these columns as float64,
        a missing cell null; a word in them is refused with its line and column.
        """
        import pyarrow as pa

        from perceptrons.io.table import read_column

        for j in self.positions:
            name = table.schema.field(j).name
            cells = ["" if v is None else v for v in table.column(j).to_pylist()]
            values = read_column(
                path,
                name,
                cells,
                places,
                "number",
                self.decimal_comma,
                self.points_group,
                "the column's first rows are numbers",
            )[0]
            table = table.set_column(j, name, pa.array(values, mask=np.isnan(values)))
        return table
