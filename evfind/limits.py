"""The largest inputs evfind reads: each bound defined once, with the check against it.

Every size evfind reads from a user's files or arguments (pages in a filing, page numbers,
characters on a page or a line, characters in a question, questions in a file) is checked
against its bound here before it is used, and a larger one is refused with a one-line error
(exit 3) instead of being read without end. The bounds are generous: many times what the
development set's filings hold (figures measured on its 50 PDFs are given with each).
"""

from .errors import InputError, SourceError

# Pages in one filing (a PDF's page count, a JSONL page_number, the pages of a text file). The
# longest filing of the development set has 549 pages, long filings with their exhibits a few
# thousand. Every page is held in memory while a filing is ingested: 5,000 pages of 2,000
# characters peaked at 107 MB and took 23 s, so 50,000 such pages stay near a gigabyte and a
# few minutes, where a PDF that claims a million pages (pdfium believes a page tree's /Count)
# is refused before its first page.
MAX_PAGES = 50_000

# Characters of text extracted from one page. The densest page of the development set holds
# 9,566; a page of a hundred times that is not a page of a filing (a PDF that draws its text many
# times over, or a JSONL record holding a whole document), and analysing it takes half a second.
MAX_PAGE_CHARS = 1_000_000

# Characters in one line of a page's text. The longest line of the development set has 2,021
# (a table row); some extractors give a page as one line, so the bound is ten times the densest
# whole page: longer is not text of a filing (a line of binary junk, or a page without breaks
# that runs past any page).
MAX_LINE_CHARS = 100_000

# Characters in one JSONL line of a user's file (JSONL sources, --questions, eval labels):
# a page of MAX_PAGE_CHARS characters each written as an escaped surrogate pair ("\ud83d\udcb0",
# twelve characters), and room for the other fields of the record. json.loads reads about
# 130 MB a second here, so a line at the bound is decoded in about a tenth of a second.
MAX_JSONL_LINE_CHARS = 12 * MAX_PAGE_CHARS + 10_000

# Characters in one question. Reading a question costs about 9 ms per 1,000 characters (30 for
# Chinese), so a question of a megabyte would take 10 to 30 s; 50,000 characters keep a question
# pasted with several pages of context (a dense page holds 5,000 to 10,000) under half a second
# in English and under two seconds in Chinese. (Linux's argv holds 128 KiB in one argument.)
MAX_QUESTION_CHARS = 50_000

# Questions in one --questions file: the questions about one filing. The development set asks
# at most nine about one filing; 10,000 questions take about four minutes (25 ms each, measured
# on a real 10-K with a shared, busy machine).
MAX_QUESTIONS = 10_000


def check_page_count(count: int, where: str) -> None:
    """More pages than a filing has: refused before any page is read."""
    if count > MAX_PAGES:
        raise SourceError(f"{where}: {count} pages; evfind reads at most {MAX_PAGES} pages in one filing")


def check_page_number(number: int, where: str) -> None:
    """A JSONL record's page_number: a physical page, counted from 1, of a filing evfind reads."""
    if number < 1:
        raise SourceError(f"{where}: page_number {number} is not a page (pages are counted from 1)")
    if number > MAX_PAGES:
        raise SourceError(f"{where}: page_number {number} is more than the {MAX_PAGES} pages evfind reads in one filing")


def check_page_text(text: str, where: str) -> None:
    """A page's text, as extracted: at most MAX_PAGE_CHARS characters, in lines of at most
    MAX_LINE_CHARS (broken where ingest breaks them: at CR and LF)."""
    if len(text) > MAX_PAGE_CHARS:
        raise SourceError(
            f"{where}: {len(text)} characters of text on one page; evfind reads at most {MAX_PAGE_CHARS} on a page"
        )
    if len(text) > MAX_LINE_CHARS:  # (a shorter page has no line too long: no need to look)
        longest = max(len(line) for line in text.replace("\r", "\n").split("\n"))
        if longest > MAX_LINE_CHARS:
            raise SourceError(
                f"{where}: a line of {longest} characters; evfind reads lines of at most {MAX_LINE_CHARS}"
            )


def check_jsonl_line(line: str, where: str) -> None:
    if len(line) > MAX_JSONL_LINE_CHARS:
        raise SourceError(
            f"{where}: a line of {len(line)} characters; evfind reads JSONL lines of at most {MAX_JSONL_LINE_CHARS}"
        )


def check_question(question: str, where: str | None = None) -> None:
    """A question of at most MAX_QUESTION_CHARS characters (``where``: its file and line)."""
    if len(question) > MAX_QUESTION_CHARS:
        place = f"{where}: " if where else ""
        raise InputError(
            f"{place}the question has {len(question)} characters; evfind reads questions of at most "
            f"{MAX_QUESTION_CHARS} characters"
        )


def check_question_count(count: int, where: str) -> None:
    if count > MAX_QUESTIONS:
        raise SourceError(f"{where}: {count} questions; evfind asks at most {MAX_QUESTIONS} from one file (split it)")
