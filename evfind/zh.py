"""Chinese questions about English filings: detection, segmentation, glossary, messages.

A Chinese (or mixed Chinese/English) question is segmented against a Chinese-English financial
glossary (``data/glossary_zh.tsv``), longest match first, left to right. Every glossary match
gives its English wording; English words, tickers and numbers written in the question are kept,
years written 2022年 or 2022财年 become 2022 and months become their English names; the words
that ask for a page (哪一页, 第几页, 原始表格, ...) and function words (``data/stopwords_zh.txt``)
are dropped, and so is any Chinese text the glossary does not know (a company name, say).

What is left is an English reading of the question (``read``), which the English parser
(``question.parse``) parses in its place: the Chinese question feeds the same content words,
lexicon expansions and section routes as an English one, and gains from every improvement made to
them. This module knows nothing of that parser; text is folded by evfind/text.py, which also tells a
Chinese question from an English one (``text.is_chinese``): an English question never imports
this module.

The output of a Chinese question is in Chinese: the notes (命中：资本支出 → capital expenditures),
the messages and the errors that carry a message key. Pure functions over strings, as question.py.
"""

import re
from functools import lru_cache
from typing import NamedTuple

from ._data import rows
from .text import CHINESE, HAN, HAN_CHAR, LazyPattern, chinese_key, stems

# The patterns are compiled on first use (text.LazyPattern), their programs kept between
# processes in a file of their own (text.CHINESE): only a Chinese question runs them, an English one (every query process checks
# is_chinese) should not pay for compiling them, and a Chinese one should not pay each time (the
# Han ranges alone cost re some 7 ms).
_RUNS = LazyPattern(f"[{HAN}]+|[^{HAN}]+", programs=CHINESE)
_HAN_CHAR = LazyPattern(HAN_CHAR, programs=CHINESE)
_WORD = LazyPattern(r"[^\W_]", programs=CHINESE)  # a letter or digit: text without one (punctuation) is dropped
_PUNCTUATION = ".,;:!?()[]{}\"'“”‘’。，；：！？（）【】《》「」"
_MONTH = LazyPattern(r"(?<![\d.])(1[0-2]|0?[1-9])\s*月", programs=CHINESE)
_SHORT_FISCAL_YEAR = LazyPattern(r"(?<![\d.])(\d\d)\s*财年", programs=CHINESE)
_MONTHS = (
    "january february march april may june july august september october november december"
).split()
# A tenor: 五年期 (信贷协议), 3年期 (票据) -> five-year, three-year, as filings name facilities and
# notes ("Five-Year Credit Agreement", "364-day facility"); past ten, the digits ("30-year").
_TENOR = LazyPattern(r"(?<![\d.])(10|[1-9]|\d{2,3}|[一二三四五六七八九十])\s*年期", programs=CHINESE)
# An Item of a form by number (第7项, 第1A项, 第5.07项, 项目7) and a 10-Q's Part (第二部分): read as
# "item 7" and "part ii", as question.named_items reads an English question.
_ITEM = LazyPattern(r"第\s*(\d\.\d{2}|\d{1,2}[A-Da-d]?)\s*项(?!目)|项目\s*(\d\.\d{2}|\d{1,2}[A-Da-d]?)(?![\w.]*\d)", programs=CHINESE)
_PART = LazyPattern(r"第\s*([一二12])\s*部分", programs=CHINESE)
# An article of an agreement or of the bylaws: 第七条 -> "article vii", as agreements number
# their articles (ARTICLE VII EVENTS OF DEFAULT).
_ARTICLE = LazyPattern(r"第\s*([一二三四五六七八九十]{1,3}|\d{1,2})\s*条", programs=CHINESE)
_ROMAN = "i ii iii iv v vi vii viii ix x xi xii xiii xiv xv xvi xvii xviii xix xx".split()
_NUMBERS = "one two three four five six seven eight nine ten".split()
_CHINESE_NUMBERS = "一二三四五六七八九十"


def _chinese_number(text: str) -> int:
    """一 to 九十九 (十, 十二, 二十, 二十三) or digits."""
    if text.isdigit():
        return int(text)
    if "十" not in text:
        return _CHINESE_NUMBERS.index(text) + 1
    tens, _, units = text.rpartition("十")
    return (_CHINESE_NUMBERS.index(tens) + 1 if tens else 1) * 10 + (_CHINESE_NUMBERS.index(units) + 1 if units else 0)


def _article(match: re.Match) -> str:
    value = _chinese_number(match.group(1))
    return f" article {_ROMAN[value - 1]} " if 1 <= value <= len(_ROMAN) else f" article {value} "


def _tenor(number: str) -> str:
    value = _chinese_number(number)
    return f" {_NUMBERS[value - 1] if value <= 10 else value}-year "


# ---------------------------------------------------------------------------------------------
# Vocabulary


class Entry(NamedTuple):
    """One line of the glossary."""

    chinese: str  # the first Chinese form: the term as the glossary names it
    english: tuple[str, ...]  # the English wording(s) handed to the English parser


@lru_cache(maxsize=1)
def vocabulary() -> tuple[dict[str, Entry | None], int]:
    """Every Chinese form -> its glossary entry (None for a stopword), and the longest form.

    Folding every form of the glossary costs a first Chinese question more than the query: the
    table is kept between processes (``_data.compiled``, rebuilt when the glossary, the
    stopwords, this module or text.py's folding change) as plain values, made entries here."""
    from . import text
    from ._data import compiled

    entries, forms, longest = compiled("zh", ("glossary_zh.tsv", "stopwords_zh.txt", "traditional_zh.tsv"),
                                       _build_vocabulary, code=(__file__, text.__file__))
    made = [Entry(chinese, english) for chinese, english in entries]
    return {form: made[number] if number >= 0 else None for form, number in forms.items()}, longest


def _build_vocabulary() -> tuple[list[tuple[str, tuple[str, ...]]], dict[str, int], int]:
    """``vocabulary`` as plain values: the entries, each form's entry by number (-1 for a
    stopword), the longest form."""
    entries: list[tuple[str, tuple[str, ...]]] = []
    table: dict[str, int] = {}
    for number, (chinese, english) in enumerate(rows("glossary_zh.tsv", 2), 1):
        forms = [chinese_key(form.strip()) for form in chinese.split("|") if form.strip()]
        phrases = tuple(p.strip() for p in english.split("|") if p.strip())
        if not forms or not phrases:
            raise RuntimeError(f"evfind/data/glossary_zh.tsv: entry {number} needs Chinese and English")
        entry = (forms[0], phrases)
        entries.append(entry)
        for form in forms:
            if entries[table.get(form, len(entries) - 1)] != entry:
                raise RuntimeError(f"evfind/data/glossary_zh.tsv: {form} is listed under two entries")
            table[form] = len(entries) - 1
    for (word,) in rows("stopwords_zh.txt", 1):
        table.setdefault(chinese_key(word.strip()), -1)  # a glossary term wins over a stopword
    return entries, table, max(len(form) for form in table)


def glossary() -> dict[str, Entry]:
    """Chinese form -> glossary entry (stopwords left out)."""
    table, _ = vocabulary()
    return {form: entry for form, entry in table.items() if entry is not None}


# ---------------------------------------------------------------------------------------------
# Segmentation


class Segment(NamedTuple):
    """One piece of a question: a glossary term, a stopword, unknown Chinese, or other text."""

    kind: str  # term | stop | unknown | text
    text: str  # as written in the question (normalised)
    english: tuple[str, ...] = ()  # a term's English wording; other text as it stands


def _prepare(question: str) -> str:
    text = chinese_key(question)
    text = _SHORT_FISCAL_YEAR.sub(lambda m: f" 20{m.group(1)} ", text)
    text = _TENOR.sub(lambda m: _tenor(m.group(1)), text)
    text = _PART.sub(lambda m: " part " + ("i" if m.group(1) in "一1" else "ii") + " ", text)
    text = _ITEM.sub(lambda m: f" item {m.group(1) or m.group(2)} ", text)
    text = _ARTICLE.sub(_article, text)
    return _MONTH.sub(lambda m: f" {_MONTHS[int(m.group(1)) - 1]} ", text)


def segment(question: str) -> list[Segment]:
    """The question cut into segments: glossary terms longest first, left to right."""
    table, longest = vocabulary()
    result: list[Segment] = []
    for run in _RUNS.findall(_prepare(question)):
        if not _HAN_CHAR.match(run):
            words = [w.strip(_PUNCTUATION) for w in run.split()]
            text = " ".join(w for w in words if _WORD.search(w))
            if text:
                result.append(Segment("text", text, (text,)))
            continue
        start = 0
        while start < len(run):
            for size in range(min(longest, len(run) - start), 0, -1):
                piece = run[start : start + size]
                if piece in table:
                    entry = table[piece]
                    if entry is None:
                        result.append(Segment("stop", piece))
                    else:
                        result.append(Segment("term", piece, entry.english))
                    start += size
                    break
            else:
                if result and result[-1].kind == "unknown":
                    result[-1] = Segment("unknown", result[-1].text + run[start])
                else:
                    result.append(Segment("unknown", run[start]))
                start += 1
    return result


# ---------------------------------------------------------------------------------------------
# Reading a question


class GlossaryMatch(NamedTuple):
    """A Chinese term of the question and the English it was read as."""

    chinese: str  # as written in the question
    english: tuple[str, ...]  # the glossary's English wording(s)
    # The note keys (text.stems) of every phrase it searches, for the notes: what a wording
    # searches is the English parser's to say, so ``read`` leaves this empty and
    # ``question.parse`` fills it in.
    phrases: frozenset[tuple[str, ...]] = frozenset()

    def __str__(self) -> str:
        return f"{self.chinese} → {' | '.join(self.english)}"


class Reading(NamedTuple):
    """How a Chinese question was read: its English reading and the glossary matches."""

    english: str  # what the English parser was given
    matches: tuple[GlossaryMatch, ...]
    unknown: tuple[str, ...] = ()  # Chinese text the glossary does not know (not searched)


def read(question: str) -> Reading:
    """The English reading of a Chinese question: glossary English and kept text, in order; the
    glossary matches (their ``phrases`` empty: see ``GlossaryMatch``); the Chinese text not read."""
    pieces: list[str] = []
    matches: dict[str, GlossaryMatch] = {}
    unknown: list[str] = []
    for seg in segment(question):
        if seg.kind == "term":  # a term's wordings are alternatives, not one phrase: "operate / operations"
            pieces.append(" / ".join(seg.english))
            if seg.text not in matches:
                matches[seg.text] = GlossaryMatch(seg.text, seg.english)
        elif seg.kind == "text":
            pieces.append(seg.text)
        elif seg.kind == "unknown":
            unknown.append(seg.text)
    # The pieces are joined with "; ": Chinese word order is not English phrase order, so two
    # neighbouring terms make no English phrase (question.py pairs words of one piece only;
    # the lexicon's cues still span pieces: 营业 + 利润 is "operating income").
    return Reading("; ".join(pieces), tuple(matches.values()), tuple(unknown))


# ---------------------------------------------------------------------------------------------
# Notes and messages in Chinese


def note(heading: str, section_heading: str | None, terms: tuple[str, ...], reading: Reading | None) -> str:
    """The Chinese note of a hit: the heading on the page (or the section it continues), then
    the matched terms, grouped under the Chinese term of the question each one came from
    (``reading``: the ``ParsedQuestion.reading``, whose matches carry their phrases):
    ``Consolidated Statements of Cash Flows；命中：资本支出 → capital expenditures``."""
    parts = []
    if heading:
        parts.append(heading)
    elif section_heading:
        parts.append(CONTINUES + section_heading)
    if terms:
        matches = reading.matches if reading else ()
        groups: dict[str, list[str]] = {m.chinese: [] for m in matches}
        rest: list[str] = []
        for span in terms:
            key = stems(span)
            owner = next((m.chinese for m in matches if key in m.phrases), None)
            (groups[owner] if owner else rest).append(span)
        items = [f"{chinese} → {', '.join(spans)}" for chinese, spans in groups.items() if spans]
        parts.append("命中：" + "；".join(items + rest))
    return "；".join(parts)


MESSAGES = {
    "no_match": "未在该文档中定位到相关页面；可换一种说法：报表项目、章节标题，或财报原文的英文术语",
    "weak_match": "没有页面包含问题的全部内容词；以下候选页面只包含其中一部分，请逐页核对",
    "doubtful": "没有页面很可能包含所需证据（第一页的置信度为 {confidence}）；以下是候选页面，请逐页核对",
    "no_database": "{path}：数据库不存在（请先运行 `evfind ingest REPORT.pdf --db {path}`）",
    "no_pages": "尚未载入任何页面，无法检索：{path}；请先运行 `evfind ingest REPORT.pdf --db {path}`",
    "no_content_words": "问题缺少可检索的内容词；请用财报中的说法提问（例如 资本支出、法律诉讼、现金流量表）",
    "no_match_several": "未在这些文档中定位到相关页面；可换一种说法：报表项目、章节标题，或财报原文的英文术语",
    "not_read": "未识别：{parts}（未检索）",
    "absent": "文档中未出现：{parts}",
    "absent_several": "这些文档中均未出现：{parts}",
}


def named(labels: tuple[str, ...], reading: Reading | None, lang: str = "zh") -> tuple[str, ...]:
    """The question's ideas, given by their English labels, as the question says them: for a
    Chinese question, the Chinese term each was read from with the labels read from it
    (养老金（pension）, or 养老金 (pension) in English output), or the label as written there
    (an English word, a year); an English question's labels as they are. A term is named once,
    in the question's order."""
    if reading is None:
        return labels
    grouped: dict[str, list[str]] = {}
    for label in labels:
        key = stems(label)
        owner = next((m.chinese for m in reading.matches if key in m.phrases), None)
        grouped.setdefault(owner or label, []).append(label)
    brackets = "（{}）" if lang == "zh" else " ({})"
    return tuple(
        name if name in labels else name + brackets.format(", ".join(found)) for name, found in grouped.items()
    )


def localise(key: str | None, english: str, lang: str, **params) -> str:
    """The message ``key`` in ``lang``: the Chinese text for zh where there is one, else the
    English text as the library wrote it."""
    if lang == "zh" and key in MESSAGES:
        return MESSAGES[key].format(**params)
    return english


def error_message(exc, lang: str) -> str:
    """An ``EvfindError`` in the output language (errors keep one vocabulary: the class and
    its English message; a message key translates it at the edge)."""
    return localise(getattr(exc, "key", None), str(exc), lang, **getattr(exc, "params", {}))


CONTINUES = "续："  # before the heading of the section a page continues (finder.CONTINUES)

# The labels of a Chinese answer's table and Markdown (the English ones: render.LABELS).
LABELS = {
    "question": "问题：",
    "document": "文档：",
    "documents": "文档：",
    "pages": "（共 {count} 页）",
    "one_page": "（共 1 页）",
    "header": ("排名", "页码（物理页）", "置信度", "文档", "SHA-256", "命中说明"),
    "md_header": ("排名", "页码（物理页）", "置信度", "文档", "命中说明", "证据"),
    "printed": "{page}（印刷页码 {label}）",
    "evidence": "第 {line} 行：",
    "columns": "表头，第 {line} 行：",
    "columns_lines": "表头，第 {first}-{last} 行：",
    "fact": "事实：",
    "more_facts": "（另有 {count} 项）",
    "tagged_on": "，标注于第 {page} 页",
    "untagged": "（印于页面，未标注）",
}
