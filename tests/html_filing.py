"""An inline-XBRL 10-K written for the tests, as EDGAR holds one: an XML declaration, the XHTML
namespaces, a hidden ix:header with its contexts and units, page breaks of every kind, a blank
page between two breaks, a break before anything is displayed and one after the last page,
entities, no-break spaces, soft hyphens and zero-width spaces, a statement table whose cells
hold "$", the figures and the closing brackets apart, a note in a text block that goes on in an
ix:continuation, a fact that runs across a page break, and printed folios. Every page's text,
label and fact is known, so tests check them exactly.

Pages (physical, from 1):
  1 cover (no folio)                          ends with <hr style="page-break-after:always">
  2 Item 7, MD&A (folio 1)                    the next page starts <div style="page-break-before: always">
  3 Item 8, the income statement (folio 2)    ends with <p style="break-after: page">
  4 blank: only a display:none <div> between two breaks
  5 Note 5, a text block (folio 4, at its head) a fact runs on over the break
  6 its ix:continuation (folio 5)             ends with a break, then nothing displayed
"""

from __future__ import annotations

from pathlib import Path

COMPANY = "Morrow Tools Inc."

HEADER = """<div style="display:none"><ix:header><ix:hidden>
<ix:nonNumeric name="dei:AmendmentFlag" contextRef="FY2025">false</ix:nonNumeric>
</ix:hidden><ix:references><link:schemaRef xlink:type="simple" xlink:href="mrw-20251231.xsd"/></ix:references>
<ix:resources>
<xbrli:context id="FY2025"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000999999</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:startDate>2025-01-01</xbrli:startDate><xbrli:endDate>2025-12-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="FY2024"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000999999</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="I2025"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000999999</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:instant>2025-12-31</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:context id="FY2025_Saws"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000999999</xbrli:identifier>
<xbrli:segment><xbrldi:explicitMember dimension="us-gaap:StatementBusinessSegmentsAxis">mrw:SawsMember</xbrldi:explicitMember></xbrli:segment></xbrli:entity>
<xbrli:period><xbrli:startDate>2025-01-01</xbrli:startDate><xbrli:endDate>2025-12-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
<xbrli:unit id="usdPerShare"><xbrli:divide><xbrli:unitNumerator><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unitNumerator>
<xbrli:unitDenominator><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unitDenominator></xbrli:divide></xbrli:unit>
</ix:resources></ix:header></div>"""


def _money(name: str, context: str, shown: str, **attributes: str) -> str:
    extra = "".join(f' {key}="{value}"' for key, value in attributes.items())
    return (f'<ix:nonFraction unitRef="usd" contextRef="{context}" decimals="-6" name="{name}" '
            f'format="ixt:num-dot-decimal" scale="6" id="f-{name.split(":")[1]}-{context}"{extra}>{shown}</ix:nonFraction>')


def _row(label: str, *cells: str) -> str:
    return "<tr>" + f'<td style="width:60%"><div><span>{label}</span></div></td>' + "".join(
        f'<td style="text-align:right"><span>{cell}</span></td>' for cell in cells
    ) + "</tr>"


def filing_html(company: str = COMPANY) -> str:
    """The filing's HTML (see the module's docstring for its pages)."""
    income = "".join([
        '<table style="border-collapse:collapse">',
        _row("(In millions, except per share data)", "", "2025", "", "2024"),
        _row("Net sales", "$", _money("us-gaap:Revenues", "FY2025", "1,234"), "$", _money("us-gaap:Revenues", "FY2024", "1,100")),
        _row("Cost of sales", "", _money("us-gaap:CostOfRevenue", "FY2025", "734"), "", _money("us-gaap:CostOfRevenue", "FY2024", "680")),
        _row("Other income (expense), net", "",
             "(" + _money("us-gaap:NonoperatingIncomeExpense", "FY2025", "12", sign="-"), ")",
             "(" + _money("us-gaap:NonoperatingIncomeExpense", "FY2024", "10", sign="-"), ")"),
        _row("Net income", "$", _money("us-gaap:NetIncomeLoss", "FY2025", "350"), "$", _money("us-gaap:NetIncomeLoss", "FY2024", "298")),
        _row("Diluted earnings per share", "$",
             '<ix:nonFraction unitRef="usdPerShare" contextRef="FY2025" decimals="2" name="us-gaap:EarningsPerShareDiluted" '
             'format="ixt:num-dot-decimal" id="f-eps-2025">2.75</ix:nonFraction>', "$", "2.40"),
        "</table>",
    ])
    return f"""<?xml version='1.0' encoding='ASCII'?>
<!--Written for the evfind tests-->
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:us-gaap="http://fasb.org/us-gaap/2024" xmlns:dei="http://xbrl.sec.gov/dei/2024" xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12" xmlns:link="http://www.xbrl.org/2003/linkbase" xmlns:xlink="http://www.w3.org/1999/xlink">
<head><title>mrw-20251231</title><style>p {{ margin: 0 }}</style><script>document.title = "not text";</script></head>
<body>
{HEADER}
<hr style="page-break-after:always"/>
<div style="text-align:center"><span style="font-weight:700">UNITED STATES</span></div>
<div style="text-align:center"><span>SECURITIES AND EXCHANGE COMMISSION</span></div>
<div style="text-align:center"><span>FORM 10-K</span></div>
<div><span>For the fiscal year ended December&#160;31, 2025</span></div>
<div><ix:nonNumeric name="dei:EntityRegistrantName" contextRef="FY2025" id="f-name">{company}</ix:nonNumeric></div>
<hr style="page-break-after:always"/>
<div><span>Item&#160;7. Management&#8217;s Discussion and Analysis of Financial Condition and Results of Operations</span></div>
<p>Net sales rose to $1,234 million, as tool&#173;ing orders grew &amp; prices held.</p>
<p>Our saws&#8203;business led the year.<br/>Margins widened.</p>
<div style="text-align:center"><span>1</span></div>
<div style="page-break-before: always"><span>Item&#160;8. Financial Statements and Supplementary Data</span></div>
<div style="text-align:center"><span>{company.upper()}</span></div>
<div style="text-align:center"><span>CONSOLIDATED STATEMENTS OF INCOME</span></div>
{income}
<div style="text-align:center"><span>2</span></div>
<p style="break-after: page"></p>
<div style="display:none"><span>A hidden note, on no page.</span></div>
<hr style="page-break-after:always"/>
<div style="text-align:right"><span>4</span></div>
<ix:nonNumeric name="us-gaap:IncomeTaxDisclosureTextBlock" contextRef="FY2025" id="tb-tax" continuedAt="tb-tax-2" escape="true">
<div><span>Note&#160;5 &#8212; Amounts Owed to Governments</span></div>
<div><span>Income before taxes of the saws segment was </span><span>{_money("us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest", "FY2025_Saws", "300")}</span><span> million.</span></div>
<div><span>Deferred tax assets were $</span>{_money("us-gaap:DeferredTaxAssetsNet", "I2025", "45")}<span> million at year end.</span></div>
</ix:nonNumeric>
<div><ix:nonNumeric name="us-gaap:IncomeTaxExaminationDescription" contextRef="FY2025" id="f-exam"><span>Tax years from 2019 remain </span><hr style="page-break-after:always"/><span>open to examination.</span></ix:nonNumeric></div>
<ix:continuation id="tb-tax-2">
<div><span>The effective tax rate was 21.5% in 2025.</span></div>
</ix:continuation>
<div style="text-align:center"><span>5</span></div>
<hr style="page-break-after:always"/>
<div><span>&#160;</span></div>
</body>
</html>
"""


# The text of each page as evfind indexes it (text.normalise of what htmlread.py lays out).
TEXTS = [
    "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\nFor the fiscal year ended December 31, 2025\n"
    + COMPANY,
    "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations\n"
    "Net sales rose to $1,234 million, as tooling orders grew & prices held.\n"
    "Our sawsbusiness led the year.\nMargins widened.\n1",
    "Item 8. Financial Statements and Supplementary Data\nMORROW TOOLS INC.\nCONSOLIDATED STATEMENTS OF INCOME\n"
    "(In millions, except per share data) 2025 2024\n"
    "Net sales $ 1,234 $ 1,100\n"
    "Cost of sales 734 680\n"
    "Other income (expense), net (12) (10)\n"
    "Net income $ 350 $ 298\n"
    "Diluted earnings per share $ 2.75 $ 2.40\n"
    "2",
    "",
    "4\nNote 5 - Amounts Owed to Governments\n"
    "Income before taxes of the saws segment was 300 million.\n"
    "Deferred tax assets were $45 million at year end.\n"
    "Tax years from 2019 remain",
    "open to examination.\nThe effective tax rate was 21.5% in 2025.\n5",
]
LABELS = [None, "1", "2", None, "4", "5"]


def write_filing(path: Path, company: str = COMPANY) -> Path:
    path.write_text(filing_html(company), encoding="ascii", errors="xmlcharrefreplace")
    return path
