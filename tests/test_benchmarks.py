"""The benchmarks' own machinery, on the 12-page test filing: what they write is what ingest
writes, and a failed query is counted, never timed as an answer. (The benchmarks themselves are
run by hand: see docs/benchmarks.md and CONTRIBUTING.md.)"""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import subprocess
import sys

import pytest

from evfind import Finder
from evfind.ingest import ingest

from .conftest import REPO, write_jsonl
from .filing import PAGES
from .test_cli import CAPEX


def load(name: str):
    """benchmarks/NAME.py as a module (its main() is not run)."""
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", REPO / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def hardening():
    return load("hardening")


@pytest.fixture(scope="module")
def speed():
    return load("speed")


def common_words(db, document_id: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT c.word FROM common_words c JOIN documents d ON d.revision_id = c.revision_id "
            "WHERE d.document_id = ? ORDER BY c.word", (document_id,),
        ).fetchall()
    conn.close()
    return [word for (word,) in rows]


@pytest.fixture
def source(tmp_path):
    return write_jsonl(tmp_path / "bench.jsonl", PAGES)


@pytest.fixture
def expected(tmp_path, source):
    """The common words ingest stores for the test filing."""
    db = ingest(source, tmp_path / "reference.db", "bench").db_path
    words = common_words(db, "bench")
    assert {"widget", "table", "content"} <= set(words) and not set(words) & set("aeiou")  # words, not characters
    return words


@pytest.mark.parametrize("way", ["replace", "rollback", "wal"])
def test_hardening_writes_the_common_words_ingest_writes(hardening, tmp_path, source, expected, way):
    db = ingest(source, tmp_path / "filing.db", "ACME").db_path
    hardening.write_seconds(way, db, source)  # in this process
    assert common_words(db, "bench") == expected


@pytest.mark.parametrize("way", ["replace", "rollback"])
def test_hardening_writer_process_writes_the_common_words_ingest_writes(hardening, tmp_path, source, expected, way):
    db = ingest(source, tmp_path / "filing.db", "ACME").db_path
    done = subprocess.run(hardening.writer(way, db, [source]), capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert common_words(db, "bench") == expected


def test_speed_counts_the_queries_that_fail_in_process(speed, filing_db):
    report = speed.Report(None)
    with Finder(filing_db) as finder:
        assert speed.ask(finder, CAPEX, report)[0] == 10
        speed.in_process(finder, [CAPEX, "what is the"], report, repeat=3)  # no content words
    assert list(report.failures.values()) == [3]
    (failure,) = report.failures
    assert failure.startswith("NoContentWordsError: the question has no searchable content words")
    report.close()
    assert "every query answered (no evfind error, no process failed)" in {name for name, _, _ in report.targets}
    assert ("every query answered (no evfind error, no process failed)", "3 failed", False) in report.targets
    assert "  FAIL  every query answered (no evfind error, no process failed): 3 failed" in report.lines


def test_speed_counts_the_processes_that_fail(speed, filing_db):
    report = speed.Report(None)
    evfind = [sys.executable, "-m", "evfind", "query", str(filing_db)]
    speed.interleaved({
        "floor": [[sys.executable, "-c", "raise SystemExit(3)"]],  # a failed process
        "evfind finds nothing": [[*evfind, "zebra giraffe"]],  # exit 1: an answer, not a failure
        "evfind refuses": [[*evfind, "what is the"]],  # exit 2: no content words
    }, runs=1, env=speed.child_env(), report=report)
    assert sorted(report.failures.values()) == [2, 2]  # a warm-up run and a timed run each
    assert {what.split(":")[0] for what in report.failures} == {"exit 3", "exit 2"}
    report.close()
    assert ("every query answered (no evfind error, no process failed)", "4 failed", False) in report.targets


def test_speed_times_the_query_of_another_checkout(speed, filing_db, tmp_path):
    """--against DIR runs DIR's evfind, not the one installed: here a copy of this checkout whose
    `query` prints a mark of its own."""
    other = tmp_path / "other"
    (other / "evfind").mkdir(parents=True)
    (other / "evfind" / "__init__.py").write_text("", encoding="utf-8")
    (other / "evfind" / "__main__.py").write_text("def main():\n    print('the other checkout')\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", speed.AGAINST, str(other), "query", str(filing_db), CAPEX],
                          capture_output=True, text=True, cwd=tmp_path)
    assert (done.returncode, done.stdout) == (0, "the other checkout\n")
    done = subprocess.run([sys.executable, "-c", speed.AGAINST, str(REPO), "query", str(filing_db), CAPEX],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0 and "Consolidated Statements of Cash Flows" in done.stdout, done.stderr


def test_speed_passes_a_run_without_failures(speed):
    report = speed.Report(None)
    report.close()
    assert report.targets == [("every query answered (no evfind error, no process failed)", "0 failed", True)]


def test_evidence_lines_counts_what_a_user_reads(tmp_path, filing_pdf):
    """On the test filing: a gold first page counts where it has a label, and its first evidence
    line counts where it holds the labelled string (whitespace and case aside); a first page
    that is not gold counts only as a question."""
    bench = load("evidence_lines")
    labels = tmp_path / "labels.jsonl"
    labels.write_text("\n".join(json.dumps(r) for r in [
        {"id": "1", "doc_name": "ACME_2024_10K", "question": "What were capital expenditures in 2024?", "gold_pages": [10]},
        {"id": "2", "doc_name": "ACME_2024_10K", "question": "What was the effective tax rate in 2024?", "gold_pages": [11]},
        {"id": "3", "doc_name": "ACME_2024_10K", "question": CAPEX, "gold_pages": [9]},
        {"id": "4", "doc_name": "ACME_2024_10K", "question": "How much were dividends paid in 2024?", "gold_pages": [10]},
    ]) + "\n")
    answers = {
        ("labels.jsonl", "1"): {10: ("purchases of property,  PLANT and equipment",)},
        ("labels.jsonl", "2"): {11: ("Effective tax rate 22.0%",)},
        ("labels.jsonl", "3"): {9: ("Property, plant and equipment, net",)},
        ("labels.jsonl", "4"): {10: ("Net cash used in financing activities",)},  # on the page, not the line shown
    }
    tally = bench.measure(labels, "question", filing_pdf.parent, "labels.jsonl", tmp_path / "cache", answers)
    # (question 3's first page is not gold: it counts only as a question)
    assert (tally.questions, tally.top_gold, tally.labelled) == (4, 3, 3)
    assert (tally.first, tally.any, tally.on_page) == (2, 2, 3)
    assert [line.split("\t")[2] for line in tally.details] == ["first", "first", "miss"]
    assert bench.holds("Effective  tax rate 22.0% 22.0%", ("effective TAX rate",))
    assert not bench.holds("Statutory federal income tax rate 21.0%", ("Effective tax rate",))


def test_evidence_lines_reads_edgar_labels_of_the_first_gold_page():
    bench = load("evidence_lines")
    record = {"id": "e1", "gold_pages": [62, 70], "answer_text": "Additions to property, plant and equipment"}
    assert bench.labels_of(record, "edgar", {}) == {62: ("Additions to property, plant and equipment",)}
    assert bench.labels_of({**record, "answer_text": None}, "edgar", {}) is None


def test_evidence_lines_skips_without_the_folders(tmp_path):
    done = subprocess.run([sys.executable, "benchmarks/evidence_lines.py", "--financebench", tmp_path / "none",
                           "--edgar", tmp_path / "none"], capture_output=True, text=True, cwd=REPO)
    assert (done.returncode, done.stdout) == (0, "skipped: no FinanceBench or EDGAR folder (give them with --financebench, --edgar)\n")

def test_html_same_finds_the_same_ingest_the_same_and_a_changed_one_different(tmp_path):
    """benchmarks/html_same.py on an HTML filing written here: this checkout against itself is
    the same, every page's HTML compared; against a copy whose facts are shown otherwise it
    names the first fact that differs and exits 1."""
    import shutil

    from .html_filing import write_filing

    folder = tmp_path / "edgar"
    folder.mkdir()
    write_filing(folder / "mrw-20251231.htm")
    same = subprocess.run([sys.executable, "benchmarks/html_same.py", "--against", str(REPO), "--edgar", str(folder)],
                          capture_output=True, text=True, cwd=REPO)
    assert same.returncode == 0, same.stderr
    assert "mrw-20251231.htm" in same.stdout and " the same (" in same.stdout and " 0 page html" not in same.stdout
    assert same.stdout.endswith(f"1 of 1 filings ingest the same here as in {REPO}\n")
    changed = tmp_path / "changed"
    shutil.copytree(REPO / "evfind", changed / "evfind", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "schema.sql", changed / "schema.sql")
    xbrl = changed / "evfind" / "xbrl.py"
    source = xbrl.read_text(encoding="utf-8")
    assert "    value = text.strip()\n" in source
    xbrl.write_text(source.replace("    value = text.strip()\n", "    value = text.strip() + '!'\n"), encoding="utf-8")
    differs = subprocess.run([sys.executable, "benchmarks/html_same.py", "--against", str(changed), "--edgar", str(folder)],
                             capture_output=True, text=True, cwd=REPO)
    assert differs.returncode == 1, differs.stderr
    assert "DIFFERS at facts, line" in differs.stdout and "!\"" in differs.stdout
    assert differs.stdout.endswith(f"0 of 1 filings ingest the same here as in {changed}\n")


def test_train_ranker_never_trains_on_an_unspent_hold_out(tmp_path):
    """Every hold-out set retrieval.py reads is either development data of the learned stage
    (train_ranker.HOLDOUTS) or skipped: hold-out 8 (both halves), read since its first look, is
    never trained on; hold-out 7, spent, is trained on like the six before it."""
    trainer, retrieval = load("train_ranker"), load("retrieval")
    read = {name for name, *_ in retrieval.sets(tmp_path, tmp_path)}
    trained = read - set(trainer.SKIPPED)
    unspent = {f"holdout{n}{half}{zh}" for n in (8, 9) for half in ("", "-edgar") for zh in ("", "-zh")}
    assert unspent <= read
    assert not unspent & trained
    assert {"holdout7", "holdout7-zh"} <= trained
    assert {n for n in trained if n.startswith("holdout")} == {n for h in trainer.HOLDOUTS for n in (h, f"{h}-zh")}


@pytest.mark.parametrize("n, least", [(8, 15), (9, 15)])
def test_hold_outs_8_and_9_are_asked_of_their_own_folders_in_both_languages(tmp_path, n, least):
    """questions_holdoutN.jsonl on the PDFs, questions_holdoutN_edgar.jsonl on the EDGAR HTML
    filings: every question in both wordings, with gold pages, unique ids, and none repeating a
    question of another set (benchmarks/questions_holdout8.md, questions_holdout9.md)."""
    retrieval = load("retrieval")
    pdfs, edgar = tmp_path / "fb", tmp_path / "edgar"
    by_name = {name: (labels, field, sources) for name, labels, field, _, sources, _ in retrieval.sets(pdfs, edgar)}
    assert by_name[f"holdout{n}"][2] == by_name[f"holdout{n}-zh"][2] == pdfs / "pdfs"
    assert by_name[f"holdout{n}-edgar"][2] == by_name[f"holdout{n}-edgar-zh"][2] == edgar
    assert by_name[f"holdout{n}-zh"][1] == by_name[f"holdout{n}-edgar-zh"][1] == "question_zh"
    records = {}
    for name in (f"holdout{n}", f"holdout{n}-edgar"):
        rows = [json.loads(line) for line in by_name[name][0].read_text(encoding="utf-8").splitlines() if line.strip()]
        records[name] = rows
        for r in rows:
            assert r["question"] and r["question_zh"] and r["evidence"] and r["answer_text"], r["id"]
            assert r["gold_pages"] and all(isinstance(p, int) and p >= 1 for p in r["gold_pages"]), r["id"]
            assert r["style"] in {"financebench", "forms", "topic", "where"} and r["company"], r["id"]
            assert ("source_file" in r) == (name == f"holdout{n}-edgar"), r["id"]
    everything = [r for rows in records.values() for r in rows]
    assert len(records[f"holdout{n}"]) >= least and len(records[f"holdout{n}-edgar"]) >= least
    assert len({r["id"] for r in everything}) == len(everything)
    others = {json.loads(line).get("question", "").strip().lower()
              for path in (REPO / "benchmarks").glob("questions_*.jsonl") if f"holdout{n}" not in path.name
              for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}
    assert not {r["question"].strip().lower() for r in everything} & others


def test_the_unanswerable_questions_are_on_development_filings_only():
    """benchmarks/questions_unanswerable.jsonl: no gold page, both wordings, each on an EDGAR
    development filing (one questions_edgar.jsonl labels) and none on a filing of hold-out 7
    (the FinanceBench filings, kept free of them while hold-out 7 was unspent)."""
    trainer = load("train_ranker")
    records = [json.loads(line) for line in trainer.UNANSWERABLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    labelled = {json.loads(line)["doc_name"] for line in (REPO / "benchmarks" / "questions_edgar.jsonl").read_text(
        encoding="utf-8").splitlines() if line.strip()}
    spent = {json.loads(line)["doc_name"] for line in (REPO / "benchmarks" / "questions_holdout7.jsonl").read_text(
        encoding="utf-8").splitlines() if line.strip()}
    assert len(records) >= 20 and len({r["id"] for r in records}) == len(records)
    for record in records:
        assert record["gold_pages"] == [] and record["question"] and record["question_zh"] and record["absent"], record
        assert record["doc_name"] in labelled and record["doc_name"] not in spent, record["doc_name"]


def test_the_calibration_held_out_by_company_leaves_out_its_own_unanswerable_questions():
    """calibrated_loco with the unanswerable questions in the fit: a company's confidences come
    from a fit without its own questions, answered or not (here only company A has questions no
    page answers: A's confidences are those of the fit without them, B's are not)."""
    pytest.importorskip("numpy")
    trainer = load("train_ranker")
    width = len(trainer.features.NAMES)

    def question(company, gold, scores):
        pages = list(range(1, len(scores) + 1))
        return {"company": company, "gold": gold, "pages": pages, "rows": [[0.0] * width for _ in pages],
                "named": [False] * len(pages), "zh": False, "set": "x"}, [(p, s, False) for p, s in zip(pages, scores)]

    made = [question(c, {1 if k % 3 else 2}, [2.0 - 0.3 * k % 1.5, 1.0, 0.2]) for c in "ABC" for k in range(6)]
    questions, orders = [q for q, _ in made], {i: order for i, (_, order) in enumerate(made)}
    none = [question("A", set(), [3.0, 0.5, 0.1]) for _ in range(4)]
    unanswerable, unanswered = [q for q, _ in none], {j: order for j, (_, order) in enumerate(none)}
    inputs = ("score", "lead", "share")
    alone, alone_extra = trainer.calibrated_loco(questions, orders, inputs, 3, unanswerable, unanswered, False)
    fitted, fitted_extra = trainer.calibrated_loco(questions, orders, inputs, 3, unanswerable, unanswered, True)
    of = {c: [i for i, q in enumerate(questions) if q["company"] == c] for c in "ABC"}
    assert [fitted[i] for i in of["A"]] == [alone[i] for i in of["A"]]
    assert [fitted[i] for i in of["B"]] != [alone[i] for i in of["B"]]
    assert fitted_extra == alone_extra and set(fitted_extra) == {0, 1, 2, 3}
