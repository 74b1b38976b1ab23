"""JSONL, as evfind reads it from users: one object a line, blank lines skipped, lines of at
most limits.MAX_JSONL_LINE_CHARS, and a clear one-line error naming the file and line of
anything else."""

from __future__ import annotations

import json
from collections.abc import Iterator

from . import limits
from .errors import SourceError


def objects(text: str, name: str, shape: str, note: str = "") -> Iterator[tuple[str, int, dict]]:
    """(where, line number, object) for every non-blank line: ``where`` is "name:line", for the
    caller's own messages; ``shape`` shows what an object should look like, ``note`` is added
    to the message of a line that is not JSON."""
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{name}:{number}"
        limits.check_jsonl_line(line, where)
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SourceError(f"{where}: not valid JSON ({exc.msg}){note}") from None
        if not isinstance(record, dict):
            raise SourceError(f"{where}: expected an object {shape}")
        if "\\u" in line and (bad := _unpaired(record)) is not None:
            raise SourceError(
                f"{where}: not valid Unicode (an unpaired surrogate \\u{ord(bad):04x} in a string): "
                "escape a character beyond U+FFFF as its pair, or write it as it is"
            )
        yield where, number, record


def _unpaired(value) -> str | None:
    """The first unpaired surrogate in the strings of a JSON value (json.loads reads "\\ud800"
    into one, which no UTF-8 writer can write), or None."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            return value[exc.start]
        return None
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for item in items:
        if (found := _unpaired(item)) is not None:
            return found
    return None
