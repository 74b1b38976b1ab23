"""Text folding: every way evfind folds text before it stores or compares it, in one place.

Each reader folds text for its own purpose, and the folds differ on purpose:

- **index text** (``normalise``): what ingest stores and FTS5 indexes. It keeps the page as a
  reader sees it (case, punctuation, line breaks) and only makes the characters plain.
- **match keys** (``tokens``, ``normal``, ``words_on``, ``derivations``): how a question's words
  are compared with the vocabulary (lexicon, routes, meta words) and with the words common to a
  filing's pages (``common_words``): lower-case word tokens, then a light singular form, and for
  a few verbs the noun a filing writes (deliver: deliveries), which the index's stemmer keeps apart.
- **heading keys** (``words_key``, ``squash``): how a line of a page is compared with the heading
  patterns of structure.py: letters only, so that numbers, punctuation and a word split by the
  PDF ("Balance Shee t") do not hide a heading.
- **Chinese key** (``chinese_key``): how a Chinese question is compared with the glossary:
  full-width forms made plain, traditional characters simplified. ``is_chinese`` tells a
  Chinese question (one with Han characters) from an English one, and ``language`` the
  language of its answer.
- **note key** (``stems``): how a matched span of a page is tied back to the Chinese term of the
  question it came from, in a Chinese note: a rougher stem than ``normal``, since the span is
  written as the filing writes it ("restructuring" for the question's "restructure").

Pure functions over strings. No data file is read at import: the one this module needs (the
traditional to simplified table) is read on first use.
"""

import _sre
import _thread
import re
from functools import lru_cache

from ._data import cache_folder, keep, rows

try:  # re's parser and compiler (Programs: what they make of a pattern is kept between processes)
    from re import _compiler, _parser
except ImportError:  # pragma: no cover (Python 3.10)
    try:
        import sre_compile as _compiler
        import sre_parse as _parser
    except ImportError:
        _compiler = _parser = None


class LazyPattern:
    """A regular expression compiled on its first use, not at import: ``_X = LazyPattern(r"...")``
    reads like ``re.compile`` (``_X.search(text)``, ``_X.sub(...)``...). Compiling the patterns
    of the query path costs some 4 ms, which a process should pay only for the patterns its
    question runs, and only once: the compiled program is kept between processes (``Programs``).
    After the first use each method is a plain attribute (no lookup per call). The pattern may
    be a function that returns it, called on first use: a pattern built from a data file
    (question.py's word lists) costs nothing until a question needs it. ``programs``: the file
    its program is kept in (``CHINESE``: the patterns only a Chinese question runs, which an
    English question's process should not read); the shared one by default."""

    def __init__(self, pattern, flags: int = 0, programs: "Programs | None" = None):
        self.pattern, self.flags = pattern, flags  # a pattern, or a function that returns one (from data)
        self.programs = programs

    def __getattr__(self, name: str):
        compiled = (self.programs or PROGRAMS).compile(self.pattern() if callable(self.pattern) else self.pattern, self.flags)
        for method in ("search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split"):
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


class Programs:
    """The programs of the regular expressions LazyPattern compiles, kept between processes.

    Python compiles a pattern in Python code (re's parser and compiler) in every process: the 20
    or so patterns an English question runs cost a query process some 4 ms, more than its SQL.
    What the compiler makes of a pattern (the program re hands to ``_sre.compile``: flags, code,
    groups) is kept with marshal in one file of the user's cache (``_data.cache_folder``), under
    a key of the Python build and of its regular expression engine, and a pattern found there is
    made by ``_sre.compile`` from it at once. A pattern not found there is compiled by re, and
    its program kept only where the pattern it makes equals re's (patterns compare equal when
    their code does). Without a cache (EVFIND_NO_CACHE=1, a folder that cannot be written, a
    Python whose compiler is laid out otherwise) every pattern is compiled by re, as before."""

    MAX = 100  # programs kept (evfind has some 35): past that the file starts again, without the
    # patterns of word lists since edited; each process reads the whole file (~25 KB today)

    def __init__(self, name: str = "patterns"):
        self.name = name
        self.table: dict | None = None  # (pattern, flags) -> program, read on first use
        self.key = self.path = None
        self.lock = _thread.allocate_lock()

    def compile(self, pattern, flags: int = 0) -> re.Pattern:
        """``re.compile(pattern, flags)``, made from the kept program where there is one."""
        if not isinstance(pattern, (str, bytes)):
            return re.compile(pattern, flags)
        if self.table is None:
            self._read()
        flags = int(flags)
        program = self.table.get((pattern, flags))
        if program is not None:
            try:
                return _sre.compile(pattern, *program)
            except Exception:  # noqa: BLE001 (a program _sre refuses: compiled anew below)
                pass
        compiled = re.compile(pattern, flags)
        if self.path is not None and not flags & (re.DEBUG | re.LOCALE):
            program = _program(pattern, flags)
            if program is not None and _sre.compile(pattern, *program) == compiled:
                with self.lock:  # (Datasette's threads: one writer of the table at a time)
                    if len(self.table) >= self.MAX:
                        self.table = {}
                    self.table[pattern, flags] = program
                    keep(self.path, (self.key, dict(self.table)))
        return compiled

    def _read(self) -> None:
        import marshal
        import os
        import sys
        import zlib

        self.table = {}
        if os.environ.get("EVFIND_NO_CACHE") or _parser is None:
            return
        self.key = f"{sys.version}|{_sre.MAGIC}|{_sre.CODESIZE}|{_sre.MAXREPEAT}|{_sre.MAXGROUPS}"
        self.path = cache_folder() / f"{self.name}-{zlib.crc32(self.key.encode()):08x}.marshal"
        try:
            key, table = marshal.loads(self.path.read_bytes())
        except (OSError, ValueError, EOFError, TypeError):
            return
        if key == self.key and isinstance(table, dict):
            self.table = table


def _program(pattern, flags: int) -> tuple | None:
    """What re's compiler hands ``_sre.compile`` for ``pattern`` (as re._compiler.compile
    does): (flags, code, groups, groupindex, indexgroup), in plain values; None where this
    Python's compiler does not work that way."""
    try:
        parsed = _parser.parse(pattern, flags)
        code = _compiler._code(parsed, flags)
        state = parsed.state
        index = [None] * state.groups
        for name, number in state.groupdict.items():
            index[number] = name
        return int(flags | state.flags), [int(c) for c in code], state.groups - 1, dict(state.groupdict), tuple(index)
    except Exception:  # noqa: BLE001
        return None


PROGRAMS = Programs()
CHINESE = Programs("patterns-zh")  # the programs of the patterns only a Chinese question runs


# ---------------------------------------------------------------------------------------------
# Index text: used by ingest on every extracted page (and by the tests of what is stored).

_LIGATURES = {
    "\ufb00": "ff",
    "\ufb01": "fi",
    "\ufb02": "fl",
    "\ufb03": "ffi",
    "\ufb04": "ffl",
    "\ufb05": "st",
    "\ufb06": "st",
}
_TRANSLATE = str.maketrans(
    {
        **_LIGATURES,
        "\ufffe": "-",  # pdfium's marker where the PDF has a (soft) hyphen
        "\u00ad": "",  # soft hyphen
        "\u200b": "",  # zero-width space
        "\u200c": "",
        "\u200d": "",
        "\ufeff": "",
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u2018": "'",
        "\u2019": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\t": " ",
    }
)
# Left as text for re's own cache (compiled on first use): only ingest folds index text.
_NON_ASCII = r"[^\x00-\x7f]+"
_SPACE_RUNS = "  +"
# After folding, the only whitespace left besides space and newline is ASCII: these.
_ASCII_SPACES = ("\t", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")


class _Fold(dict):
    """What each character not in ASCII becomes in the index text: _TRANSLATE, else a space for
    spaces, line and paragraph separators, control, format, private-use and unassigned
    characters, else itself. Filled as characters are first met."""

    def __missing__(self, ch: str) -> str:
        import unicodedata  # ingest only: a query never folds index text

        category = unicodedata.category(ch)
        folded = " " if category[0] in "ZC" else ch
        self[ch] = folded
        return folded


_INDEX_FOLD = _Fold({chr(code): value for code, value in _TRANSLATE.items()})


def normalise(text: str) -> str:
    """Index text (ingest): \\n line breaks, hyphens for U+FFFE, plain spaces, ligatures spelled
    out, no space at either end of a line, no blank line at either end of the page.

    Unlike the keys below it keeps case, punctuation and lines: it is the text that is stored,
    shown (`evfind show`) and indexed, and FTS5's tokenizer does its own folding.

    Written with str.replace over the few distinct characters a page holds, not a pass per
    character: ingest calls it on every page."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.isascii():
        for ch in set("".join(re.findall(_NON_ASCII, text))):
            folded = _INDEX_FOLD[ch]
            if folded != ch:
                text = text.replace(ch, folded)
    for ch in _ASCII_SPACES:
        if ch in text:
            text = text.replace(ch, " ")
    text = re.sub(_SPACE_RUNS, " ", text)
    text = text.replace(" \n", "\n").replace("\n ", "\n")
    return text.strip(" ").strip("\n")


# ---------------------------------------------------------------------------------------------
# Match keys: used by question.py (a question's words against the vocabulary), finder.py (common
# words, matched spans) and ingest (the words of each page, for the common words).

_TOKEN = LazyPattern(r"[a-z0-9]+(?:[&'][a-z0-9]+)*")
# The few characters a question may be typed or pasted with that filings' index text has
# already folded the same way (see _TRANSLATE): curly quotes, no-break space, en and em dashes.
_QUESTION_FOLD = str.maketrans({"\u2019": "'", "\u2018": "'", "\u00a0": " ", "\u2013": "-", "\u2014": "-",
                                "\u00ad": None})  # a soft hyphen pasted from a PDF joins its word
# The Latin ligatures of Unicode's Alphabetic Presentation Forms (U+FB00-FB06), as their letters.
_LIGATURES = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
                            "\ufb05": "st", "\ufb06": "st"})
# "U.S." (and "US" in capitals) as filings write it, which the index holds as the two words
# "u s": the question's "U.S. government" is one word and a phrase ("u s government"), not
# two letters dropped and a period that ends the phrase. ``_as_typed`` writes it as US_WORD,
# which ``tokens`` reads back as "u s" (``_compounds``).
_US = LazyPattern(r"\bU\.\s?S\.(?:\s?A\.)?(?![A-Za-z])|\bUS\b(?!\$)")
US_WORD = "uxsxword"
# Words that questions run together but filings spell apart (data/compounds.tsv), and "U.S.", one
# word of the question: read on the first question, not at import.
_COMPOUNDS: dict[str, tuple[str, ...]] = {}


def _compounds() -> dict[str, tuple[str, ...]]:
    if not _COMPOUNDS:
        _COMPOUNDS.update({typed: tuple(words.split("|")) for typed, words in rows("compounds.tsv", 2)})
        _COMPOUNDS[US_WORD] = ("u s",)
    return _COMPOUNDS


def _bare(token: str) -> str:
    """A token without its possessive 's or inner apostrophe: "3m's" -> 3m, "don't" -> dont."""
    return token[:-2] if token.endswith("'s") else token.replace("'", "")


def _as_typed(text: str) -> str:
    """A question with what it was pasted with folded as the index folds it (``_QUESTION_FOLD``,
    and ligatures from a PDF: ﬁ, ﬂ, ﬀ as their letters), and "U.S." as one word (``_US``);
    ASCII text without "U.S" or "US" is returned as it is."""
    if not text.isascii():
        text = text.translate(_QUESTION_FOLD)
        if not text.isascii():
            text = text.translate(_LIGATURES)
    if "U.S" in text or "US" in text:
        text = _US.sub(US_WORD, text)
    return text


# An acronym's plural as questions write it: KPIs, MAUs, ETFs (lower case, "maus" and "kpis"
# would keep their s: ``normal`` keeps the s of bonus and basis).
_ACRONYM_PLURAL = LazyPattern(r"\b([A-Z][A-Z0-9&]*[A-Z])s\b")


def tokens(text: str) -> list[str]:
    """Match key of a question (question.py): lower-case word tokens in order; keeps & and '
    inside words (P&L, PP&E), drops possessive 's and an acronym's plural s (KPIs, MAUs),
    splits the compounds questions run together
    ("cashflow" -> cash flow). Unlike the heading keys it keeps digits (years, 10-K) and the
    word order; unlike the index text it drops case and punctuation.

    Every query process reads its vocabulary (some 1,300 cues and phrases) through this
    function, so the common case is kept short: ASCII text has nothing to fold, and a token
    without an apostrophe nothing to strip."""
    result: list[str] = []
    text = _as_typed(text)
    if "s" in text and not text.islower():
        text = _ACRONYM_PLURAL.sub(r"\1", text)
    compounds = _COMPOUNDS or _compounds()
    for token in _TOKEN.findall(text.lower()):
        if "'" in token:
            token = _bare(token)
        if token in compounds:
            result.extend(compounds[token])
        else:
            result.append(token)
    return result


# Where a phrase of a question ends: punctuation between two words other than a hyphen, an
# ampersand or an apostrophe inside a word ("products / services", "revenue, by segment"), and a
# possessive ("Boeing's revenue" is a genitive, not the phrase "Boeing revenue" a filing writes).
_PHRASE_END = LazyPattern(r"'s\b|[^\w\s'&-]")


def phrases(text: str) -> list[list[str]]:
    """The question's ``tokens`` in runs that punctuation and possessives end: the words that
    may form a phrase together (question.py pairs two neighbours of a run)."""
    return [run for part in _PHRASE_END.split(_as_typed(text).lower()) if (run := tokens(part))]


@lru_cache(maxsize=65536)
def normal(word: str) -> str:
    """Match key of one word: a light singular form (liabilities -> liability, sales -> sale;
    "loss", "bonus" and "basis" kept). Question words, vocabulary cues, common words and matched
    spans are all compared in this form."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@lru_cache(maxsize=1)
def derivations() -> dict[str, tuple[str, ...]]:
    """Match key of a word's derivational family (data/derivations.tsv): a question word in
    ``normal`` form -> the forms a filing writes instead, the first the one it routes as
    ("deliver" -> delivery, deliveries). Porter's stemmer, which the index uses, strips
    inflections, not derivations; this closes that gap for the words listed, in one place."""
    return {normal(word): tuple(" ".join(tokens(f)) for f in forms.split("|")) for word, forms in rows("derivations.tsv", 2)}


def words_on(text: str) -> set[str]:
    """Match keys of a page (ingest, for ``common_words``): its distinct words in
    ``normal`` form. The page is index text already folded by ``normalise``, and its compounds
    are kept as the filing spells them, so only the tokenising is shared with ``tokens``.

    The same words as ``{normal(_bare(w)) for w in _TOKEN.findall(text.lower())}``, found in C
    where that pays (ingest calls it on every page): the text is cut into runs of the
    characters a token is made of (``[a-z0-9&']``: a token never spans two runs, so the
    tokens of the text are those of its runs), and each distinct run is read once per
    process: most are a word that is its own key; the few that are not (a plural, an
    apostrophe, an ampersand) are looked up."""
    lowered = text.lower()
    if not lowered.isascii():  # a token is ASCII: any other character ends one
        lowered = re.sub(_NON_ASCII, " ", lowered)
    runs = set(lowered.translate(_NOT_IN_TOKENS).split())
    seen, others, keys = _RUNS  # (this call's: a reset by another thread leaves them alone)
    new = runs.difference(seen)
    if new:
        if len(seen) > _MAX_RUNS:
            seen, others, keys = _RUNS[:] = [set(), set(), {}]
            new = runs
        for run in new:
            if "&" in run or "'" in run:
                keys[run] = tuple({normal(_bare(w)) for w in _TOKEN.findall(run)})
            elif (key := normal(run)) != run:
                keys[run] = (key,)
            else:
                continue
            others.add(run)
        seen.update(new)
    other = runs.intersection(others)  # (two sets: the smaller is the one walked)
    if other:
        runs.difference_update(other)
        for run in other:
            runs.update(keys[run])
    return runs


# What is not part of a token, in ASCII lower-case text: a space (a run's end).
_NOT_IN_TOKENS = str.maketrans({chr(c): " " for c in range(128) if not (chr(c).isdigit() or "a" <= chr(c) <= "z" or chr(c) in "&'")})
# The runs of words_on read so far, those that are not their own key, and their keys; reset
# past _MAX_RUNS (a process that ingests many filings).
_RUNS: list = [set(), set(), {}]
_MAX_RUNS = 500_000


def common_words(pages: list[set[str]], share: float = 0.5) -> list[str]:
    """The words on more than ``share`` of the pages (``pages``: each page's ``words_on``): in
    bm25 their IDF is not positive, so they add nothing to a page's score (stored at ingest,
    left out of the MATCH at query time)."""
    from collections import Counter

    counts: Counter = Counter()
    for words in pages:
        counts.update(words)
    return sorted(word for word, count in counts.items() if count > share * len(pages))


# ---------------------------------------------------------------------------------------------
# Heading keys: used by structure.py to recognise headings, statements and sections in a line.


def words_key(text: str) -> str:
    """Heading key with word boundaries (structure.py's patterns of item titles, topics and
    statement titles): lower-case letter runs only, digits and punctuation dropped:
    "Management's Discussion" -> "management s discussion"."""
    return " ".join(re.findall(r"[a-z]+", text.lower()))


def squash(text: str) -> str:
    """Heading key without word boundaries: ``words_key`` without its spaces (letters only), so it
    survives words the PDF splits or runs together, such as "Balance Shee t"."""
    return re.sub(r"[^a-z]", "", text.lower())


# ---------------------------------------------------------------------------------------------
# Chinese key: used by zh.py to match a question and the glossary.

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # the Han ranges, for a [...] character class
# Patterns over the Han ranges are compiled on first use (LazyPattern, kept between processes):
# compiling them costs re some 7 ms, which an English question (every query process checks
# is_chinese) should not pay, nor a Chinese one in every process.
HAN_CHAR = f"[{HAN}]"
_HAN_CHAR = LazyPattern(HAN_CHAR, programs=CHINESE)
LANGUAGES = ("en", "zh")  # of the output: notes, messages, labels


def is_chinese(text: str) -> bool:
    """Does the text hold Chinese characters (then it is read as a Chinese question, by zh.py)?"""
    return not text.isascii() and _HAN_CHAR.search(text) is not None


def language(question: str, override: str | None = None) -> str:
    """The language of the output: ``override`` (en or zh) when given, else the question's."""
    if override is not None:
        if override not in LANGUAGES:
            from .errors import UsageError

            raise UsageError(f"unknown language {override!r}: use en or zh")
        return override
    return "zh" if is_chinese(question) else "en"

_ENUMERATION = LazyPattern(f"(?<=[{HAN}])[、·・](?=[{HAN}])", programs=CHINESE)  # 物业、厂房及设备: one term
_SEPARATORS = str.maketrans({"、": " ", "·": " ", "・": " "})  # 2021、2022: two years


@lru_cache(maxsize=1)
def _simplified() -> dict[int, str]:
    return str.maketrans({traditional: simplified for traditional, simplified in rows("traditional_zh.tsv", 2)})


def chinese_key(text: str) -> str:
    """Chinese key (zh.py, for the question and the glossary alike): NFKC (full-width letters and
    digits made plain), simplified characters, lower case, no enumeration comma between two
    Chinese characters. Unlike the English keys it keeps every character and the spacing: the
    segmentation needs them."""
    import unicodedata  # a Chinese question only

    text = unicodedata.normalize("NFKC", text).translate(_simplified()).lower()
    return _ENUMERATION.sub("", text).translate(_SEPARATORS)


# ---------------------------------------------------------------------------------------------
# Note key: used by zh.note to group a hit's matched spans under the Chinese terms of the question.


def stem(word: str) -> str:
    """A rough stem, enough to tell which question term a matched span came from. Rougher than
    ``normal``: it strips any plural s ("bonus" -> bonu) and the endings -ing, -ion, -ed and -e,
    because a span is written as the filing writes it, not as the glossary does."""
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    for suffix in ("ing", "ion", "ed", "e"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)]
    return word


def stems(phrase: str) -> tuple[str, ...]:
    """Note key of a phrase or a span: the ``stem`` of each of its ``tokens``."""
    return tuple(stem(w) for w in tokens(phrase))
