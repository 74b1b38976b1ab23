"""Codes found inside longer codes: a question's "777F" on pages that write "B777F".

FTS5's tokenizer keeps a run of letters and digits as one token: "B777F" is the token b777f, and
a question's 777f never matches it. A question's word that holds a digit (a model or a series:
777f, a350, fy2024; not a year alone) is looked up in the filing's own vocabulary (fts5vocab, at query time:
nothing is added to the database) for the tokens that hold it whole between a letter and a digit
("b777f"; not "777fs", whose s continues the letters), and each phrase of the question holding it
is searched with those tokens too. They are the question's own words, written as the filing
writes them: the page image boxes them and the evidence lines mark them as it.

Pure: the vocabulary is given (store.terms_containing reads it).
"""

from __future__ import annotations

from collections.abc import Iterable

from .text import LazyPattern

MIN_LENGTH = 3  # shorter fragments ("10", "q4") sit inside too many tokens to tell anything
MAX_VARIANTS = 4  # tokens of the filing taken for one fragment (the most frequent first)
_WORD = LazyPattern(r"[a-z0-9]+")
_YEAR = LazyPattern(r"(?:19|20)\d\d")


def fragments(phrases: Iterable[str]) -> list[str]:
    """The words of the phrases that may sit inside a longer code: a digit and at least
    MIN_LENGTH characters, in order, each once. A year alone (2023) is not one: most questions
    name one, and filings write it as a word of its own ("fiscal 2023"), so looking it up would
    cost every such question a scan of the vocabulary for little."""
    found: dict[str, None] = {}
    for phrase in phrases:
        for word in _WORD.findall(phrase):
            if _YEAR.fullmatch(word):
                continue
            if len(word) >= MIN_LENGTH and not word.isalpha():  # (letters and digits only: one holds a digit)
                found[word] = None
    return list(found)


def _kind(ch: str) -> str:
    return "digit" if ch.isdigit() else "letter"


def holds(token: str, fragment: str) -> bool:
    """Does the token hold the fragment whole, as a code holds a code: at its start or its end,
    where the token's next character is of the other kind (a letter beside a digit)? "b777f"
    holds 777f; "a350xwb" holds a350; "7770" does not hold 777."""
    if token == fragment or fragment not in token:
        return False
    if token.startswith(fragment) and _kind(token[len(fragment)]) != _kind(fragment[-1]):
        return True
    if token.endswith(fragment) and _kind(token[-len(fragment) - 1]) != _kind(fragment[0]):
        return True
    return False


def variants(fragment: str, vocabulary: Iterable[tuple[str, int]]) -> list[str]:
    """The filing's tokens that hold the fragment (``holds``), the most pages first, at most
    MAX_VARIANTS; ``vocabulary`` is (token, pages) rows."""
    held = [(pages, token) for token, pages in vocabulary if holds(token, fragment)]
    return [token for _, token in sorted(held, key=lambda row: (-row[0], row[1]))[:MAX_VARIANTS]]


def rewritten(phrase: str, found: dict[str, list[str]]) -> list[str]:
    """The phrase with each fragment it holds written as each of its variants (one at a time)."""
    words = phrase.split()
    out = []
    for index, word in enumerate(words):
        for token in found.get(word, ()):
            out.append(" ".join(words[:index] + [token] + words[index + 1 :]))
    return out


def with_codes(parsed, vocabulary_of):
    """The question (a ``question.ParsedQuestion``) with its codes also as the filing writes them
    inside longer codes (777F as B777F), each a phrase of the question's own and of its idea;
    ``vocabulary_of(fragments)`` gives the filing's (token, pages) rows holding them
    (store.terms_containing)."""
    from .question import Term

    wanted = fragments(term.phrase for term in parsed.terms)
    if not wanted:
        return parsed
    vocabulary = vocabulary_of(wanted)
    found = {f: v for f in wanted if (v := variants(f, vocabulary))}
    if not found:
        return parsed
    extra = [Term(p, t.source) for t in parsed.terms for p in rewritten(t.phrase, found)]
    ideas = tuple(
        idea._replace(phrases=idea.phrases + tuple(p for phrase in idea.phrases for p in rewritten(phrase, found)))
        for idea in parsed.ideas
    )
    return parsed._replace(terms=parsed.terms + tuple(dict.fromkeys(extra)), ideas=ideas)
