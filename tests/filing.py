"""A small annual report written for the tests: every page's content is known, so queries can
be checked against exact physical pages. Page 7 is blank; printed folios start on page 3."""

from __future__ import annotations

PAGES = [
    # 1: cover
    """UNITED STATES SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended December 31, 2024
Acme Widgets Inc.
Delaware 12-3456789""",
    # 2: table of contents
    """Table of Contents
Item 1. Business 1
Item 1A. Risk Factors 2
Item 3. Legal Proceedings 3
Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations 4
Item 8. Financial Statements and Supplementary Data 6
Consolidated Statements of Income 6
Consolidated Balance Sheets 7
Consolidated Statements of Cash Flows 8""",
    # 3: Item 1
    """Table of Contents
PART I
Item 1. Business
Acme Widgets Inc. designs and manufactures precision widgets for industrial customers.
We operate two reportable segments: Industrial Widgets and Consumer Widgets.
Our products are sold in the Americas, Europe and Asia Pacific through distributors.
We employed approximately 4,200 full-time employees at December 31, 2024.
1""",
    # 4: Item 1A
    """Table of Contents
Item 1A. Risk Factors
We depend on a small number of customers for a large share of our net sales.
Our largest customer, Big Box Stores, accounted for 18 percent of net sales in 2024.
The loss of this customer would materially reduce our revenue and earnings.
We rely on a single supplier for the ceramic bearings used in our widgets.
2""",
    # 5: Item 3
    """Table of Contents
Item 3. Legal Proceedings
In March 2024 Widget Patent Holdings filed a lawsuit alleging that our spinning widget infringes
two of its patents. We believe the claims are without merit and intend to defend vigorously.
Item 4. Mine Safety Disclosures
Not applicable.
3""",
    # 6: Item 7
    """Table of Contents
Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations
Results of Operations
Net sales rose to $812.4 million in 2024 from $760.1 million in 2023 on higher widget volumes.
Gross margin improved to 38.5 percent as cost of sales grew more slowly than net sales.
Liquidity and Capital Resources
Cash and cash equivalents were $96.3 million at year end; our revolving credit facility is undrawn.
4""",
    # 7: blank
    "",
    # 8: income statement
    """Table of Contents
Acme Widgets Inc.
Consolidated Statements of Income
(In millions, except per share amounts)
Years ended December 31, 2024 2023 2022
Net sales $ 812.4 $ 760.1 $ 701.8
Cost of sales 499.6 476.2 445.0
Gross profit 312.8 283.9 256.8
Selling, general and administrative expenses 171.3 160.4 150.2
Operating income 141.5 123.5 106.6
Interest expense 9.8 10.4 11.0
Income before income taxes 131.7 113.1 95.6
Provision for income taxes 29.0 24.9 21.0
Net income $ 102.7 $ 88.2 $ 74.6
Net income per share, diluted $ 2.05 $ 1.76 $ 1.49
6""",
    # 9: balance sheet
    """Table of Contents
Acme Widgets Inc.
Consolidated Balance Sheets
(In millions) December 31, 2024 2023
Cash and cash equivalents $ 96.3 $ 71.0
Accounts receivable, net 120.5 112.9
Inventories 140.2 133.7
Total current assets 357.0 317.6
Property, plant and equipment, net 402.8 388.1
Total assets $ 759.8 $ 705.7
Accounts payable $ 88.4 $ 80.2
Total current liabilities 150.9 139.5
Long-term debt 180.0 200.0
Total shareholders' equity 428.9 366.2
Total liabilities and shareholders' equity $ 759.8 $ 705.7
7""",
    # 10: cash flow statement
    """Table of Contents
Acme Widgets Inc.
Consolidated Statements of Cash Flows
(In millions) Years ended December 31, 2024 2023 2022
Operating activities
Net income $ 102.7 $ 88.2 $ 74.6
Depreciation and amortization 38.1 36.5 34.9
Net cash provided by operating activities 151.2 128.7 110.3
Investing activities
Purchases of property, plant and equipment (52.8) (47.3) (44.1)
Net cash used in investing activities (52.8) (47.3) (44.1)
Financing activities
Repayments of long-term debt (20.0) (20.0) (20.0)
Dividends paid (53.1) (45.2) (40.0)
Net cash used in financing activities (73.1) (65.2) (60.0)
Cash and cash equivalents at end of year $ 96.3 $ 71.0 $ 52.8
8""",
    # 11: notes
    """Table of Contents
Notes to Consolidated Financial Statements
Note 1. Summary of Significant Accounting Policies
Revenue is recognized when control of a widget passes to the customer, on shipment.
Inventories are stated at the lower of cost and net realizable value.
Note 2. Income Taxes
The reconciliation of the statutory federal rate to our effective tax rate was as follows:
Statutory federal income tax rate 21.0% 21.0% 21.0%
State income taxes, net of federal benefit 1.2% 1.1% 1.0%
Effective tax rate 22.0% 22.0% 22.0%
9""",
    # 12: notes, continued
    """Table of Contents
Deferred tax assets consisted of accrued warranty costs of $4.1 million and inventory reserves.
Note 3. Segment Information
Industrial Widgets net sales were $530.0 million and Consumer Widgets net sales $282.4 million.
Net sales by geography: Americas $451.0 million, Europe $233.1 million, Asia Pacific $128.3 million.
10""",
]

LABELS = {0: ("r", 1, ""), 2: ("D", 1, "")}  # cover and TOC i, ii; then 1, 2, ...
BLANK_PAGE = 7
