"""Mine how filers word the rows of standard concepts: evfind/data/concepts.tsv.

    python scripts/mine_concepts.py --edgar ../shared/edgar        # rewrites evfind/data/concepts.tsv

For every ix:nonFraction of the inline-XBRL filings in the folder that has no dimensions (the
line item itself, not one of its members), the row label beside it: the first cell of the table
row that shows it (htmlread.py). A label is kept for a concept when the filings of at least two
companies put it beside that concept (so that no row is keyed to one company), when it names
at most two concepts across the filings (not a table's "Total", "Other" or "Thereafter"), and
when it holds no year (not "Balance as of December 31, 2024"). Companies are read from the
folder's README table. The concept's own name split into words is vocabulary too, computed
where it is used (evfind/concepts.py), so it is not written here.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
OUTPUT = REPO / "evfind" / "data" / "concepts.tsv"
MIN_COMPANIES = 2
MAX_CONCEPTS = 2


def companies(folder: Path) -> dict[str, str]:
    """{file: company} from the README's table."""
    found = {}
    for line in (folder / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if len(cells) > 3 and cells[1].startswith("`"):
            found[cells[1].strip("`")] = cells[2]
    return found


def label_key(label: str) -> str:
    """A row label as the vocabulary keeps it: lower case, footnote marks and punctuation out."""
    from evfind.concepts import label_key as key

    return key(label)


def mine(folder: Path) -> tuple[dict[str, dict[str, set[str]]], int]:
    from evfind.htmlread import read

    owners = companies(folder)
    seen: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    filings = 0
    for name, company in sorted(owners.items()):
        filing = read(folder / name)
        if not filing.facts:
            continue
        filings += 1
        for fact in filing.facts:
            if fact.kind != "numeric" or fact.dimensions or not fact.row_label:
                continue
            label = label_key(fact.row_label)
            if label and not re.search(r"\b(?:19|20)\d\d\b", label):
                seen[fact.concept][label].add(company)
    return seen, filings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edgar", type=Path, default=REPO.parent / "shared" / "edgar")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    seen, filings = mine(args.edgar)
    concepts_of: dict[str, set[str]] = defaultdict(set)
    for concept, labels in seen.items():
        for label, who in labels.items():
            if len(who) >= MIN_COMPANIES:
                concepts_of[label].add(concept)
    lines = [
        "# How filers word the row of a standard concept: concept, row labels (|-separated), source.",
        "#",
        "# Mined by scripts/mine_concepts.py from the row labels (the first cell of the table row)",
        "# beside the inline-XBRL facts without dimensions of the EDGAR development filings",
        f"# (/work/shared/edgar, {filings} filings with inline XBRL): a label is kept for a concept when",
        f"# the filings of at least {MIN_COMPANIES} companies put it there, it names at most {MAX_CONCEPTS} concepts across",
        "# the filings (not a table's Total or Other) and it holds no year. Labels are lower case,",
        "# footnote marks and punctuation out (evfind.concepts.label_key). A concept's own name split",
        "# into words is vocabulary too (evfind.concepts.concept_words) and is not written here.",
        "# Regenerate with the script; do not edit by hand.",
    ]
    for concept in sorted(seen):
        kept = sorted(
            (label for label, who in seen[concept].items()
             if len(who) >= MIN_COMPANIES and len(concepts_of[label]) <= MAX_CONCEPTS),
            key=lambda label: (-len(seen[concept][label]), label),
        )
        if not kept:
            continue
        counts = ", ".join(str(len(seen[concept][label])) for label in kept)
        source = (f"row labels beside {concept} in the inline XBRL of the EDGAR development filings "
                  f"(/work/shared/edgar), in the filings of {counts} companies")
        lines.append(f"{concept}\t{'|'.join(kept)}\t{source}")
    args.output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{args.output}: {len(lines) - 10} concepts")


if __name__ == "__main__":
    main()
