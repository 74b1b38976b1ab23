"""evfind's modules import one another in one direction only: no cycle, not even through an import
written inside a function (such an import hides a cycle from Python, not from the reader), and
never from the ingest side into the query side.

Every module is on one side, named below: the **ingest** side reads a source file and stores what
it finds (it never asks how a question is answered), the **query** side reads a question and ranks
pages, the **shared** modules are what both use (text folding, data files, errors, the store) and
import neither side, and the **entry points** (the CLI, the package, Datasette, evaluation) put the
two together. A new module must be given a side here: the test says so."""

from __future__ import annotations

import ast
from pathlib import Path

import evfind

PACKAGE = Path(evfind.__file__).parent


def modules() -> dict[str, Path]:
    """evfind's modules by name (``__init__`` for the package itself)."""
    return {path.stem: path for path in sorted(PACKAGE.glob("*.py"))}


def imports(path: Path, known: set[str]) -> set[str]:
    """The evfind modules a source file imports, wherever the import is written."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 or node.module == "evfind" or (node.module or "").startswith("evfind."):
                base = node.module if node.level == 1 else node.module.partition(".")[2]
                if base:  # from .store import x, from evfind.store import x
                    found.add(base.partition(".")[0])
                else:  # from . import store, zh; from . import __version__ (the package)
                    found.update(a.name if a.name in known else "__init__" for a in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "evfind":
                    found.add(parts[1] if len(parts) > 1 else "__init__")
    return found & known


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(path, set(found)) - {name} for name, path in found.items()}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph, as the modules along it (the first repeated at the end), or None."""
    state: dict[str, str] = {}  # name -> "open" while on the path, "done" once left
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = "open"
        path.append(name)
        for nxt in sorted(edges.get(name, ())):
            if state.get(nxt) == "open":
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[name] = "done"
        return None

    for name in sorted(edges):
        if name not in state:
            found = visit(name)
            if found:
                return found
    return None


INGEST = frozenset({
    "extract", "ingest", "structure", "headings", "statements", "forms", "release", "repair", "writes", "many", "htmlread",
    "htmlwalk", "xbrl", "printed", "layout", "folios",
})
QUERY = frozenset({
    "finder", "rank", "question", "evidence", "zh", "render", "multi", "batch", "answer", "codes", "registrant", "concepts", "pagefacts", "printedfacts", "pagefigures", "hitfacts", "readings",
    "describe", "features", "lists", "merge", "present", "queries", "signals", "auditlines", "months",
    "learned", "rules", "linechoice", "periods", "tablerows",
})
# packing is the codec of stored text: ingest packs, the store's re-index and the finder unpack;
# exhibits reads data/exhibits.tsv, the kinds of exhibit both sides name.
SHARED = frozenset({
    "_data", "_jsonl", "errors", "limits", "porter", "text", "lines", "labels", "store", "sqlerrors",
    "packing", "exhibits", "kinds", "factstore", "reindexing",
})
# pagehtml cuts a page's HTML out of the filing for `show --html` (with htmlread), as pageimage
# renders a PDF's page: both read the source file, for a person to look at.
ENTRY = frozenset({
    "__init__", "__main__", "cli", "cli_app", "cli_eval", "cli_ingest", "cli_query", "cli_serve", "cli_show",
    "evaluate", "datasette_plugin", "pageimage", "browse", "pagehtml", "mcp_server", "mcp_tools",
})


def wrong_way(edges: dict[str, set[str]]) -> list[str]:
    """The imports that point the wrong way: ingest-side to query-side, shared to either side."""
    found = []
    for name in sorted(edges):
        banned = QUERY if name in INGEST else INGEST | QUERY | ENTRY if name in SHARED else frozenset()
        found += [f"evfind.{name} imports evfind.{other}" for other in sorted(edges[name] & banned)]
    return found


def test_the_graph_is_read_from_the_source():
    edges = graph()
    assert {"finder", "question", "zh", "text", "store", "cli"} <= set(edges)
    assert "store" in edges["finder"]  # a top-level `from . import store, zh`
    assert "finder" in edges["cli_show"]  # imports written inside functions count
    assert "cli_query" in edges["cli"]  # (cli.load imports the command modules inside a function)
    assert "__init__" in edges["cli_app"]  # `from . import __version__`: the package itself


def test_the_cycle_finder_finds_a_cycle():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_evfind_modules_import_without_a_cycle():
    found = cycle(graph())
    assert found is None, "import cycle: " + " -> ".join(f"evfind.{name}" for name in found)


def test_every_module_is_on_one_side():
    sides = [INGEST, QUERY, SHARED, ENTRY]
    named = [name for side in sides for name in side]
    assert len(named) == len(set(named)), "a module is on two sides"
    unnamed = sorted(set(modules()) - set(named))
    assert not unnamed, f"give these modules a side in tests/test_layers.py: {unnamed}"
    assert not set(named) - set(modules()), sorted(set(named) - set(modules()))  # a side names no old module


def test_the_direction_check_finds_an_import_the_wrong_way():
    assert wrong_way({"structure": {"text", "rank"}, "text": {"finder"}, "finder": {"structure"}, "cli": {"ingest"}}) == [
        "evfind.structure imports evfind.rank",
        "evfind.text imports evfind.finder",
    ]


def test_ingest_imports_nothing_query_side_and_shared_modules_neither_side():
    assert wrong_way(graph()) == []


def test_no_module_is_over_700_lines():
    """A module has one job; past 700 lines it has taken a second one (CONTRIBUTING.md, Layout)."""
    long = {name: n for name, path in modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > 700}
    assert long == {}
