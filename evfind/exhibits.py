"""The kinds of exhibits a filing attaches (data/exhibits.tsv: Reg S-K Item 601's numbers), read
by ingest (forms.py names each exhibit's kind) and by queries (which exhibits are instruments).
Light on purpose: a query imports it, so nothing is compiled or read at import."""

from functools import lru_cache

from ._data import rows

# Item 601 numbers of the instruments a filing attaches: underwriting agreements (1), plans of
# acquisition (2), the charter and bylaws (3), instruments defining the rights of security
# holders (4: indentures, notes, trust deeds) and material contracts (10: credit agreements).
# Their pages restate terms rather than disclose: the ranking sets them aside unless a
# question is about such an instrument (rank.set_aside).
INSTRUMENT_ITEMS = ("1", "2", "3", "4", "10")


@lru_cache(maxsize=1)
def kinds() -> tuple[tuple[str, str, str], ...]:
    """(Item 601 number or "*", kind, title pattern or "") of every row, in the file's order."""
    return tuple((number, kind, pattern) for number, kind, pattern in rows("exhibits.tsv", 3))


@lru_cache(maxsize=1)
def instrument_labels() -> frozenset[str]:
    """The section labels of exhibits that are instruments (``INSTRUMENT_ITEMS``, and the kinds
    a title names whatever the number it was filed under: the "*" rows)."""
    return frozenset(f"exhibit_{kind}" for number, kind, _ in kinds() if number in INSTRUMENT_ITEMS or number == "*")
