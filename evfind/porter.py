"""The Porter stemmer, as SQLite's FTS5 ``porter`` tokenizer applies it.

M.F. Porter, "An algorithm for suffix stripping", Program 14(3), 1980: the steps 1a to 5b as
published, with the two departures of Porter's own reference implementation that SQLite's
``fts5_porter`` follows too ("bli" -> "ble" in step 2 instead of "abli" -> "able", and
"logi" -> "log"). FTS5 leaves tokens of fewer than three characters as they are.

evidence.py reads a page's matches with it, so that a line counts as holding a question's word
exactly when the FTS5 index says the page holds it; tests/test_porter.py compares it with
SQLite's own stems over a vocabulary of financial English.
"""

from functools import lru_cache

_VOWELS = frozenset("aeiou")
_STEP2 = (
    ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
    ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"),
    ("ization", "ize"), ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"),
    ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"),
    ("logi", "log"),
)
_STEP3 = (("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""), ("ness", ""))
_STEP4 = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou",
    "ism", "ate", "iti", "ous", "ive", "ize",
)


def _consonant(word: str, i: int) -> bool:
    if word[i] in _VOWELS:
        return False
    if word[i] == "y":
        return i == 0 or not _consonant(word, i - 1)
    return True


def _measure(stem: str) -> int:
    """m in [C](VC)^m[V]: the number of vowel-consonant sequences."""
    count, i, size = 0, 0, len(stem)
    while i < size and _consonant(stem, i):
        i += 1
    while i < size:
        while i < size and not _consonant(stem, i):
            i += 1
        if i >= size:
            break
        count += 1
        while i < size and _consonant(stem, i):
            i += 1
    return count


def _has_vowel(stem: str) -> bool:
    return any(not _consonant(stem, i) for i in range(len(stem)))


def _double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _consonant(word, len(word) - 1)


def _cvc(word: str) -> bool:
    """Consonant-vowel-consonant at the end, the last not w, x or y (*o in the paper)."""
    n = len(word)
    return (
        n >= 3 and _consonant(word, n - 3) and not _consonant(word, n - 2) and _consonant(word, n - 1)
        and word[-1] not in "wxy"
    )


# Each step's suffixes at once: one ``str.endswith`` tells most words no rule of the step applies.
_STEP2_ENDS = tuple(suffix for suffix, _ in _STEP2)
_STEP3_ENDS = tuple(suffix for suffix, _ in _STEP3)


def _replace(word: str, rules, condition, ends: tuple[str, ...] = ()) -> str:
    if ends and not word.endswith(ends):
        return word
    for suffix, replacement in rules:
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            return stem + replacement if condition(stem) else word
    return word


def _positive(stem: str) -> bool:
    return _measure(stem) > 0


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Porter stem of one lower-case ASCII word."""
    if len(word) < 3:
        return word
    # Step 1a: plurals. As in SQLite, a suffix is only taken from a longer word ("sses" is
    # read as sse + s, "eed" as e + ed).
    if word.endswith("sses") and len(word) > 4:
        word = word[:-2]
    elif word.endswith("ies") and len(word) > 3:
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    # Step 1b: -eed, -ed, -ing
    cleaned = False
    if word.endswith("eed") and len(word) > 3:
        if _measure(word[:-3]) > 0:
            word = word[:-1]
    elif word.endswith("ed") and _has_vowel(word[:-2]):
        word, cleaned = word[:-2], True
    elif word.endswith("ing") and _has_vowel(word[:-3]):
        word, cleaned = word[:-3], True
    if cleaned:
        if word.endswith(("at", "bl", "iz")):
            word += "e"
        elif len(word) >= 2 and word[-1] == word[-2] and word[-1] not in "aeioulsz":
            # (a double consonant here, y included, as SQLite reads it)
            word = word[:-1]
        elif _measure(word) == 1 and _cvc(word):
            word += "e"
    # Step 1c: y -> i
    if word.endswith("y") and _has_vowel(word[:-1]):
        word = word[:-1] + "i"
    # Steps 2 and 3: double and single suffixes, where the stem has m > 0
    word = _replace(word, _STEP2, _positive, _STEP2_ENDS)
    word = _replace(word, _STEP3, _positive, _STEP3_ENDS)
    # Step 4: suffixes dropped where m > 1 (-ion only after s or t)
    for suffix in _STEP4 if word.endswith(_STEP4) else ():
        if word.endswith(suffix):
            stem_ = word[: -len(suffix)]
            if _measure(stem_) > 1 and (suffix != "ion" or stem_.endswith(("s", "t"))):
                word = stem_
            break
    # Step 5a: a final e
    if word.endswith("e"):
        stem_ = word[:-1]
        m = _measure(stem_)
        if m > 1 or (m == 1 and not _cvc(stem_)):
            word = stem_
    # Step 5b: -ll -> -l where m > 1
    if word.endswith("ll") and _measure(word) > 1:
        word = word[:-1]
    return word


@lru_cache(maxsize=65536)
def stem_token(token: str) -> str:
    """A token of FTS5's unicode61 tokenizer (lower case) as the porter tokenizer stores it:
    diacritics removed (``remove_diacritics 2``), then stemmed."""
    if not token.isascii():
        import unicodedata

        token = token.replace("\u00b5", "\u03bc")  # unicode61 folds the micro sign to mu
        token = "".join(ch for ch in unicodedata.normalize("NFD", token) if not unicodedata.combining(ch))
    return stem(token)
