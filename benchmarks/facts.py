"""Facts benchmark: what the inline-XBRL facts list adds to the ranking of the EDGAR questions, and
how often a right first page's hit lists the facts and shows the figure's line.

    python benchmarks/facts.py --edgar ../shared/edgar [--cache DIR] [--out benchmarks/facts.txt] [--listed-only]

The EDGAR questions (``benchmarks/questions_edgar.jsonl``, in English and in Chinese) are asked of
their own filings (ingested once, cached under --cache) with DEFAULT and with the pages tagging
the asked concepts (``Signals.facts``, concepts.lookup) fused as a list of their own, at each
weight of ``WEIGHTS``, for questions asking a figure (``facts_for="fact"``) or for all:

- in-sample: hit@1, hit@3 and hit@5 of each setting, English and Chinese;
- leave-one-company-out (``evaluate.company_of``): each company's questions ranked with the setting
  that scores best (``evaluate.objective``, both languages pooled) on the other companies';
- with DEFAULT: of the questions whose first page is gold, the share whose hit lists facts of that
  page (``Hit.facts``), for the fact questions and for all; the share whose page tags any fact at
  all (the ceiling: a page of the Business or MD&A items, or of a filing without inline XBRL, tags
  none); the share of those whose listed facts
  include one beside the labelled answer (its row label is the labelled line's, or in it); and the
  share whose first evidence line holds the labelled answer (``answer_text``, as
  benchmarks/evidence_lines.py reads it);
- for the fact questions' right first pages, the facts the hit lists judged by hand
  (``benchmarks/facts_judged.tsv``: does a reader call it the figure asked for, its line item,
  member and period): the share of pages listing a matching fact (of them all, and of those that
  tag any fact) and the share of listed facts that match, with pagefacts' defaults and as hits
  listed them before (the ranking's lookup, ``Lookup.on_page``) and as the hits list them now (``Hit.facts``:
  those the page tags, and on a page that lists none, those it prints that another page tags,
  ``printedfacts``); pagefacts' LEAST and NEAR chosen
  without each company from ``GRID`` (English and Chinese pooled) and what the held-out company's
  hits then list; and printedfacts.WORDS chosen the same way from ``WORDS_GRID`` over the hits'
  facts as they list them. ``--listed-only`` skips the rankings' settings.

Only figures are printed. Without the EDGAR folder the benchmark says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from evidence_lines import fold  # noqa: E402

from evfind import Finder, __version__, factstore, pagefacts  # noqa: E402
from evfind.evaluate import company_of, database_for, evaluate, leave_one_company_out, load_labels  # noqa: E402
from evfind.rank import DEFAULT  # noqa: E402

QUESTIONS = REPO / "benchmarks" / "questions_edgar.jsonl"
JUDGED = REPO / "benchmarks" / "facts_judged.tsv"  # the listed facts judged by hand: matching or not
PRINTED = "(printed)"  # facts_judged.tsv's concept of a figure no page tags (pagefigures), judged by label and value
GRID = [(least, near) for least in (0.4, 0.5, 0.6, 0.7) for near in (0.7, 0.85, 0.95, 1.0)]  # pagefacts' LEAST, NEAR
WEIGHTS = (0.3, 0.5, 1.0)
WORDS_GRID = (0.5, 0.6, 0.75, 0.9, 1.0)  # printedfacts.WORDS
FIELDS = {"en": "question", "zh": "question_zh"}


def settings() -> dict[str, object]:
    """Every setting measured, by name: DEFAULT, and the facts list at each weight and scope."""
    found = {"no facts list": DEFAULT._replace(facts_weight=0.0, facts_for="fact")}
    for scope in ("fact", "all"):
        for weight in WEIGHTS:
            found[f"facts {weight} ({scope})"] = DEFAULT._replace(facts_weight=weight, facts_for=scope)
    return found


def ranked(records: list[dict], edgar: Path, cache: Path) -> dict[str, dict[str, object]]:
    """setting -> language -> Report."""
    return {
        name: {lang: evaluate(records, pdfs=edgar, cache=cache, question_field=field, group_field="question_type",
                              finder_options={"method": method})
               for lang, field in FIELDS.items()}
        for name, method in settings().items()
    }


def row(report) -> str:
    t = report.table()["all"]
    return f"{t['hit@1']:.3f} / {t['hit@3']:.3f} / {t['hit@5']:.3f}"


def beside(fact: dict, answer: str) -> bool:
    """Is a listed fact beside the labelled answer: its row label the labelled line's, or in it?"""
    label = fold(fact.get("row_label") or "")
    return bool(label) and (label in fold(answer) or fold(answer) in label)


def judged() -> dict[tuple[str, str, str, str], bool]:
    """(question id, concept, dimensions, period) -> does a reader call the fact the one asked for."""
    found = {}
    for line in JUDGED.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            qid, concept, dimensions, period, value, label, mark = line.split("\t")
            if concept == PRINTED:  # a figure the page prints and no page tags: known by its label and value
                dimensions = f"{label}|{value}"
            found[qid, concept, dimensions, period] = mark == "y"
    return found


def key(record: dict, fact) -> tuple[str, str, str, str]:
    if not fact.tagged:
        return record["id"], PRINTED, f"{fact.row_label}|{fact.value}", fact.period or ""
    return record["id"], fact.concept, fact.dimensions or "", fact.period


class Listed:
    def __init__(self):
        self.before = []  # (record, the facts the ranking's lookup matched on the page, as hits listed them before)
        self.pages = []  # (company, question id, pagefacts.Asked, the page's fact rows, rarity) of right first fact pages
        self.right = self.listed = self.beside = self.labelled = self.line = 0
        self.fact_right = self.fact_listed = self.fact_beside = 0
        self.tags = self.fact_tags = 0  # right first pages that tag any fact at all (the ceiling)
        self.no_xbrl = 0  # right first fact pages of a filing that tags no fact at all
        self.shown = []  # (record, the facts the hit lists: tagged on its page, or printed there and tagged elsewhere)


def listed(records: list[dict], edgar: Path, cache: Path, field: str) -> Listed:
    """With DEFAULT: the right first pages, the facts their hits list, their evidence lines."""
    tally = Listed()
    finders: dict[str, Finder] = {}
    try:
        for record in records:
            doc = record["doc_name"]
            if doc not in finders:
                finders[doc] = Finder(database_for(doc, edgar, None, cache))
            answer = finders[doc].answer(record[field])
            top = answer.results[0] if answer.results else None
            if top is None or top.page_number not in record["gold_pages"]:
                continue
            fact = record["question_type"] == "fact"
            facts = [f.to_dict() for f in top.facts]
            text = record.get("answer_text")
            near = bool(text) and any(beside(f, text) for f in facts)
            tally.right += 1
            tags = bool(factstore.facts_on_pages(finders[doc].conn, [page_id(finders[doc], top.page_number)]))
            tally.tags += tags
            tally.fact_tags += fact and tags
            tally.no_xbrl += fact and not tags and not factstore.fact_count(finders[doc].conn, finders[doc].revision.revision_id)
            tally.listed += bool(facts)
            tally.beside += near
            tally.fact_right += fact
            tally.fact_listed += fact and bool(facts)
            tally.fact_beside += fact and near
            if fact:
                finder = finders[doc]
                rows = factstore.facts_on_pages(finder.conn, [page_id(finder, top.page_number)])
                ideas = {c.label: c.weight for c in finder._concepts(answer.parsed) if not c.filer}
                rarity = finder._hit_facts.rarity if finder._hit_facts else {}
                asked = finder._hit_facts.asked(answer.parsed, ideas) if finder._hit_facts else pagefacts.asked(answer.parsed, ideas)
                tally.pages.append((company_of(record), record, asked, rows, rarity))
                pid = page_id(finder, top.page_number)
                tally.before.append((record, finder._facts(answer.parsed).on_page(pid)[:5]))
                tally.shown.append((record, top.facts))
            if text and top.page_number == record["gold_pages"][0]:
                tally.labelled += 1
                tally.line += bool(top.evidence) and fold(text) in fold(top.evidence[0][1])
    finally:
        for finder in finders.values():
            finder.close()
    return tally


def page_id(finder: Finder, number: int) -> int:
    row = finder.conn.execute("SELECT id FROM pages WHERE revision_id = ? AND page_number = ?",
                              (finder.revision.revision_id, number)).fetchone()
    return row[0]


def precise(pages, least: float, near: float, marks) -> tuple[int, int, int, int, dict]:
    """At this setting: (pages listing a matching fact, facts listed, matching, not judged) and
    the same per company."""
    total, by_company = [0, 0, 0, 0], {}
    for company, record, asked, rows, rarity in pages:
        facts = pagefacts.listed(asked, rows, rarity, least, near)
        good = [marks.get(key(record, f)) for f in facts]
        counts = (any(g is True for g in good), len(facts), sum(g is True for g in good), sum(g is None for g in good))
        entry = by_company.setdefault(company, [0, 0, 0, 0])
        for i, n in enumerate(counts):
            total[i] += n
            entry[i] += n
    return (*total, by_company)


def objective(pages_right: int, pages: int, listed_n: int, matching: int) -> float:
    """F1 of the pages that list a matching fact (of the right first pages) and the listed facts'
    precision."""
    recall, precision = pages_right / pages if pages else 0.0, matching / listed_n if listed_n else 0.0
    return 2 * recall * precision / (recall + precision) if recall + precision else 0.0


def precision_lines(tally: Listed, lang: str, marks) -> list[str]:
    """The listed facts' recall and precision with pagefacts' defaults, and before (the facts of the
    ranking's lookup on the page, as hits listed them until pagefacts)."""
    pages = tally.pages
    default = (pagefacts.LEAST, pagefacts.NEAR)
    d = precise(pages, *default, marks)
    lines = [f"  {lang}: with pagefacts LEAST={default[0]}, NEAR={default[1]}: a matching fact listed (judged by hand):"
             f" {share(d[0], len(pages))}; of the pages that tag any fact: {share(d[0], tally.fact_tags)};"
             f" listed facts that match: {share(d[2], d[1])} ({d[3]} not judged)"]
    good = [[marks.get(key(record, f)) for f in facts] for record, facts in tally.shown]
    printed = [[marks.get(key(record, f)) for f in facts if f.line is not None and f.tagged] for record, facts in tally.shown]
    untagged = [[marks.get(key(record, f)) for f in facts if not f.tagged] for record, facts in tally.shown]
    lines.append(f"  {lang}: the hits as they list facts (tagged on the page, or printed there and tagged on another page,"
                 f" printedfacts, or printed there and tagged nowhere, pagefigures): a matching fact listed {share(sum(any(g is True for g in gs) for gs in good), len(pages))};"
                 f" listed facts that match: {share(sum(g is True for gs in good for g in gs), sum(map(len, good)))}"
                 f" ({sum(g is None for gs in good for g in gs)} not judged); of them printed and tagged on another page:"
                 f" {share(sum(g is True for gs in printed for g in gs), sum(map(len, printed)))} match,"
                 f" on {sum(bool(gs) for gs in printed)} pages; printed and tagged on no page (pagefigures):"
                 f" {share(sum(g is True for gs in untagged for g in gs), sum(map(len, untagged)))} match,"
                 f" on {sum(bool(gs) for gs in untagged)} pages")
    good = [[marks.get(key(record, f)) for f in facts] for record, facts in tally.before]
    lines.append(f"  {lang}: before (the ranking's lookup, Lookup.on_page): a matching fact listed"
                 f" {share(sum(any(g is True for g in gs) for gs in good), len(pages))}; listed facts that match:"
                 f" {share(sum(g is True for gs in good for g in gs), sum(map(len, good)))}"
                 f" ({sum(g is None for gs in good for g in gs)} not judged)")
    return lines


def loco_lines(tallies: dict[str, Listed], marks) -> list[str]:
    """pagefacts' LEAST and NEAR chosen without each company (GRID; English and Chinese pooled, as
    ``objective`` scores them), and what the held-out company's hits then list, each language."""
    pooled = [page for tally in tallies.values() for page in tally.pages]
    results = {setting: precise(pooled, *setting, marks) for setting in GRID}
    default = (pagefacts.LEAST, pagefacts.NEAR)
    chosen = {}
    for company in sorted({p[0] for p in pooled}):
        def without(setting):
            rest = [sum(v[i] for c, v in results[setting][4].items() if c != company) for i in range(4)]
            return objective(rest[0], sum(1 for p in pooled if p[0] != company), rest[1], rest[2])
        chosen[company] = max(GRID, key=lambda s: (round(without(s), 9), s == default))
    lines = []
    for lang, tally in tallies.items():
        held = [0, 0, 0, 0]
        for company, setting in chosen.items():
            got = precise([p for p in tally.pages if p[0] == company], *setting, marks)
            for i in range(4):
                held[i] += got[i]
        lines.append(f"  {lang}, leave-one-company-out: a matching fact listed {share(held[0], len(tally.pages))};"
                     f" listed facts that match: {share(held[2], held[1])}")
    best = max(GRID, key=lambda s: (round(objective(results[s][0], len(pooled), results[s][1], results[s][2]), 9), s == default))
    lines.append(f"  (LEAST, NEAR) chosen on every company at once: {best}; without each company: "
                 + ", ".join(f"{c}: {s}" for c, s in chosen.items()))
    return lines


def printed_loco_lines(records, edgar: Path, cache: Path, marks) -> list[str]:
    """printedfacts.WORDS (the share of a fact's phrase the words beside a printed figure must
    say) chosen without each company from ``WORDS_GRID`` (``objective`` over the hits' facts as
    they list them, English and Chinese pooled), and what the held-out company's hits then list."""
    from evfind import printedfacts

    saved, counts = printedfacts.WORDS, {}  # words -> lang -> company -> [pages listing a match, pages, listed, matching]
    try:
        for words in WORDS_GRID:
            printedfacts.WORDS = words
            for lang, field in FIELDS.items():
                by_company = counts.setdefault(words, {}).setdefault(lang, {})
                for record, facts in listed(records, edgar, cache, field).shown:
                    good = [marks.get(key(record, f)) for f in facts]
                    entry = by_company.setdefault(company_of(record), [0, 0, 0, 0])
                    for i, n in enumerate((any(g is True for g in good), 1, len(facts), sum(g is True for g in good))):
                        entry[i] += n
    finally:
        printedfacts.WORDS = saved

    def score(words, keep) -> float:
        total = [sum(v[i] for lang in counts[words].values() for c, v in lang.items() if keep(c)) for i in range(4)]
        return objective(total[0], total[1], total[2], total[3])

    companies = sorted({c for lang in counts[saved].values() for c in lang})
    chosen = {c: max(WORDS_GRID, key=lambda w: (round(score(w, lambda o: o != c), 9), w == saved)) for c in companies}
    lines = []
    for lang in FIELDS:
        held = [sum(counts[chosen[c]][lang].get(c, [0] * 4)[i] for c in companies) for i in range(4)]
        lines.append(f"  {lang}, leave-one-company-out (printedfacts.WORDS): a matching fact listed {share(held[0], held[1])};"
                     f" listed facts that match: {share(held[3], held[2])}")
    lines.append(f"  printedfacts.WORDS (default {saved}) chosen on every company at once:"
                 f" {max(WORDS_GRID, key=lambda w: (round(score(w, lambda o: True), 9), w == saved))}; without each company: "
                 + ", ".join(f"{c}: {w}" for c, w in chosen.items()))
    for words in WORDS_GRID:
        lines.append(f"    WORDS {words}: " + "; ".join(
            f"{lang} {share(sum(v[0] for v in counts[words][lang].values()), sum(v[1] for v in counts[words][lang].values()))}"
            f" pages, {share(sum(v[3] for v in counts[words][lang].values()), sum(v[2] for v in counts[words][lang].values()))} facts match"
            for lang in FIELDS))
    return lines


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.3f})" if whole else "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edgar", type=Path, default=REPO.parent / "shared" / "edgar", help="the EDGAR filings' folder")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "evfind" / "bench")
    parser.add_argument("--out", type=Path, help="also write the report to this file")
    parser.add_argument("--listed-only", action="store_true", help="only the facts listed (not the rankings' settings)")
    args = parser.parse_args()
    if not args.edgar.is_dir():
        print(f"skipped: no EDGAR folder at {args.edgar} (give it with --edgar)")
        return 0
    started = time.perf_counter()
    records = load_labels(QUESTIONS)
    lines = [
        f"evfind {__version__} facts benchmark, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}",
        f"{len(records)} EDGAR questions of {len({company_of(r) for r in records})} companies, each in English and Chinese.",
    ] if args.listed_only else []
    if not args.listed_only:
        lines += ranking_lines(records, args.edgar, args.cache)
    lines += ["With DEFAULT, of the questions whose first page is gold (fact questions, all):"]
    marks = judged()
    tallies = {}
    for lang, field in FIELDS.items():
        t = tallies[lang] = listed(records, args.edgar, args.cache, field)
        lines += [
            f"  {lang}: the hit lists facts of that page: {share(t.fact_listed, t.fact_right)}, {share(t.listed, t.right)};"
            f" one beside the labelled answer: {share(t.fact_beside, t.fact_right)}, {share(t.beside, t.right)}",
            f"  {lang}: the page tags any fact at all (the ceiling): {share(t.fact_tags, t.fact_right)}, {share(t.tags, t.right)};"
            f" of the fact pages that tag none, {t.no_xbrl} are of a filing without inline XBRL,"
            f" {t.fact_right - t.fact_tags - t.no_xbrl} untagged pages of one with it",
            f"  {lang}: first evidence line holds the labelled answer (first gold page): {share(t.line, t.labelled)}",
            *precision_lines(t, lang, marks),
        ]
    lines += loco_lines(tallies, marks)
    lines += printed_loco_lines(records, args.edgar, args.cache, marks)
    lines += ["", f"({time.perf_counter() - started:.0f} s)"]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


def ranking_lines(records, edgar: Path, cache: Path) -> list[str]:
    """hit@1/3/5 of each setting, in-sample and leave-one-company-out."""
    results = ranked(records, edgar, cache)
    default = next(name for name, method in settings().items() if method == DEFAULT)
    loco = leave_one_company_out(results, default)
    lines = [
        f"evfind {__version__} facts benchmark, Python {platform.python_version()}, {time.strftime('%Y-%m-%d')}",
        f"{len(records)} EDGAR questions of {len({company_of(r) for r in records})} companies, each in English and Chinese.",
        f"DEFAULT: facts_weight={DEFAULT.facts_weight}, facts_for={DEFAULT.facts_for}.",
        "",
        "hit@1 / hit@3 / hit@5, in-sample:",
        f"{'setting':<22}  {'English':<21}  Chinese",
    ]
    for name, reports in results.items():
        lines.append(f"{name:<22}  {row(reports['en']):<21}  {row(reports['zh'])}")
    lines += [
        "",
        f"leave-one-company-out: {row(loco.held_out['en'])} (English), {row(loco.held_out['zh'])} (Chinese);"
        f" chosen on every company at once: {loco.in_sample}",
        "chosen without each company: " + ", ".join(f"{c}: {s}" for c, s in sorted(loco.chosen.items())),
        "",
    ]
    return lines


if __name__ == "__main__":
    sys.exit(main())
