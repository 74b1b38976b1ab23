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
