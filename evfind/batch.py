"""Many questions of one filing in one process: `evfind query DB --questions FILE`.

    from evfind import Finder
    from evfind.batch import answer_all, read_questions
    with Finder("3M_2018_10K.db") as finder:
        for line in answer_all(finder, read_questions("questions.jsonl"), top=5):
            print(line)                       # the --format json object (+ "id"), as a dict

The file holds one question a line: plain text, or JSON objects with a "question" field and an
optional "id" (the first line that is not blank decides which: a line starting with "{" makes
the whole file JSONL). The whole file is read and checked before the first question is asked,
so a malformed line stops the run with its line number and nothing is printed. A question with
no content words, or one that nothing matches, still gets its line: empty results and the
message, so a pipeline keeps one output line per question; so does every question asked of a
store with no pages loaded.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from . import limits
from .errors import InputError, SourceError
from .rank import TOP_DEFAULT


@dataclass(frozen=True)
class Question:
    """One line of a questions file."""

    text: str
    id: str | int | None = None
    line: int = 0


def read_questions(source: str | os.PathLike, stream=None) -> list[Question]:
    """Every question of a file (``-`` reads ``stream``, by default standard input)."""
    if str(source) == "-":
        text = (stream or sys.stdin).read()
        name = "<stdin>"
    else:
        path = Path(source)
        if not path.exists():
            raise InputError(f"{path}: no such file")
        if path.is_dir():
            raise InputError(f"{path}: is a directory, not a file")
        try:
            text = path.read_text(encoding="utf-8-sig")
        except PermissionError:
            raise InputError(f"{path}: permission denied") from None
        except UnicodeDecodeError as exc:
            raise SourceError(f"{path}: not UTF-8 text (byte {exc.start})") from None
        name = str(path)
    return parse_questions(text, name)


def parse_questions(text: str, name: str = "<questions>") -> list[Question]:
    """The questions of a file's text: plain lines, or JSONL when the first line is an object."""
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=1)]
    lines = [(number, line) for number, line in lines if line]
    if not lines:
        raise SourceError(f"{name}: holds no questions (one question a line, or JSONL)")
    limits.check_question_count(len(lines), name)
    if not lines[0][1].startswith("{"):
        for number, line in lines:
            limits.check_question(line, f"{name}:{number}")
        return [Question(line, None, number) for number, line in lines]
    from ._jsonl import objects

    questions = []
    shape = '{"question": "...", "id": ...}'
    for where, number, record in objects(text, name, shape, "; the file is JSONL, as its first line is"):
        question = record.get("question")
        if not isinstance(question, str):
            raise SourceError(f'{where}: "question" must be a string')
        limits.check_question(question, where)
        ident = record.get("id")
        if ident is not None and (isinstance(ident, bool) or not isinstance(ident, (str, int))):
            raise SourceError(f'{where}: "id" must be a string or an integer')
        questions.append(Question(question, ident, number))
    return questions


def answer_all(
    finder, questions: Iterable[Question], top: int = TOP_DEFAULT, lang: str | None = None
) -> Iterator[dict]:
    """The --format json object of each question, in order, with its "id" when it has one.

    A question without content words, or any question of a store with no pages loaded, gets
    empty results and the reason as its message (``Finder.answer``; in ``lang``, by default the
    question's language); the errors that concern the request (a bad ``top`` or ``lang``) are
    raised."""
    for question in questions:
        data = finder.answer(question.text, top=top, lang=lang).to_dict()
        if question.id is not None:
            data = {"id": question.id, **data}
        yield data
