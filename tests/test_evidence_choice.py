"""The evidence line is the asked concept's own line (issue 23): of a page's lines, the one whose
line item says what the question asks, in its own words before a synonym and a synonym before
the inputs of the measure asked, beside its figures; with the column headings that say which
figure is which period. On filings written here, through the CLI, the exact line shown."""

from __future__ import annotations

import pytest

from .pdfgen import make_pdf

COMPANY = "Korvel Systems Inc."
FILLER = [  # pages of a 10-K that say nothing about taxes, cash flows or net income
    "Item 1. Business\nWe design industrial control systems for utilities and factories.",
    "Item 1A. Risk Factors\nDemand for our systems depends on capital budgets of our customers.",
    "Item 2. Properties\nWe lease our headquarters and own two plants in Ohio.",
    "Item 3. Legal Proceedings\nWe are not party to any material legal proceeding.",
    "Item 5. Market for Registrant's Common Equity\nOur shares trade on the Nasdaq Global Select Market.",
    "Item 9A. Controls and Procedures\nOur disclosure controls were effective at year end.",
]
TEN_K = [
    "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\nFor the fiscal year ended September 30, 2023",
    *FILLER,
    "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations\n"
    "Results of Operations\n"
    "Fiscal Year 2023 2022\n"
    "(In millions, except percentages)\n"
    "Income before income taxes $ 664 $ 500\n"
    "Provision for income taxes $ (452) $ (30)\n"
    "Effective tax rate 68 % 6 %\n"
    "Net income $ 212 $ 470\n"
    "The provision for income taxes rose because a valuation allowance was recorded on deferred tax assets.",
    "Item 8. Financial Statements and Supplementary Data\n"
    "Consolidated Statements of Operations\n"
    "(In millions) Fiscal 2023 2022\n"
    "Net sales $ 4,210 $ 3,980\n"
    "Cost of sales 2,950 2,810\n"
    "Operating income 690 530\n"
    "Income before income taxes 664 500\n"
    "Provision for income taxes (452) (30)\n"
    "Net income 212 470\n"
    "Net income attributable to noncontrolling interests 15 12\n"
    "Net income attributable to Korvel Systems Inc. $ 197 $ 458",
    "Notes to Consolidated Financial Statements\n"
    "Note 9. Income Taxes\n"
    "Deferred tax assets are reduced by a valuation allowance when realization is not more likely than not.\n"
    "The Company recorded a valuation allowance of $310 million against U.S. deferred tax assets in fiscal 2023.",
]
RELEASE = [
    "Korvel Systems Reports Fourth Quarter and Fiscal 2024 Results\n"
    "Record orders and strong cash generation in fiscal 2024.",
    "Condensed Consolidated Statements of Cash Flows\n"
    "(In thousands) Fiscal 2024 Fiscal 2023\n"
    "Net cash provided by operating activities $ 1,502,114 $ 1,210,455\n"
    "Purchases of property and equipment (162,854) (140,002)\n"
    "Net cash used in investing activities (162,854) (140,002)",
    "Reconciliation of GAAP to Non-GAAP Measures\n"
    "(In thousands) Fiscal 2024 Fiscal 2023\n"
    "Net cash provided by operating activities $ 1,502,114 $ 1,210,455\n"
    "Purchases of property and equipment (162,854) (140,002)\n"
    "Free cash flow $ 1,339,260 $ 1,070,453",
]


def _pages(pages: list[str]) -> list[str]:
    """Every page under the filer's name, as a filing prints it in its running head: on every
    page, its words are common words the lexical list leaves out."""
    return [f"{COMPANY}\n{page}" for page in pages]


@pytest.fixture(scope="module")
def ten_k(tmp_path_factory):
    from evfind.ingest import ingest

    path = make_pdf(tmp_path_factory.mktemp("tenk") / "KORVEL_2023_10K.pdf", _pages(TEN_K))
    return ingest(path).db_path


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    from evfind.ingest import ingest

    path = make_pdf(tmp_path_factory.mktemp("release") / "KORVEL_2024Q4_EARNINGS.pdf", _pages(RELEASE))
    return ingest(path).db_path


def first_hit(cli, db, question):
    result, data = cli.json("query", db, question, "--top", "3")
    assert result.exit_code == 0, result.output
    return data["results"][0]


def test_the_rate_asked_is_shown_not_the_provision_it_is_computed_from(cli, ten_k):
    """The lexicon expands the effective tax rate to the provision for income taxes (its input);
    the line shown is the rate's own, beside its figures, with the table's column headings."""
    hit = first_hit(cli, ten_k, "What was the effective tax rate in fiscal 2023?")
    assert hit["page_number"] == 8
    first = hit["evidence"][0]
    assert (first["line"], first["text"]) == (8, "Effective tax rate 68 % 6 %")
    assert first["columns"] == [{"line": 4, "text": "Fiscal Year 2023 2022"}]
    table = cli("query", ten_k, "What was the effective tax rate in fiscal 2023?", "--top", "1").stdout.splitlines()
    assert table[5:7] == ["      line 8: Effective tax rate 68 % 6 %", "      columns, line 4: Fiscal Year 2023 2022"]


def test_net_income_attributable_to_the_filer_is_not_the_noncontrolling_interests_line(cli, ten_k):
    hit = first_hit(cli, ten_k, "What was net income attributable to Korvel in fiscal 2023?")
    assert hit["page_number"] == 9
    assert hit["evidence"][0]["text"] == "Net income attributable to Korvel Systems Inc. $ 197 $ 458"
    assert hit["evidence"][0]["columns"] == [{"line": 4, "text": "(In millions) Fiscal 2023 2022"}]


def test_a_measure_the_release_prints_is_shown_rather_than_its_inputs(cli, release):
    """Free cash flow expands to operating cash flow and capital expenditures; the release prints
    the measure itself, and that line is shown."""
    hit = first_hit(cli, release, "What was free cash flow in fiscal 2024?")
    assert hit["page_number"] == 3
    assert hit["evidence"][0]["text"] == "Free cash flow $ 1,339,260 $ 1,070,453"
    assert hit["evidence"][0]["columns"] == [{"line": 3, "text": "(In thousands) Fiscal 2024 Fiscal 2023"}]


def test_an_input_of_the_measure_is_shown_where_the_page_does_not_print_the_measure(cli, release):
    """On the cash flow statement, which prints no free cash flow, the inputs are the evidence."""
    result, data = cli.json("query", release, "What was free cash flow in fiscal 2024?", "--top", "3")
    statement = next(hit for hit in data["results"] if hit["page_number"] == 2)
    assert statement["evidence"][0]["text"].startswith(("Net cash provided by operating activities",
                                                        "Purchases of property and equipment"))


def test_a_chinese_question_is_shown_the_same_line(cli, ten_k):
    hit = first_hit(cli, ten_k, "科维尔2023财年的实际税率是多少？")
    assert hit["page_number"] == 8
    assert hit["evidence"][0]["text"] == "Effective tax rate 68 % 6 %"
    table = cli("query", ten_k, "科维尔2023财年的实际税率是多少？", "--top", "1").stdout.splitlines()
    assert "      表头，第 4 行：Fiscal Year 2023 2022" in table


TEN_Q = [
    "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-Q\nFor the quarterly period ended April 30, 2023",
    *FILLER,
    "Item 2. Unregistered Sales of Equity Securities and Use of Proceeds\n"
    "Issuer Purchases of Equity Securities\n"
    "Period Total Number of Shares Purchased Average Price Paid per Share\n"
    "February 1 - 28, 2023 1,204,000 $ 98.12\n"
    "March 1 - 31, 2023 1,410,500 $ 101.40\n"
    "April 1 - 30, 2023 1,622,300 $ 104.75\n"
    "Total 4,236,800 $ 101.67\n"
    "Since the program began, shares purchased under it were bought at an average price paid per share of $99.10.",
    "Management's Discussion and Analysis\n"
    "Return on Invested Capital (\"ROIC\"): Represents a performance measure that management believes is useful.\n"
    "(Dollars in millions) 2023 2022\n"
    "Operating income $ 690 $ 530\n"
    "Total invested capital $ 3,100 $ 2,900\n"
    "RETURN ON INVESTED CAPITAL 22.3 % 18.3 %",
]


@pytest.fixture(scope="module")
def ten_q(tmp_path_factory):
    from evfind.ingest import ingest

    path = make_pdf(tmp_path_factory.mktemp("tenq") / "KORVEL_2023Q2_10Q.pdf", _pages(TEN_Q))
    return ingest(path).db_path


@pytest.mark.parametrize("question", [
    "What average price per share did Korvel pay for shares purchased in April 2023?",
    "科维尔2023年4月回购股票的每股平均价格是多少？",
])
def test_the_row_of_the_month_asked_is_shown(cli, ten_q, question):
    """A table by month (an issuer's purchases of its shares): the row of the month the question
    names, not the sentence that says the line item's words."""
    hit = first_hit(cli, ten_q, question)
    assert hit["page_number"] == 8
    assert hit["evidence"][0]["text"] == "April 1 - 30, 2023 1,622,300 $ 104.75"


def test_a_row_whose_words_the_index_marks_apart_is_read_as_the_line_item(cli, ten_q):
    """'RETURN ON INVESTED CAPITAL' is three marks (the index does not mark 'on'), none of them
    the phrase; the row is still the measure's own line, beside its figures."""
    hit = first_hit(cli, ten_q, "What return on invested capital did Korvel report for fiscal 2023?")
    assert hit["page_number"] == 9
    assert hit["evidence"][0]["text"] == "RETURN ON INVESTED CAPITAL 22.3 % 18.3 %"
