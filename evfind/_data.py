"""Plain data files shipped in evfind/data/ (read from the package directory: no zipimport)."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


def rows(name: str, columns: int | None = None) -> list[list[str]]:
    """The tab-separated rows of a data file, without blank lines and # comments."""
    result = []
    for number, line in enumerate((DATA / name).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.rstrip("\n").split("\t")
        if columns is not None and len(fields) != columns:
            raise RuntimeError(f"evfind/data/{name}:{number}: expected {columns} tab-separated fields")
        result.append(fields)
    return result
