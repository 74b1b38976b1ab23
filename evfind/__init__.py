"""evfind: find the physical pages of a financial filing that hold the evidence for a question.

The Python API (what the CLI, Datasette and the tests use):

    from evfind import Finder
    from evfind.ingest import ingest
    ingest("report.pdf")                       # -> report.db
    with Finder("report.db") as finder:
        for hit in finder.query("capital expenditures 2023").results:
            print(hit.page_number, hit.note)
"""

__version__ = "0.1.0"

__all__ = ["Finder", "__version__"]


def __getattr__(name):  # imported on first use: keeps `evfind --help` and queries fast
    if name == "Finder":
        from .finder import Finder

        return Finder
    raise AttributeError(name)
