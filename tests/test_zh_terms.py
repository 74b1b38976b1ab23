"""Chinese terms the development questions' Chinese wordings left unread or read as another
concept than their English wordings (issue 21, docs/chinese.md): an independent board chair
(独立董事会主席 was cut into 独立董事 + 主席), the contractual and unobligated backlog (积压 alone
was unread), membership fees (会员费 was read as membership). Each is checked through the CLI on
a filing written here, whose pages tell the readings apart."""

from __future__ import annotations

import pytest

from evfind import zh

from .conftest import write_jsonl

PAGES = [
    # 1: cover
    """UNITED STATES SECURITIES AND EXCHANGE COMMISSION
FORM 10-K ANNUAL REPORT
For the fiscal year ended December 31, 2025
Orrin Aerospace Corp.""",
    # 2: the board's independent directors
    """Corporate Governance
Independent Directors. Nine of our eleven directors are independent directors under the exchange's
listing standards. The independent directors meet in executive session; each committee consists of
independent directors. A shareholder proposal asked for a two-thirds majority of independent directors;
the vote results on the proposal: votes for 288,104,511, votes against 716,002,870.""",
    # 3: the vote on the proposal for an independent chair
    """Submission of Matters to a Vote of Security Holders
Shareholder proposal requiring an independent Board Chair: votes for 301,224,118; votes against
702,993,004; abstentions 4,118,220. The proposal was not approved.""",
    # 4: contracts with customers
    """Note 4. Revenue from Contracts with Customers
Contract assets were $2,114 million and contract liabilities $3,870 million. Contract modifications and
contract costs are assessed per contract; fixed-price contracts carry contract risk.""",
    # 5: MD&A, the backlog table
    """Backlog
Contractual backlog $381,977 million; unobligated backlog $22,404 million; total backlog $404,381 million.
Unobligated backlog includes orders not yet funded by the customer.""",
    # 6: MD&A, membership fees
    """Membership Fees
Membership fees revenue was $4,580 million, up 8%, on new sign-ups and higher renewal rates; membership
fees are recognized ratably over the one-year membership.""",
    # 7: membership, members and their purchases
    """Our Membership
Members pay for a membership card; paid membership reached 71 million. Membership gives members access
to our stores; membership and members' loyalty drive net sales revenue from merchandise.""",
]


@pytest.fixture
def orrin_db(cli, tmp_path):
    db = tmp_path / "orrin.db"
    result = cli("ingest", write_jsonl(tmp_path / "orrin.jsonl", PAGES), "--db", db, "--document-id", "ORRIN_2025_10K")
    assert result.exit_code == 0, result.output
    return db


@pytest.mark.parametrize(
    "question, page, english",
    [
        ("关于设立独立董事会主席的股东提案投票结果如何？", 3, "independent chair"),
        ("合同积压与未拨款积压分别是多少？", 5, "unobligated backlog"),
        ("会员费收入是多少？", 6, "membership fees"),
    ],
)
def test_a_standard_term_is_read_whole(cli, orrin_db, question, page, english):
    assert english in zh.read(question).english
    result, data = cli.json("query", orrin_db, question)
    assert result.exit_code == 0, result.output
    assert data["results"][0]["page_number"] == page


# --- A company named in Chinese: read as the registrant the cover prints ------------------------

FILER_PAGES = [
    # 1: cover, the registrant's name above "Exact name of registrant"
    """UNITED STATES SECURITIES AND EXCHANGE COMMISSION
FORM 10-K
Commission file number 1-4471
MERIDAN CORPORATION
(Exact name of registrant as specified in its charter)""",
    # 2: MD&A, the tax rate discussed
    """Income Taxes
Our effective tax rate was 19.8% in 2025 and 22.4% in 2024; the effective tax rate fell on research
credits. The effective tax rate excludes discrete items; the effective tax rate outlook is 21%.""",
    # 3: the statement of operations, headed by the registrant's name
    """Meridan Holdings and Subsidiaries
Consolidated Statements of Operations
Income before income taxes 4,210 3,980; income tax expense 834 892; effective tax rate 19.8% 22.4%.""",
    # 4-6: pages that name neither
    """Item 1A. Risk Factors
Demand for our instruments depends on capital budgets; supply of components may be interrupted.""",
    """Item 2. Properties
We own plants in Ohio and Texas and lease offices in four states.""",
    """Item 3. Legal Proceedings
We are party to routine litigation incidental to the business; none is material.""",
]


@pytest.fixture
def meridan_db(cli, tmp_path):
    db = tmp_path / "meridan.db"
    result = cli("ingest", write_jsonl(tmp_path / "meridan.jsonl", FILER_PAGES), "--db", db, "--document-id", "MERIDAN_2025_10K")
    assert result.exit_code == 0, result.output
    return db


def test_a_company_named_in_chinese_is_read_as_the_registrant(cli, meridan_db):
    """The English wording names the company, and that word favours the page headed by its name;
    the Chinese wording names it in Chinese, which no glossary row reads (it holds no company's
    name): it is read as the registrant its cover prints, as the English wording would search it."""
    english, chinese = "What was Meridan's effective tax rate in 2025?", "迈瑞丹2025年的实际税率是多少？"
    pages = {}
    for question in (english, chinese):
        result, data = cli.json("query", meridan_db, question)
        assert result.exit_code == 0, result.output
        pages[question] = [hit["page_number"] for hit in data["results"]]
    assert pages[chinese][0] == pages[english][0] == 3
    result = cli("query", meridan_db, chinese, "--explain")
    assert "read as: Meridan; 2025; effective tax rate" in result.output
    assert "read as: 2025;" in cli("query", meridan_db, "2025年的实际税率是多少？", "--explain").output  # names nothing unread
