"""The learned last stage's input: each candidate page of a question as a fixed, named vector of
numbers (issue 21: a model weighing the signals where rules reordered pages). Pure.

``vectors`` gives, for each candidate (``rank.pool``: the fusion's leading pages and the pages
named outright), the numbers of ``NAMES`` (in ``GROUPS``): its place and score in the fusion and
in each ranked list, what its text holds of the question's concepts (its best passage, its
headings, its figures), what kind of page it is (a statement, a page of a targeted section, of
definitions, of an instrument, of contents, off-period: each rule's verdict, rules.py, as a
number), where it is in the filing, and what the question asks (the same on every candidate:
the model weighs a page's signals differently for a figure and for a place). ``rank.vectors``
runs it on a ``Signals`` record; what the rules read page by page is ``rank.candidates``.

    >>> from evfind.rank import DEFAULT, Signals, vectors
    >>> pages, rows = vectors(Signals(lexical=(("p9", -8.0), ("p4", -2.0))), DEFAULT)
    >>> pages, [dict(zip(NAMES, row))["lexical_rank"] for row in rows]
    (('p9', 'p4'), [1.0, 2.0])
"""

import math
from .rules import aside_reasons, asked_tables, clear_winner, evidence_list, off_period
from .signals import PageSignal, Signals


# ---------------------------------------------------------------------------------------------
# The learned stage's input: one vector of named numbers per candidate

# The signals by group (the ablation of benchmarks/train_ranker.py removes a group at a time).
# Ranks count from 1, 0 where the page is not in that list.
GROUPS: dict[str, tuple[str, ...]] = {
    # the fusion (RRF): the first stage, and a signal
    "fusion": ("rrf_rank", "rrf_share"),
    # the lexical list: bm25 over text and headings; the clear winner (bm25 at least
    # Method.dominance times the next page's) is a signal, no longer a move
    "lexical": ("lexical_rank", "bm25_share", "bm25_lead", "clear_winner"),
    # the statements the question names or implies, and the statement asked for as such
    "statements": ("statement_rank", "statement_kind", "statement_page", "asked_table"),
    # the pages of the sections the question's topics point to, and how the page belongs to one
    "sections": ("section_rank", "section_title", "section_started", "section_carried", "expanded_rank"),
    # the XBRL facts list (HTML filings: figures tagged with the concepts the question asks
    # about); 0 where the list is empty
    "facts": ("facts_rank",),
    # the best passage (evidence.py): the weighted share of the question's concepts a few
    # lines hold, its place among the candidates, a line item beside a figure
    "passage": ("passage", "passage_gap", "evidence_rank", "coverage", "coverage_gap", "figure", "figure_rows"),
    # which of the question's ideas the page holds, in its text and in its headings
    # (a line that holds most of them, the lines holding the rarest, the page's first lines)
    "ideas": ("ideas_held", "rarest_held", "all_held", "best_line", "rarest_lines", "matched_lines", "top_coverage",
              "heading_coverage", "heading_ideas", "heading_rarest", "years_held", "years_printed"),
    # the page itself: a table of figures or prose, how long, where in the filing, beside a leader
    "page": ("digits", "log_lines", "position", "neighbour", "distance"),
    # the pages the rules set aside or led: now signals
    "kinds": ("definitions", "instrument", "contents", "unnamed", "defining", "off_period", "named", "exhibit"),
    # a question about the reasons of a change ("What drove ...", 为何): the page's lines that
    # state a change and its cause holding the question's ideas (the weighted share the best such
    # line holds, and its gap to the best candidate's; how many such lines; the rarest idea on
    # one): MD&A's explanation, not the table of the figure; 0 for any other question
    "reasons": ("q_reason", "explained_best", "explained_gap", "explained_lines", "explained_rarest"),
    # the question (the same for every candidate)
    "question": (
        "q_terms", "q_ideas", "q_absent", "q_named", "q_kinds", "q_topical", "q_section_pages", "q_fact", "q_ratio",
        "q_items", "q_exhibits", "q_definition", "q_instrument", "q_contents", "q_opening", "q_periods",
        "q_chinese", "q_log_pages", "q_years", "q_log_lexical",
    ),
}
NAMES: tuple[str, ...] = tuple(name for names in GROUPS.values() for name in names)
TOP_LINES = 3  # a page's first lines: its title, where a heading the ingest did not read may be


def _places(ranked) -> dict:
    """{page: (its place from 1, its score)}, a page listed twice at its first place (the list
    read from its end: one comprehension, no call a page)."""
    return {page: (place, score) for place, (page, score) in zip(range(len(ranked), 0, -1), reversed(ranked))}


def vectors(signals: Signals, method, made, fused_list, definitions, pages) -> tuple[tuple[float, ...], ...]:
    """One vector per candidate of ``pages`` (in the fusion's order), its numbers in the order
    of ``NAMES``, from the question's ``signals`` and what the pipeline made of them (``made``:
    its ``lists.Lists``; ``fused_list``: the fusion, (page, score) best first; ``definitions``:
    the pages of definitions a rule would set aside; ``method``: the ``rank.Method``). A page
    the finder did not read (no ``Signals.pages`` entry, no passage) has the numbers of a page
    that holds nothing."""
    intent, filing = signals.intent, signals.filing
    lists_ = made.candidates
    if not pages:
        return ()
    fused = _places(fused_list)
    lexical, statements = _places(lists_.lexical), _places(lists_.statements)
    sections, expanded = _places(lists_.sections), _places(lists_.expanded)
    facts = _places(getattr(lists_, "facts", ()) or ())  # (the facts list, where lists.py makes one)
    kinds = {page: kind for page, kind, _ in signals.statements}
    kind_order = {kind: i for i, kind in enumerate(signals.kinds, start=1)}
    top_score = fused_list[0][1] if fused_list else 0.0
    best_bm25 = lists_.lexical[0][1] if lists_.lexical else None
    next_bm25 = {page: lists_.lexical[i + 1][1] for i, (page, _) in enumerate(lists_.lexical[:-1])}
    winner = clear_winner(lists_.lexical, intent, method._replace(dominance=method.dominance or 2.0))
    tables = set(asked_tables(lists_, intent))
    off = off_period(signals.periods, signals.shown, pages)
    evidence = {page: i for i, page in enumerate(evidence_list(pages, signals.passages, intent, tuple(tables), 0.0, off), 1)}
    # (why each candidate would be set aside: the filing's sets read for the candidates only)
    wanted = set(pages)
    aside = aside_reasons(wanted.intersection(definitions), wanted.intersection(filing.instruments), intent,
                          wanted.intersection(made.unnamed), wanted.intersection(filing.contents))
    named, exhibit_of = set(made.named), made.exhibit_of or {}
    read = {page: signals.pages.get(page, PageSignal()) for page in pages}
    leaders = {read[page].number for page in pages[:5] if read[page].number}
    first_number = read[pages[0]].number

    concepts = signals.concepts
    total = sum(c.weight for c in concepts) or 1.0
    ideas = [i for i, c in enumerate(concepts) if c.weight > 0]
    years = [i for i, c in enumerate(concepts) if c.year]
    rarest = max(ideas, key=lambda i: concepts[i].weight) if ideas else None
    passages = {page: signals.passages.get(page) for page in pages}
    best_passage = max((p.score for p in passages.values() if p is not None), default=0.0)
    best_coverage = max((p.coverage for p in passages.values() if p is not None), default=0.0)
    pages_count = max(filing.pages, 1)
    question = (
        len(signals.terms), len(ideas), sum(1 for i in ideas if not concepts[i].pages) / len(ideas) if ideas else 0.0,
        intent.named, len(signals.kinds), intent.topical, math.log1p(len(signals.sections)), intent.fact,
        intent.ratio, bool(signals.items), len(signals.exhibits) or len(made.exhibits), intent.definition,
        intent.instrument, intent.contents, intent.opening, len(signals.periods), signals.chinese,
        math.log(pages_count), len(years), math.log1p(len(signals.lexical)),
    )

    def share(held: frozenset, of: list) -> float:
        return len(held.intersection(of)) / len(of) if of else 0.0

    weight = [c.weight for c in concepts].__getitem__

    def weighed(held) -> float:  # (the weights added in the order of ``held``, as ever)
        return sum(map(weight, held)) / total

    def explained(info: PageSignal) -> list[frozenset]:
        return [on for line, on in info.on_lines if line in info.explained] if signals.reason else []

    best_explained = max((max(map(weighed, explained(read[page])), default=0.0) for page in pages), default=0.0)

    rows = []
    for place, page in enumerate(pages, start=1):
        info, passage = read[page], passages[page]
        on_lines = info.on_lines
        ons = [on for _, on in on_lines]
        held = frozenset().union(*ons) if ons else frozenset()
        line_weights = list(map(weighed, ons))
        bm25 = lexical.get(page, (0, None))[1]
        after = next_bm25.get(page)
        reasons = aside.get(page, ())
        stated = explained(info)
        stated_best = max(map(weighed, stated), default=0.0)
        row = (
            # fusion
            fused.get(page, (0,))[0], fused[page][1] / top_score if page in fused and top_score else 0.0,
            # lexical
            lexical.get(page, (0,))[0], bm25 / best_bm25 if bm25 is not None and best_bm25 else 0.0,
            bm25 / after if bm25 is not None and after else 1.0, page == winner,
            # statements
            statements.get(page, (0,))[0], kind_order.get(kinds.get(page), 0), info.statement is not None,
            page in tables,
            # sections
            sections.get(page, (0,))[0], info.origin == "title", info.origin in ("started", "statement"),
            info.origin == "carried", expanded.get(page, (0,))[0],
            # facts
            facts.get(page, (0,))[0],
            # passage
            passage.score if passage is not None else 0.0,
            best_passage - (passage.score if passage is not None else 0.0),
            evidence[page], passage.coverage if passage is not None else 0.0,
            best_coverage - (passage.coverage if passage is not None else 0.0),
            bool(passage is not None and passage.figure), math.log1p(info.rows),
            # ideas
            share(held, ideas), rarest is not None and rarest in held, bool(ideas) and set(ideas) <= held,
            max(line_weights, default=0.0),
            math.log1p(sum([rarest in on for on in ons])) if rarest is not None else 0.0,
            sum([w > 0 for w in line_weights]) / info.lines if info.lines else 0.0,
            weighed(frozenset().union(*[on for line, on in on_lines if line < TOP_LINES])),
            weighed(info.heading), share(info.heading, ideas), rarest is not None and rarest in info.heading,
            share(held, years) if years else 1.0, share(info.printed, years) if years else 1.0,
            # page
            info.digits / info.characters if info.characters else 0.0, math.log1p(info.lines),
            info.number / pages_count, bool(info.number) and bool({info.number - 1, info.number + 1} & leaders),
            math.log1p(abs(info.number - first_number)),
            # kinds
            "definitions" in reasons, "instrument" in reasons, "contents" in reasons, "unnamed" in reasons,
            page in signals.defining, page in off, page in named, page in exhibit_of,
            # reasons
            signals.reason, stated_best, best_explained - stated_best if signals.reason else 0.0,
            math.log1p(sum(1 for on in stated if on)), rarest is not None and any(rarest in on for on in stated),
            # question
            *question,
        )
        rows.append(tuple(map(float, row)))
    return tuple(rows)
