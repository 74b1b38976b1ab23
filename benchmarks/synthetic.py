"""A synthetic annual report of any length, for the scale runs of benchmarks/speed.py.

Deterministic (seeded) and fictional. Each page looks like a page of a 10-K: a running header,
headings where sections start, paragraphs of varied financial prose, the primary statements
with line items and numbers, notes with tables, a printed folio at the bottom. The text of
every page differs, so the index and the queries do real work; the size of a page (about
3 KB, 40 lines) is that of the FinanceBench filings.
"""

from __future__ import annotations

import random

COMPANY = "Northwind Instruments Inc."
YEARS = (2024, 2023, 2022)

ITEMS = [
    ("Item 1. Business", 0.04),
    ("Item 1A. Risk Factors", 0.10),
    ("Item 1B. Unresolved Staff Comments", 0.005),
    ("Item 2. Properties", 0.005),
    ("Item 3. Legal Proceedings", 0.01),
    ("Item 5. Market for Registrant's Common Equity", 0.01),
    ("Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations", 0.14),
    ("Item 7A. Quantitative and Qualitative Disclosures About Market Risk", 0.01),
    ("Item 8. Financial Statements and Supplementary Data", 0.0),  # the statements follow
    ("Notes to Consolidated Financial Statements", 0.55),
    ("Item 9A. Controls and Procedures", 0.01),
    ("Item 10. Directors, Executive Officers and Corporate Governance", 0.01),
    ("Exhibits and Financial Statement Schedules", 0.04),
]

NOTES = [
    "Summary of Significant Accounting Policies", "Revenue Recognition", "Acquisitions and Divestitures",
    "Goodwill and Intangible Assets", "Inventories", "Property, Plant and Equipment", "Leases",
    "Debt and Credit Facilities", "Income Taxes", "Pension and Postretirement Benefits",
    "Stock-Based Compensation", "Earnings Per Share", "Commitments and Contingencies",
    "Segment Information", "Derivatives and Hedging", "Fair Value Measurements",
    "Accumulated Other Comprehensive Income", "Restructuring", "Supplemental Cash Flow Information",
    "Quarterly Financial Data",
]

STATEMENTS = {
    "Consolidated Statements of Income": [
        "Net sales", "Cost of sales", "Gross profit", "Research, development and engineering",
        "Selling, general and administrative expenses", "Restructuring charges", "Operating income",
        "Interest expense", "Interest income", "Other (income) expense, net",
        "Income before income taxes", "Provision for income taxes", "Net income",
        "Net income attributable to noncontrolling interest", "Net income per share, basic",
        "Net income per share, diluted", "Weighted average shares outstanding, basic",
        "Weighted average shares outstanding, diluted",
    ],
    "Consolidated Balance Sheets": [
        "Cash and cash equivalents", "Marketable securities", "Accounts receivable, net", "Inventories",
        "Prepaid expenses and other current assets", "Total current assets",
        "Property, plant and equipment, net", "Operating lease right-of-use assets", "Goodwill",
        "Intangible assets, net", "Other assets", "Total assets", "Short-term borrowings",
        "Accounts payable", "Accrued payroll", "Accrued income taxes", "Total current liabilities",
        "Long-term debt", "Pension and postretirement benefits", "Total liabilities",
        "Common stock", "Retained earnings", "Treasury stock, at cost", "Total shareholders' equity",
        "Total liabilities and shareholders' equity",
    ],
    "Consolidated Statements of Cash Flows": [
        "Net income", "Depreciation and amortization", "Stock-based compensation expense",
        "Deferred income taxes", "Changes in accounts receivable", "Changes in inventories",
        "Changes in accounts payable", "Net cash provided by operating activities",
        "Purchases of property, plant and equipment", "Acquisitions, net of cash acquired",
        "Purchases of marketable securities", "Proceeds from sale of businesses",
        "Net cash used in investing activities", "Proceeds from issuance of long-term debt",
        "Repayment of long-term debt", "Purchases of treasury stock", "Dividends paid to shareholders",
        "Net cash used in financing activities", "Effect of exchange rate changes on cash",
        "Net increase (decrease) in cash and cash equivalents", "Cash and cash equivalents at end of year",
    ],
}

SUBJECTS = [
    "net sales", "organic growth", "operating margin", "gross margin", "the effective tax rate",
    "free cash flow", "capital expenditures", "working capital", "inventory levels",
    "the pension obligation", "foreign currency translation", "raw material costs",
    "the revolving credit facility", "share repurchases", "dividends", "goodwill impairment testing",
    "the restructuring program", "customer concentration", "supply chain disruptions",
    "warranty reserves", "deferred revenue", "lease liabilities", "commercial paper",
    "environmental remediation", "product liability claims", "cybersecurity incidents",
    "tariffs and trade policy", "interest rate risk", "the Industrial segment", "the Safety segment",
    "the Health Care segment", "the Consumer segment", "Asia Pacific", "Europe, Middle East and Africa",
    "Latin America", "the United States",
]
VERBS = [
    "increased", "decreased", "reflected", "was affected by", "benefited from", "was offset by",
    "included", "excluded", "depended on", "was driven by", "remained consistent with",
    "was partially offset by", "compared favorably with", "was recognized in",
]
OBJECTS = [
    "higher selling prices", "lower volumes in consumer electronics", "productivity actions",
    "the divestiture of the drug delivery business", "litigation charges", "higher energy costs",
    "favorable currency movements", "the acquisition completed in the second quarter",
    "incremental investments in research", "a discrete tax benefit", "lower pension expense",
    "increased spending on automation", "stronger demand in health care", "timing of shipments",
    "accelerated depreciation", "the adoption of new accounting guidance", "softer industrial demand",
]
CLAUSES = [
    "as described in Note {n}", "compared with the prior year", "on a constant currency basis",
    "in each of the last three fiscal years", "during the fourth quarter of {y}",
    "as of December 31, {y}", "excluding special items", "net of tax", "within the segment",
    "for the year ended December 31, {y}",
]


def _sentence(rng: random.Random) -> str:
    subject = rng.choice(SUBJECTS)
    text = f"{subject[0].upper()}{subject[1:]} {rng.choice(VERBS)} {rng.choice(OBJECTS)}"
    if rng.random() < 0.7:
        text += " " + rng.choice(CLAUSES).format(n=rng.randint(1, 20), y=rng.choice(YEARS))
    if rng.random() < 0.5:
        text += f", a change of ${rng.randint(5, 2400)} million or {rng.randint(1, 40)}.{rng.randint(0, 9)} percent"
    return text + "."


def _paragraph_lines(rng: random.Random, lines: int) -> list[str]:
    words = " ".join(_sentence(rng) for _ in range(lines * 2)).split()
    out, line = [], []
    for word in words:
        line.append(word)
        if sum(len(w) + 1 for w in line) > 80:
            out.append(" ".join(line))
            line = []
        if len(out) == lines:
            break
    return out


def _money(rng: random.Random) -> str:
    value = rng.randint(10, 40000) / 10
    return f"({value:,.1f})" if rng.random() < 0.2 else f"{value:,.1f}"


def _statement_lines(rng: random.Random, title: str) -> list[str]:
    lines = [COMPANY, title, "(In millions, except per share amounts)",
             "Years ended December 31, " + " ".join(str(y) for y in YEARS)]
    for item in STATEMENTS[title]:
        lines.append(f"{item} " + " ".join(_money(rng) for _ in YEARS))
    return lines


def _table_lines(rng: random.Random, subject: str, rows: int) -> list[str]:
    lines = [f"The following table summarizes {subject} (in millions):", "  ".join(str(y) for y in YEARS[:2])]
    for _ in range(rows):
        lines.append(f"{rng.choice(SUBJECTS).capitalize()} {_money(rng)} {_money(rng)}")
    return lines


def pages(count: int, seed: int = 2024) -> list[str]:
    """``count`` pages of text (count >= 20), in page order, every page different."""
    rng = random.Random(seed)
    plan: list[tuple[str, str]] = []  # (kind, heading) per page
    body = count - 8
    plan.append(("cover", ""))
    plan.append(("toc", ""))
    for heading, share in ITEMS:
        if heading.startswith("Item 8."):
            for title in STATEMENTS:
                plan.append(("statement", title))
            continue
        n = max(1, round(body * share))
        if heading.startswith("Notes"):
            per_note = max(1, n // len(NOTES))
            for number, note in enumerate(NOTES, start=1):
                for i in range(per_note):
                    plan.append(("note", f"Note {number}. {note}" if i == 0 else ""))
            continue
        for i in range(n):
            plan.append(("item", heading if i == 0 else ""))
    while len(plan) < count:  # fill with more notes continued
        plan.insert(len(plan) - 3, ("note", ""))
    plan = plan[:count - 1] + [("signatures", "")]

    out = []
    for number, (kind, heading) in enumerate(plan, start=1):
        lines = [f"{COMPANY} | {YEARS[0]} Form 10-K"]
        if kind == "cover":
            lines += ["UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "Washington, D.C. 20549", "FORM 10-K",
                      f"For the fiscal year ended December 31, {YEARS[0]}", COMPANY]
        elif kind == "toc":
            lines += ["Table of Contents"] + [f"{h} {i * 7 + 3}" for i, (h, _) in enumerate(ITEMS)]
        elif kind == "statement":
            lines += _statement_lines(rng, heading)
        elif kind == "signatures":
            lines += ["SIGNATURES", "Pursuant to the requirements of the Securities Exchange Act of 1934,"]
        else:
            if heading:
                lines.append(heading)
            lines += _paragraph_lines(rng, rng.randint(26, 36))
            if rng.random() < 0.45:
                lines += _table_lines(rng, rng.choice(SUBJECTS), rng.randint(8, 16))
            if rng.random() < 0.3:
                lines.append(rng.choice(SUBJECTS).capitalize())  # a subheading
                lines += _paragraph_lines(rng, rng.randint(6, 10))
        lines.append(str(number))
        out.append("\n".join(lines))
    return out


def revise(texts: list[str], revision: int) -> list[str]:
    """Revision ``revision`` of a filing: a few pages with numbers restated (new bytes)."""
    rng = random.Random(revision)
    revised = list(texts)
    for index in rng.sample(range(len(texts)), k=max(1, len(texts) // 50)):
        revised[index] = revised[index] + f"\nRestated in amendment No. {revision}: {rng.randint(100, 999)}.{rng.randint(0, 9)}"
    return revised


QUESTIONS = [
    "What were capital expenditures in 2024? Use the cash flow statement.",
    "Where is the reconciliation of the effective tax rate?",
    "Is the company involved in any product liability claims or legal proceedings?",
    "What were total current assets at the end of 2024 according to the balance sheet?",
    "What was cost of sales in 2023 according to the income statement?",
    "How did foreign currency translation affect net sales in Asia Pacific?",
    "What is the amount of goodwill impairment testing disclosed?",
    "Which segment had the highest operating margin?",
]
