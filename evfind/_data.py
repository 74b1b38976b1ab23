"""Plain data files shipped in evfind/data/ (read from the package directory: no zipimport)."""

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"

# The vocabulary files whose every row ends with a `source` column: the standard the row comes
# from (a form's Item, a Reg S-K / S-X rule, an ASC topic, a statement caption, a non-GAAP
# measure, a capital-markets term). Readers get the other columns; the source is checked here.
SOURCED = frozenset({"sections.tsv", "routes.tsv", "lexicon.tsv", "glossary_zh.tsv"})


def rows(name: str, columns: int | None = None, *, source: bool = False) -> list[list[str]]:
    """The tab-separated rows of a data file, without blank lines and # comments.

    A file of ``SOURCED`` must have ``columns`` fields and a last, non-empty ``source`` field
    on every row; the rows come back without it (with it as the last field if ``source``)."""
    sourced = name in SOURCED
    if sourced and columns is None:
        raise RuntimeError(f"evfind/data/{name}: read it with its number of columns")
    result = []
    for number, line in enumerate((DATA / name).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.rstrip("\n").split("\t")
        expected = columns + 1 if sourced and columns is not None else columns
        if expected is not None and len(fields) != expected:
            what = f"{columns} tab-separated fields and a source" if sourced else f"{columns} tab-separated fields"
            raise RuntimeError(f"evfind/data/{name}:{number}: expected {what}")
        if sourced:
            if not fields[-1].strip():
                raise RuntimeError(f"evfind/data/{name}:{number}: the source (last field) is empty")
            if not source:
                fields = fields[:-1]
        result.append(fields)
    return result
