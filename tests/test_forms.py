"""forms.py on page texts written here: the form, the exhibits, Items by the form's numbering,
the sections of an earnings release."""

from __future__ import annotations

import sqlite3

import pytest

from evfind import store

from evfind.forms import (
    Exhibit,
    analyse,
    item_line,
    exhibit_kind,
    exhibit_start,
    exhibits,
    form_of,
    item_label,
    part_of,
    reflow,
    release_sections,
    titled_item,
)

from .conftest import write_jsonl
from .pdfgen import make_pdf

# A short 10-Q: cover, contents, Part I (statements, MD&A, market risk), Part II (legal
# proceedings, repurchases, exhibits), a certification.
TEN_Q = [
    # 1
    """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-Q
QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the quarterly period ended March 31, 2024
Acme Widgets Inc.""",
    # 2
    """Table of Contents
PART I. FINANCIAL INFORMATION
Item 1. Financial Statements 3
Item 2. Management's Discussion and Analysis of Financial Condition and Results of Operations 4
Item 3. Quantitative and Qualitative Disclosures About Market Risk 5
PART II. OTHER INFORMATION
Item 1. Legal Proceedings 6
Item 2. Unregistered Sales of Equity Securities and Use of Proceeds 6
Item 6. Exhibits 7""",
    # 3
    """PART I. FINANCIAL INFORMATION
Item 1. Financial Statements
Condensed Consolidated Statements of Income
Net sales $ 210.5 $ 190.2
Cost of sales 130.0 120.1
Gross profit 80.5 70.1
Operating income 30.0 26.0
Net income $ 20.1 $ 17.3
Net income per share, diluted $ 0.67 $ 0.58""",
    # 4
    """Item 2. Management's Discussion and Analysis of Financial Condition and Results of Operations
Net sales rose 11 percent in the quarter on higher widget volumes.""",
    # 5
    """Item 3. Quantitative and Qualitative Disclosures About Market Risk
Our exposure to interest rates has not changed materially since our annual report.""",
    # 6
    """Item 1. Legal Proceedings
See Note 7 of the financial statements.
Item 2. Unregistered Sales of Equity Securities and Use of Proceeds
Period Total number of shares purchased Average price paid per share
January 2024 10,000 $ 51.20""",
    # 7
    """Item 6. Exhibits
Exhibit Number Description
31.1 Certification of the Chief Executive Officer pursuant to Rule 13a-14(a)
32.1 Certification pursuant to 18 U.S.C. Section 1350
101.INS Inline XBRL Instance Document""",
    # 8
    """Exhibit 31.1
CERTIFICATION
I, Jane Roe, certify that I have reviewed this quarterly report on Form 10-Q of Acme Widgets Inc.""",
]

# An 8-K that attaches a credit agreement (with a running header on its second page) and a
# press release.
EIGHT_K = [
    # 1
    """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
FORM 8-K
CURRENT REPORT
Pursuant to Section 13 or 15(d) of the Securities Exchange Act of 1934
Acme Widgets Inc.""",
    # 2
    """Item 1.01 Entry into a Material Definitive Agreement.
On May 1, 2024 the Company entered into a Five-Year Credit Agreement, a copy of which is filed as
Exhibit 10.1 to this Current Report and is incorporated herein by reference.
Item 2.03 Creation of a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement of a Registrant.
The information set forth under Item 1.01 is incorporated herein by reference.
Item 5.02 Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers; Compensatory Arrangements of Certain Officers.
On May 1, 2024 John Doe resigned as Chief Financial Officer.""",
    # 3
    """Item 9.01 Financial Statements and Exhibits.
(d) Exhibits
Exhibit No. Description
10.1 Five-Year Credit Agreement, dated as of May 1, 2024, among Acme Widgets Inc., the lenders party thereto and First Bank, as administrative agent.
99.1 Press release of Acme Widgets Inc. dated May 2, 2024.
104 Cover Page Interactive Data File (embedded within the Inline XBRL document).""",
    # 4
    """Exhibit 10.1
EXECUTION VERSION
U.S. $2,000,000,000
FIVE-YEAR CREDIT AGREEMENT
dated as of May 1, 2024
among ACME WIDGETS INC., THE LENDERS PARTY HERETO and FIRST BANK, as Administrative Agent""",
    # 5
    """Exhibit 10.1
"Applicable Margin" means, for any day, the rate per annum set forth below.
"Consolidated EBITDA" means net income plus interest expense, taxes, depreciation and amortization.""",
    # 6
    """ARTICLE VI
Negative Covenants
The Borrower will not permit the Leverage Ratio to exceed 3.50 to 1.00.""",
    # 7
    """EXHIBIT 99.1
Acme Widgets Announces New Credit Facility
SPRINGFIELD, Ill., May 2, 2024 -- Acme Widgets Inc. (NYSE: ACME) today announced a new $2.0 billion
five-year revolving credit facility.
2024 Outlook
The Company expects interest expense of $40 million for the year.""",
]

# A stand-alone earnings release.
RELEASE = [
    # 1
    """Acme Widgets Reports Fourth Quarter and Full-Year 2024 Results;
Raises 2025 Guidance
SPRINGFIELD, Ill., February 6, 2025 -- Acme Widgets Inc. (NYSE: ACME) today reported results for the fourth quarter.
Fourth Quarter Highlights
Net sales of $230.1 million, up 9 percent.
Adjusted EPS of $1.12, up 14 percent.""",
    # 2
    """Net sales growth came from both segments as widget volumes rose.
2025 Outlook
The Company expects organic sales growth of 4 to 6 percent and adjusted EPS of $4.60 to $4.80.
Conference Call and Webcast
Management will host a conference call at 8:30 a.m. Eastern time.""",
    # 3
    """Acme Widgets Inc.
Condensed Consolidated Statements of Income
(in millions, except per share amounts, unaudited)
Net sales $ 230.1 $ 211.0
Cost of sales 140.0 130.5
Gross profit 90.1 80.5
Operating income 45.0 39.9
Net income $ 30.4 $ 25.2
Net income per share, diluted $ 1.01 $ 0.84""",
    # 4
    """Segment Results
Industrial Widgets net sales $ 140.2 $ 128.0
Consumer Widgets net sales $ 89.9 $ 83.0""",
    # 5
    """Reconciliation of GAAP to Non-GAAP Measures
Net income (GAAP) $ 30.4
Restructuring charges 2.1
Adjusted net income (non-GAAP) $ 32.5""",
    # 6
    """Adjusted operating income (non-GAAP) $ 45.0
Adjusted operating margin 19.6%""",
]


# ---------------------------------------------------------------------------------------------
# The form


def test_the_form_is_read_from_the_cover_page():
    assert form_of(TEN_Q) == "10-Q"
    assert form_of(EIGHT_K) == "8-K"
    assert form_of(RELEASE) == "earnings"


def test_ten_k_cover_and_the_report_box_without_a_form_line():
    assert form_of(["SECURITIES AND EXCHANGE COMMISSION\n____________ FORM 10-K\nANNUAL REPORT PURSUANT TO SECTION 13"]) == "10-K"
    # no "FORM" line: the box the filer checked says which report it is
    assert form_of(["ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934"]) == "10-K"
    assert form_of(["CURRENT REPORT PURSUANT TO SECTION 13 OR 15(d)\nDate of Report: May 1, 2024"]) == "8-K"


def test_a_cover_extracted_one_word_per_line():
    words = "UNITED STATES SECURITIES AND EXCHANGE COMMISSION FORM 8-K CURRENT REPORT Pursuant to Section 13"
    assert form_of(["\n".join(words.split())]) == "8-K"


def test_other_forms_and_mentions_are_not_the_form():
    assert form_of(["SECURITIES AND EXCHANGE COMMISSION\nFORM 20-F\nANNUAL REPORT PURSUANT TO SECTION 13"]) == "other"
    # a letter that mentions the 10-K in a sentence, with no cover: not a 10-K
    letter = "Dear Shareholders,\nThis year our Annual Report on Form 10-K describes a year of growth."
    assert form_of([letter, "Our people", "Our products"]) == "annual"
    assert form_of(["Minutes of the meeting of the board", "Attendance"]) == "other"


def test_an_annual_report_that_wraps_its_ten_k_reads_as_a_ten_k():
    glossy = ["2024 Annual Report", "Dear Shareholders,\nA record year.", "Our brands", "Our people"]
    assert form_of(glossy + [TEN_Q[0].replace("10-Q", "10-K").replace("QUARTERLY", "ANNUAL")]) == "10-K"


def test_a_press_release_that_reports_no_results_is_not_an_earnings_release():
    dividend = "Acme Widgets Declares Quarterly Dividend\nSPRINGFIELD, Ill., May 2, 2024 -- Acme Widgets Inc. (NYSE: ACME) today declared a dividend."
    assert form_of([dividend]) == "other"


def test_an_eight_k_exhibit_99_that_leads_with_its_figures_is_an_earnings_release():
    # Filed on its own: no cover, a headline naming a figure rather than "results", the lead's
    # verb after "announced" ("announced today that net income for the fiscal quarter ...").
    release = (
        "Exhibit 99.1\nHarbor Outfitters, Inc.\n100 Main St. Springfield, IL 62701\n"
        "For Immediate Release: May 2, 2025\nContact: Jane Roe, Chief Financial Officer\n"
        "HARBOR OUTFITTERS, INC. REPORTS FIRST QUARTER NET INCOME\n"
        "SPRINGFIELD, IL -- (BUSINESS WIRE) -- Harbor Outfitters, Inc. (NYSE: HBO) announced today that net income "
        "for the fiscal quarter ended April 26, 2025 was $12.4 million, or $0.41 per share."
    )
    assert form_of([release, "About Harbor Outfitters\nA retailer of outdoor apparel."]) == "earnings"
    # the same exhibit announcing no figures, or without a release's marks, is not one
    dividend = release.replace("announced today that net income for the fiscal quarter ended April 26, 2025 was",
                               "announced today a dividend of")
    assert form_of([dividend, "About Harbor Outfitters"]) == "other"
    # nor one whose figures are another company's (review: any figure in the lead's sentence counted)
    deal = release.replace("REPORTS FIRST QUARTER NET INCOME", "TO ACQUIRE BETA INDUSTRIES").replace(
        "announced today that net income for the fiscal quarter ended April 26, 2025 was",
        "announced today a definitive agreement to acquire Beta Industries, whose net sales for the fiscal "
        "year ended December 31, 2024 were")
    assert form_of([deal, "About Harbor Outfitters"]) == "other"
    unmarked = "Exhibit 99.1\nMinutes\nThe board announced today that net income for the fiscal quarter ended May 1 rose."
    assert form_of([unmarked]) == "other"
    # an Exhibit 10 that says so is an agreement, whatever it announces
    assert form_of([release.replace("Exhibit 99.1", "Exhibit 10.1")]) == "other"


def test_a_release_needs_a_mark_of_a_release_besides_its_headline():
    # "reports ... results" alone (a page of an analyst's notes) is not enough
    assert form_of(["The company reports strong results\nWe keep our rating."]) == "other"
    # with the statements at the end it is
    statements = "Acme Widgets Inc.\nCondensed Consolidated Balance Sheets\nTotal assets $ 900.0"
    assert form_of(["Acme Widgets Reports First Quarter Results\nNet sales rose.", statements]) == "earnings"


# ---------------------------------------------------------------------------------------------
# Exhibits


def test_exhibits_of_an_eight_k():
    assert exhibits(EIGHT_K) == [
        Exhibit("10.1", "Five-Year Credit Agreement", 4, 6, "credit_agreement"),
        Exhibit("99.1", "Press release of Acme Widgets Inc", 7, 7, "press_release"),
    ]
    first = exhibits(EIGHT_K)[0]
    assert (first.label, first.heading) == ("exhibit_credit_agreement", "Exhibit 10.1 - Five-Year Credit Agreement")


def test_exhibits_of_a_ten_q():
    assert exhibits(TEN_Q) == [Exhibit("31.1", "Certification of the Chief Executive Officer pursuant to Rule 13a-14(a)", 8, 8, "certification")]


def test_an_exhibit_start_is_told_from_a_mention_and_an_index():
    assert exhibit_start(EIGHT_K[3]) == ("10.1", "Five-Year Credit Agreement")
    # "Exhibit 10.1" at the top of a page of the 8-K, in a sentence
    assert exhibit_start("Exhibit 10.1 to this Current Report is the credit agreement.") is None
    # the exhibit index lists many exhibits on one page
    assert exhibit_start("EXHIBIT INDEX\nExhibit 10.1 Credit Agreement\nExhibit 31.1 Certification\nExhibit 32.1 Certification") is None
    assert exhibit_start(EIGHT_K[2]) is None
    # lower down the page it is no exhibit's start
    assert exhibit_start("Line one\nLine two\nLine three\nLine four\nLine five\nLine six\nLine seven\nLine eight\nExhibit 4.1\nINDENTURE") is None


def test_an_exhibit_title_runs_over_short_capital_lines_until_the_contract_begins():
    assert exhibit_start("Exhibit 10.2\nEXECUTION COPY\nU.S. $4,200,000,000\n364-DAY\nCREDIT AGREEMENT\nDated as of May 26, 2024") == (
        "10.2", "364-DAY Credit Agreement")
    assert exhibit_start("EXHIBIT 10.24\n3M COMPENSATION PLAN FOR NONEMPLOYEE DIRECTORS\nARTICLE 1\nGENERAL PROVISIONS") == (
        "10.24", "3M Compensation Plan for Nonemployee Directors")
    assert exhibit_start("EXHIBIT 32\nSECTION 1350 CERTIFICATIONS OF CEO AND CFO\nPursuant to Section 906 of the Act") == (
        "32", "Section 1350 Certifications of CEO and CFO")
    assert exhibit_start("Exhibit 31.1\nI, Jane Roe, certify that:\n1. I have reviewed this report") == ("31.1", "")
    assert exhibit_start("EX-24 5 acme-20241231xex24.htm EX-24\nEXHIBIT 24\nPOWER OF ATTORNEY\nEach of the undersigned") == (
        "24", "Power of Attorney")


def test_an_exhibit_start_extracted_one_word_per_line_and_without_an_index():
    page = "Exhibit\n4.1\nTRUST DEED\nrelating to\nA$1,500,000,000 Zero Coupon Convertible Notes due 2026"
    assert exhibit_start(page) == ("4.1", "Trust Deed")
    assert exhibits(["FORM 8-K", page]) == [Exhibit("4.1", "Trust Deed", 2, 2, "trust_deed")]


def test_a_press_release_is_known_by_its_dateline_whatever_its_title():
    page = "Exhibit 99.1\nAcme Widgets Names New Chief Executive\nSPRINGFIELD, Ill., May 2, 2024 -- Acme Widgets Inc. (NYSE: ACME) named Jane Roe chief executive."
    assert exhibits(["FORM 8-K", page]) == [Exhibit("99.1", "Acme Widgets Names New Chief Executive", 2, 2, "press_release")]
    assert exhibits(["FORM 8-K", "Exhibit 99.1\nLitigation Case Citations\nCase one v. Acme"])[0].kind == "additional"


@pytest.mark.parametrize(
    "number, title, kind",
    [
        ("1.1", "Underwriting Agreement", "underwriting_agreement"),
        ("2.1", "Agreement and Plan of Merger", "merger_agreement"),
        ("3.1", "Restated Certificate of Incorporation", "charter"),
        ("3.2", "Amended and Restated By-Laws", "bylaws"),
        ("4.1", "Indenture", "indenture"),
        ("4.2", "Form of 4.250% Senior Note due 2034", "notes"),
        ("10.1", "Five-Year Credit Agreement", "credit_agreement"),
        ("10.2", "Offer Letter", "employment_agreement"),
        ("10.3", "2024 Long-Term Incentive Plan", "compensation_plan"),
        ("10.4", "Supply Agreement", "material_contract"),
        ("21", "Subsidiaries of the Registrant", "subsidiaries"),
        ("23.1", "Consent of Independent Registered Public Accounting Firm", "consent"),
        ("31.2", "Certification", "certification"),
        ("99.1", "Press Release", "press_release"),
        ("99.2", "Investor Presentation", "presentation"),
        ("99.3", "364-Day Credit Agreement", "credit_agreement"),  # filed under a number that does not fit it
        ("99.4", "Litigation Case Citations", "additional"),
        ("104", "Cover Page Interactive Data File", "cover_page_data"),
        ("7", "Anything", "other"),
    ],
)
def test_exhibit_kinds_by_item_601_number(number, title, kind):
    assert exhibit_kind(number, title) == kind


# ---------------------------------------------------------------------------------------------
# Items by the form's numbering


@pytest.mark.parametrize(
    "form, heading, part, label",
    [
        ("10-Q", "Item 2. Management's Discussion and Analysis", "I", "mdna"),
        ("10-Q", "Item 2. Unregistered Sales of Equity Securities", "II", "market_equity"),
        ("10-Q", "Item 2.", "II", "market_equity"),  # the number and the Part suffice
        ("10-Q", "Item 2.", None, None),  # the number alone leaves a choice
        ("10-Q", "Part II, Item 1A. Risk Factors", None, "risk_factors"),
        ("10-Q", "Item 3. Defaults Upon Senior Securities", None, "defaults_senior_securities"),
        ("10-Q", "Item 3. Quantitative and Qualitative Disclosures About Market Risk", "II", "market_risk"),
        ("10-Q", "ITEM 6. EXHIBITS", None, "exhibits"),
        ("8-K", "ITEM 5.07", None, "shareholder_vote"),
        ("8-K", "Item 5.02 Departure of Directors or Certain Officers", None, "officer_changes"),
        ("8-K", "Item 2.02. Results of Operations and Financial Condition", None, "results_of_operations"),
        ("8-K", "Item 1.01 Entry into a Material Definitive Agreement", None, "material_agreements"),
        ("8-K", "Item 2.03 Creation of a Direct Financial Obligation", None, "debt"),
        ("8-K", "Item 5.03 Amendments to Articles of Incorporation or Bylaws", None, "charter_bylaws"),
        ("8-K", "Item 7.01 Regulation FD Disclosure", None, "other_information"),
        ("8-K", "Item 9.01 Financial Statements and Exhibits", None, "exhibits"),
        ("8-K", "Item 7. Management's Discussion", None, None),  # no such 8-K Item
        ("10-K", "Item 7A. Quantitative and Qualitative Disclosures About Market Risk", None, "market_risk"),
        ("earnings", "Item 2.", None, None),
        ("10-Q", "Note 2. Revenue", None, None),
    ],
)
def test_item_label_by_the_forms_numbering(form, heading, part, label):
    assert item_label(form, heading, part) == label


@pytest.mark.parametrize(
    "line, part",
    [
        ("PART I. FINANCIAL INFORMATION", "I"),
        ("Part II - Other Information", "II"),
        ("PART II", "II"),
        ("Part II, Item 1A. Risk Factors", "II"),
        ("Part II of our annual report describes the risks we face in more detail.", None),
        ("Part I and", None),
        ("Particulars of the lease", None),
    ],
)
def test_part_lines(line, part):
    assert part_of(line) == part


def labels(pages):
    return [[label for label, _heading, _origin in page.sections] for page in pages]


def test_a_ten_q_read_whole():
    reading = analyse(TEN_Q)
    assert reading.form == "10-Q"
    assert labels(reading.pages) == [
        [],
        ["table_of_contents"],
        ["income_statement", "financial_statements", "primary_statements"],
        ["mdna"],
        ["market_risk"],
        ["legal_proceedings", "market_equity"],
        ["exhibits"],
        ["certifications", "exhibit", "exhibit_certification"],  # the Item 6 of page 7 not carried on
    ]
    assert reading.pages[5].heading == "Item 1. Legal Proceedings | Item 2. Unregistered Sales of Equity Securities and Use of Proceeds"


def test_the_part_in_force_is_carried_from_page_to_page():
    pages = [
        "PART I. FINANCIAL INFORMATION\nItem 1. Statements\nWe present the statements below.",
        "PART II. OTHER INFORMATION\nItem 1. Litigation\nWe are party to lawsuits in the ordinary course.",
        "Item 2. Share Buybacks\nWe bought back shares in the quarter.",
    ]
    # the titles name no Item of Form 10-Q: the Part in force decides what the numbers mean
    assert [page.section for page in analyse(pages, "10-Q").pages] == ["financial_statements", "legal_proceedings", "market_equity"]
    # read as a 10-K (by titles), none of them is an Item
    assert [page.section for page in analyse(pages, "10-K").pages] == [None, None, None]


def test_a_ten_k_page_header_that_names_an_item_starts_no_other_item():
    """Some 10-Ks print "PART II Item 7" at the top of every page of MD&A; the subheading under
    it ("SUMMARY RESULTS OF OPERATIONS", "Business Description") is no title of Item 7, though
    its words are those of Items 16 and 1: the pages stay in MD&A."""
    pages = [
        "FORM 10-K\nAnnual report for the fiscal year ended June 30, 2023",
        "PART II Item 7\nITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION\nOverview of the year.",
        "PART II Item 7\nSUMMARY RESULTS OF OPERATIONS\nRevenue increased 7%.",
        "PART II Item 7\nBusiness Description\nWe sell software and devices.",
        "PART II Item 8\nITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA\nIncome statements follow.",
        "PART IV Item 16\nITEM 16. FORM 10-K SUMMARY\nNone.",
    ]
    read = labels(analyse(pages, "10-K").pages)
    assert ["mdna" in page for page in read] == [False, True, True, True, False, False]
    assert ["form_summary" in page or "business" in page for page in read] == [False] * 5 + [True]
    assert "financial_statements" in read[4]


@pytest.mark.parametrize(
    "line, following, label",
    [
        ("Item 7", "SUMMARY RESULTS OF OPERATIONS", None),  # Item 16's word, under Item 7's number
        ("Item 7", "Business Description", None),  # Item 1's
        ("Item 7.", "Management's Discussion and Analysis of Financial Condition", "mdna"),
        ("ITEM 16. FORM 10-K SUMMARY", "", "form_summary"),
        ("Item 4. Mine Safety Disclosures", "", "mine_safety"),
        # a 10-K before fiscal 2010 numbered the vote of security holders Item 4
        ("Item 4. Submission of Matters to a Vote of Security Holders", "", "shareholder_vote"),
    ],
)
def test_a_ten_k_item_title_is_held_to_its_number(line, following, label):
    found = titled_item("10-K", line, following)
    assert (found[0] if found else None) == label


def test_a_ten_q_body_that_never_repeats_part_i_is_read_by_its_titles():
    reading = analyse([TEN_Q[0], TEN_Q[1], TEN_Q[3]])  # the contents end in Part II
    assert reading.pages[2].section == "mdna"


def test_an_eight_k_read_whole():
    reading = analyse(EIGHT_K)
    assert reading.form == "8-K"
    assert labels(reading.pages) == [
        [],
        ["material_agreements", "debt", "officer_changes"],  # Item 5.02's 24-word title too
        ["exhibits"],
        # the credit agreement: a section of its own, nothing carried in from Item 9.01
        ["debt", "exhibit", "exhibit_credit_agreement"],
        ["debt", "exhibit", "exhibit_credit_agreement"],
        ["debt", "covenants", "exhibit", "exhibit_credit_agreement"],
        ["debt", "exhibit", "exhibit_press_release", "outlook_guidance"],  # a release's sections too
    ]
    assert reading.pages[3].heading == "Exhibit 10.1 - Five-Year Credit Agreement | FIVE-YEAR CREDIT AGREEMENT"
    assert reading.pages[4].section_heading == "FIVE-YEAR CREDIT AGREEMENT"
    assert ("exhibit", "Exhibit 10.1 - Five-Year Credit Agreement", "carried") in reading.pages[5].sections
    assert reading.pages[6].heading == "Exhibit 99.1 - Press release of Acme Widgets Inc | Acme Widgets Announces New Credit Facility | 2024 Outlook"


def test_an_eight_k_page_of_many_items_is_no_table_of_contents():
    page = "\n".join([
        "Item 2.02 Results of Operations and Financial Condition.", "On May 1 the Company reported its results.",
        "Item 7.01 Regulation FD Disclosure.", "The release is furnished, not filed.",
        "Item 8.01 Other Events.", "The Board declared a quarterly dividend.",
        "Item 9.01 Financial Statements and Exhibits.", "99.1 Press release",
    ])
    assert labels(analyse(["FORM 8-K", page]).pages) == [[], ["results_of_operations", "other_information", "exhibits"]]


def test_an_earnings_release_read_whole():
    reading = analyse(RELEASE)
    assert (reading.form, reading.exhibits) == ("earnings", ())
    # structure.py's headings first, the release's after, each once
    assert [page.heading for page in reading.pages] == [
        "Fourth Quarter Highlights",
        "Conference Call and Webcast | 2025 Outlook",
        "Condensed Consolidated Statements of Income",
        "Segment Results",
        "Reconciliation of GAAP to Non-GAAP Measures",
        "",
    ]
    assert "outlook_guidance" in labels(reading.pages)[1]  # "2025 Outlook": a title with a year in it


def test_an_exhibit_page_with_no_section_of_its_own_is_in_the_exhibit():
    page = analyse(["FORM 8-K", "Exhibit 99.1\nCase Citations\nCase one v. Acme"]).pages[1]
    assert (page.section, page.section_heading) == ("exhibit_additional", "Exhibit 99.1 - Case Citations")


def test_an_item_mentioned_in_a_sentence_is_no_heading():
    assert item_line("8-K", "Item 2.02 of Form 8-K requires the release to be furnished.") is None
    assert item_line("8-K", "Item", "2.02 Results of Operations and Financial Condition") == (
        "results_of_operations", "Item 2.02 Results of Operations and Financial Condition")
    assert item_line("10-K", "Item 2.02 Results of Operations") is None  # 10-Ks are read by structure.py


def test_reflow_joins_a_sentence_extracted_one_word_per_line():
    lines = ["Item", "2.03 Creation", "of", "a", "Direct", "Financial", "Obligation.", "The Company borrowed $100 million."]
    assert reflow(lines) == ["Item 2.03 Creation of a Direct Financial Obligation.", "The Company borrowed $100 million."]
    assert reflow(["ASSETS", "Cash 10 12", "Inventories 40 41"]) == ["ASSETS", "Cash 10 12", "Inventories 40 41"]


# ---------------------------------------------------------------------------------------------
# Earnings-release sections


def test_the_sections_of_an_earnings_release():
    assert release_sections(RELEASE) == [
        [("highlights", "Fourth Quarter Highlights", "title")],
        [
            ("highlights", "Fourth Quarter Highlights", "carried"),
            ("outlook_guidance", "2025 Outlook", "title"),
            ("conference_call", "Conference Call and Webcast", "title"),
        ],
        [],  # the condensed statement: a section of its own (structure.py), nothing carried onto it
        [("segment_information", "Segment Results", "title")],
        [("non_gaap", "Reconciliation of GAAP to Non-GAAP Measures", "title")],
        [("non_gaap", "Reconciliation of GAAP to Non-GAAP Measures", "carried")],
    ]


def test_a_release_section_is_carried_at_most_two_pages():
    pages = ["Reconciliation of Non-GAAP Measures\nAdjusted EBIT 387"] + ["Adjusted EBIT 100"] * 3
    assert [len(page) for page in release_sections(pages)] == [1, 1, 1, 0]


def test_table_rows_and_headlines_are_no_release_headings():
    pages = [
        "Acme Widgets Reports First-Quarter 2024 Results; Raises Full-Year\nGuidance\nCore EPS $1.50",
        "Core diluted EPS, non-GAAP measure (a) $ 6.79\nOrganic revenue growth by division 14.3% 12.1% 9.0%",
        "Net sales\nSegment operating profit $ 45.0",
        "Non-GAAP Measures\nWe define the measures below.\n2025 guidance\nOur guidance excludes restructuring charges.",
    ]
    assert release_sections(pages) == [[], [], [], [("non_gaap", "Non-GAAP Measures", "title")]]


# ---------------------------------------------------------------------------------------------
# Through ingest and the CLI


def test_info_shows_the_form_and_the_exhibits_of_an_eight_k(cli, tmp_path):
    pdf = make_pdf(tmp_path / "ACME_2024_8K.pdf", EIGHT_K)
    assert cli("ingest", pdf).exit_code == 0
    db = pdf.with_suffix(".db")
    out = cli("info", db).stdout
    assert "  form         8-K\n" in out
    assert out.endswith(
        "  exhibits\n"
        "    10.1     credit_agreement         pp. 4-6       Five-Year Credit Agreement\n"
        "    99.1     press_release            p. 7          Press release of Acme Widgets Inc\n"
    )
    _, data = cli.json("info", db)
    revision = data["revisions"][0]
    assert revision["form"] == "8-K"
    assert revision["exhibits"] == [
        {"number": "10.1", "title": "Five-Year Credit Agreement", "heading": "Exhibit 10.1 - Five-Year Credit Agreement",
         "first_page": 4, "last_page": 6, "kind": "credit_agreement"},
        {"number": "99.1", "title": "Press release of Acme Widgets Inc", "heading": "Exhibit 99.1 - Press release of Acme Widgets Inc",
         "first_page": 7, "last_page": 7, "kind": "press_release"},
    ]
    sections = {s["label"]: s["pages"] for s in revision["sections"]}
    assert sections["officer_changes"] == [2]  # Item 5.02, read by the 8-K's numbering
    assert sections["exhibits"] == [3]  # Item 9.01 ends where the credit agreement begins
    assert not any(label.startswith("exhibit_") or label == "exhibit" for label in sections)


@pytest.mark.parametrize("question, first", [
    ("Where does Exhibit 10.1 begin?", 4),  # its first page, though page 5 repeats "Exhibit 10.1"
    ("On which page does Exhibit 99.1 start?", 7),
    ("附件10.1从哪一页开始？", 4),
    ("Which page of Exhibit 10.1 sets the leverage ratio covenant?", 6),  # inside it: by its words
])
def test_an_exhibit_named_by_number(cli, tmp_path, question, first):
    pdf = make_pdf(tmp_path / "ACME_2024_8K.pdf", EIGHT_K)
    assert cli("ingest", pdf).exit_code == 0
    _, data = cli.json("query", pdf.with_suffix(".db"), question)
    assert [hit["page_number"] for hit in data["results"]][0] == first


@pytest.mark.parametrize("question, first", [
    ("Where is Part II, Item 2?", [6]),  # by the 10-Q's numbering: not Part I's Item 2 (MD&A)
    ("第二部分第1项在哪一页？", [6]),  # Part II, Item 1: legal proceedings
    ("第3项在哪一页？", [5]),  # Item 3: market risk
    ("Where is Item 2?", [4, 6]),  # no Part named: both of the 10-Q's Items 2, in page order
])
def test_an_item_named_by_number_is_read_by_the_forms_numbering(cli, tmp_path, question, first):
    text = tmp_path / "ACME_2024Q1_10Q.txt"
    text.write_text("\f".join(TEN_Q), encoding="utf-8")
    assert cli("ingest", text).exit_code == 0
    _, data = cli.json("query", text.with_suffix(".db"), question)
    assert [hit["page_number"] for hit in data["results"]][: len(first)] == first


def _agreement(number: str, tenor: str, grace: str) -> list[str]:
    """A credit agreement's cover page and its events of default."""
    return [
        f"""Exhibit {number}
EXECUTION VERSION
{tenor.upper()} CREDIT AGREEMENT
dated as of May 1, 2024
among ACME WIDGETS INC. and THE LENDERS PARTY HERETO""",
        f"""ARTICLE VII
Events of Default
Section 7.01 Events of Default. If any of the following events shall occur and be continuing: (a) the
Borrower shall fail to pay any principal of any Loan when due in accordance with the terms of this
Agreement, or any interest within {grace} Business Days after the same becomes due.""",
    ]


# An 8-K attaching two credit agreements alike but for their tenor: each has its events of default
# (the 364-day one's grace period is five days, a word of the other's title).
TWO_AGREEMENTS = [
    EIGHT_K[0],
    """Item 1.01 Entry into a Material Definitive Agreement.
On May 1, 2024 the Company entered into a 364-Day Credit Agreement and a Five-Year Credit Agreement,
filed as Exhibits 10.1 and 10.2 to this Current Report and incorporated herein by reference.""",
    """Item 9.01 Financial Statements and Exhibits.
(d) Exhibits
Exhibit No. Description
10.1 364-Day Credit Agreement, dated as of May 1, 2024, among Acme Widgets Inc. and the lenders party thereto.
10.2 Five-Year Credit Agreement, dated as of May 1, 2024, among Acme Widgets Inc. and the lenders party thereto.""",
    *_agreement("10.1", "364-Day", "five"),
    *_agreement("10.2", "Five-Year", "three"),
]


@pytest.mark.parametrize("question, first", [
    ("Where are the events of default in the five-year credit agreement?", 7),
    ("Where are the events of default in the 364-day agreement?", 5),
    ("五年期信贷协议中的违约事件条款在哪一页？", 7),
])
def test_an_exhibit_named_by_title(cli, tmp_path, question, first):
    text = tmp_path / "ACME_2024_8K.txt"
    text.write_text("\f".join(TWO_AGREEMENTS), encoding="utf-8")
    assert cli("ingest", text).exit_code == 0
    _, data = cli.json("query", text.with_suffix(".db"), question)
    assert [hit["page_number"] for hit in data["results"]][0] == first


def test_explain_shows_the_named_item_and_the_page_named_outright(cli, tmp_path):
    text = tmp_path / "ACME_2024Q1_10Q.txt"
    text.write_text("\f".join(TEN_Q), encoding="utf-8")
    assert cli("ingest", text).exit_code == 0
    _, plan = cli.json("query", text.with_suffix(".db"), "Where is Part II, Item 2?", "--explain")
    assert (plan["named_items"], plan["named_exhibits"], plan["named_pages"]) == ([{"part": "II", "item": "2"}], [], [6])
    assert plan["fused"][0]["page_number"] == 6
    out = cli("query", text.with_suffix(".db"), "Where is Part II, Item 2?", "--explain").stdout
    assert "\nnamed: Part II, Item 2 (first: 6)\n" in out


def test_info_of_a_ten_q_from_a_form_feed_text(cli, tmp_path):
    text = tmp_path / "ACME_2024Q1_10Q.txt"
    text.write_text("\f".join(TEN_Q), encoding="utf-8")
    assert cli("ingest", text).exit_code == 0
    _, data = cli.json("info", text.with_suffix(".db"))
    revision = data["revisions"][0]
    assert (revision["form"], [e["number"] for e in revision["exhibits"]]) == ("10-Q", ["31.1"])
    sections = {s["label"]: s["pages"] for s in revision["sections"]}
    assert (sections["legal_proceedings"], sections["market_equity"]) == ([6], [6])


def test_an_earnings_release_and_a_ten_k_have_no_exhibits_listed(cli, tmp_path):
    text = tmp_path / "ACME_2024Q4_EARNINGS.txt"
    text.write_text("\f".join(RELEASE), encoding="utf-8")
    assert cli("ingest", text).exit_code == 0
    out = cli("info", text.with_suffix(".db")).stdout
    assert "  form         earnings\n" in out
    assert "exhibits" not in out
    assert "    non_gaap                 pp. 5-6 " in out
    assert "    outlook_guidance         p. 2 " in out


def test_upgrade_reads_the_form_of_a_database_written_before_forms(cli, tmp_path):
    text = tmp_path / "ACME_8K.txt"
    text.write_text("\f".join(EIGHT_K), encoding="utf-8")
    assert cli("ingest", text).exit_code == 0
    db = text.with_suffix(".db")
    with sqlite3.connect(db) as conn:
        conn.execute("ALTER TABLE documents DROP COLUMN form")
        conn.execute("DELETE FROM page_sections WHERE label LIKE 'exhibit%'")
        conn.execute(f"PRAGMA user_version = {store.SCHEMA_VERSION - 1}")
    assert cli("upgrade", db).exit_code == 0
    _, data = cli.json("info", db)
    assert data["revisions"][0]["form"] == "8-K"
    assert [e["number"] for e in data["revisions"][0]["exhibits"]] == ["10.1", "99.1"]
    sections = {s["label"]: s["pages"] for s in data["revisions"][0]["sections"]}
    assert sections["officer_changes"] == [2]  # read again as an 8-K


DEFINED_TERM_8K = [
    "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nFORM 8-K\nCURRENT REPORT\nAcme Widgets Inc.",
    "Item 1.01 Entry into a Material Definitive Agreement.\nOn May 1, 2024 the Company entered into a Five-Year Credit Agreement.\n"
    "Loans bear interest at term SOFR plus an applicable rate that depends on the Company's credit ratings.\n"
    "A commitment fee accrues on the unused commitments.",
    "Item 9.01 Financial Statements and Exhibits.\n(d) Exhibits\n10.1 Five-Year Credit Agreement, dated as of May 1, 2024.",
    "Exhibit 10.1\nFIVE-YEAR CREDIT AGREEMENT\ndated as of May 1, 2024\namong ACME WIDGETS INC. and FIRST BANK, as Administrative Agent",
    "ARTICLE I\nDEFINITIONS\n\"Affiliate\" means, with respect to a specified Person, another Person that controls it.\n"
    "\"Applicable Rate\" means, for any day, the rate per annum set forth below under the caption \"Applicable Rate\" or "
    "\"Commitment Fee Rate\", based on the ratings:\n"
    "Category Rating (Moody's/S&P) Applicable Rate Commitment Fee Rate\nCategory 1 A3/A- 0.75% 0.07%\n"
    "Category 2 Baa1/BBB+ 0.875% 0.08%\n\"Borrower\" has the meaning assigned to such term in the preamble.",
    "ARTICLE II\nTHE CREDITS\nSECTION 2.10. Interest. Each SOFR Loan bears interest at term SOFR plus the Applicable Rate.\n"
    "Each ABR Loan bears interest at the Alternate Base Rate plus the Applicable Rate.\nThe Applicable Rate changes with the ratings.",
    "SECTION 2.11. Fees. The Borrower will pay a commitment fee at the Applicable Rate on the unused commitments.\n"
    "Commitment fees are payable quarterly in arrears.",
    "ARTICLE VI\nNegative Covenants\nThe Borrower will not permit the Leverage Ratio to exceed 3.50 to 1.00.",
]


def test_the_page_that_defines_the_term_asked_about_is_not_set_aside(cli, tmp_path):
    """Pages of definitions are set aside (they restate every term of the agreement), except
    one that defines a term the question names: '"Applicable Rate" means ...' and its pricing
    grid is where the rate by rating is set (page 5), not the pages that use the term."""
    source = write_jsonl(tmp_path / "ACME_8K.jsonl", DEFINED_TERM_8K)
    assert cli("ingest", source).exit_code == 0
    _, data = cli.json("query", source.with_suffix(".db"), "Where does the credit agreement set the applicable rate by rating?")
    assert data["results"][0]["page_number"] == 5
