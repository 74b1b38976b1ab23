"""forms.cover_period: the period a filing's cover page prints, as the SEC's cover pages print
it (list_documents of `evfind mcp` gives it with its page)."""

from __future__ import annotations

import pytest

from evfind.forms import cover_period


@pytest.mark.parametrize(
    "pages, period",
    [
        (["FORM 10-K\nFor the fiscal year ended December 31, 2025\nOR"], (1, "fiscal year ended December 31, 2025")),
        (["Contents", "FORM 10-Q\nFor the Quarterly Period Ended\nJune 30 , 2024"], (2, "quarterly period ended June 30, 2024")),
        (["FORM 8-K\nCURRENT REPORT\nDate of Report (Date of earliest event reported): March 3, 2025"], (1, "date of report March 3, 2025")),
        (["FORM 8-K\nMarch 3, 2025\n(Date of Report)"], (1, "date of report March 3, 2025")),
        (["Acme Reports Fourth Quarter Results", "Years ended December 31, 2024 2023"], None),  # no cover
        (["a", "b", "c", "For the fiscal year ended December 31, 2025"], None),  # not on the first pages
        (["For the transition period from ____ to ____"], None),
    ],
)
def test_the_period_a_cover_page_prints(pages, period):
    assert cover_period(pages) == period
