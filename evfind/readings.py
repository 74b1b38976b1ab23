"""Readings of a question and a page's text that make ranking signals (the decisions they feed
are rank.py's): the MATCH expressions a question runs, which of its terms a page's marked
stretches hold, the pages that define a term, the filer's symbols the question writes, the
words of a title. Pure functions over plain values; the finder gathers with them.
"""

import re
from collections.abc import Mapping

from . import evidence, store
from .present import MARK
from .question import ParsedQuestion, Term
from .text import LazyPattern, normal, tokens

DEFINED = LazyPattern(r"[\"\u201c]([A-Za-z][\w&'\- ]{2,60}?)[\"\u201d]\s*(?:means|shall mean|has the meaning)", re.S)


def expression(parsed: ParsedQuestion, kept: tuple[int, ...]) -> str:
    """The FTS5 MATCH of the question's terms ``kept`` (``lists.lexical_terms``), each a quoted
    phrase, OR-ed."""
    return " OR ".join(parsed.terms[i].fts for i in kept)


def symbols_written(symbols: tuple[str, ...], question: str) -> frozenset[str]:
    """The filer's trading ``symbols`` the question writes, in capitals as symbols are written
    ("How much capex does ATVI expect?"), lower case as the terms hold them. "COST" names
    Costco; "cost" is a word."""
    if not symbols or not any(len(word) > 1 and word.isupper() for word in re.findall(r"[A-Za-z.]+", question)):
        return frozenset()  # no word in capitals: no symbol
    return frozenset(symbol.lower() for symbol in symbols if written_as_symbol(symbol, question))


def defining(terms: list[str], rows: Mapping[int, store.PageRow]) -> frozenset[int]:
    """The pages (``rows``) that define one of these terms of several words ("Applicable Rate"
    means ..., "Consolidated EBITDA" shall mean ...): where an agreement sets out the pricing
    grid or the ratio a question asks about."""
    found = set()
    for page, row in rows.items():
        named = {" ".join(m.group(1).lower().split()) for m in DEFINED.finditer(row.text)}
        if any(term in named for term in terms):
            found.add(page)
    return frozenset(found)


def on_page(parsed: ParsedQuestion, marks: tuple[str, str]) -> tuple[bool, ...]:
    """For each of the question's terms, whether the page holds it: one of the stretches the
    query marked on the page's text and headings (``marks``) holds its words in a row."""
    spans = {evidence.stems(span) for span in MARK.findall("\n".join(marks))}

    def held(term: Term) -> bool:
        wanted = evidence.stems(term.phrase)
        size = len(wanted)
        return any(span[i : i + size] == wanted for span in spans for i in range(len(span) - size + 1))

    return tuple(held(term) for term in parsed.terms)


def marking(match: str, parsed: ParsedQuestion) -> str:
    """The MATCH that marks a page's matches for its evidence: the query's, and each idea's own
    wording of several words as a phrase ("net income"). FTS5 marks the words of a phrase it
    was not asked for one by one, and a line holds an idea only where one stretch says it; the
    ranking's MATCH is left as it is (its bm25 already counts the words)."""
    searched = {term.phrase for term in parsed.terms}
    extra = [Term(idea.label, "pair").fts for idea in parsed.ideas
             if " " in idea.label and idea.label not in searched and not idea.year]
    return " OR ".join([match, *dict.fromkeys(extra)]) if extra else match



def title_words(text: str) -> set[str]:
    from .question import stopwords

    stop = stopwords()
    return {normal(w) for w in tokens(text) if w not in stop}


def written_as_symbol(symbol: str, question: str) -> bool:
    """Does the question write the symbol, each time it writes the word, in capitals ("COST's
    margin", not "COST's cost of sales")?"""
    if symbol not in question:
        return False
    written = re.findall(rf"\b{re.escape(symbol)}\b", question, re.I)
    return bool(written) and all(word == symbol for word in written)


def digits(text: str) -> int:
    """How many of the characters are the digits 0 to 9, counted in one pass over the UTF-8
    (no other character's encoding holds those bytes): ten ``str.count`` cost 4 times more.

    >>> digits("Net sales $ 1,234 in 2025; 三")
    8
    """
    encoded = text.encode("utf-8", "surrogatepass")
    return len(encoded) - len(encoded.translate(None, b"0123456789"))


def explaining(lines) -> frozenset[int]:
    """The lines (by index) that state a change and its cause: a change word and a causal
    connective on one line ("Cost of sales increased $2.1 billion, primarily due to ..."), where
    MD&A answers a question about the reasons of a change (Reg S-K Item 303(b)(2)(ii)).

    >>> sorted(explaining(["Gross margin decreased to 17% due to lower prices.", "Gross margin 17 %",
    ...                    "Revenue increased 5%.", "Costs are due to suppliers."]))
    [0]
    """
    return frozenset(i for i, line in enumerate(lines) if evidence.explains(line))
