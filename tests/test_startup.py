"""A query process loads only what a query needs: not the PDF library, not sqlite-utils, not the
ingest side of evfind, not what Typer can do without (rich, pydantic), and at import it does
no work a query might not need (no data file read, no pattern compiled that an English question
does not run). The rules are in CONTRIBUTING.md (Start-up); speed itself is measured by
benchmarks/speed.py, never here."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from evfind import evidence, present, question, text

from .test_cli import CAPEX

# Runs the CLI in a fresh process and reports the modules it loaded. Nothing is imported
# before main() that a query would not import itself (json is imported after the count).
PROBE = """
import sys
sys.argv = ["evfind", *sys.argv[1:]]
from evfind.cli import main
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
modules = sorted(sys.modules)
import json
sys.stderr.write(json.dumps({"code": code, "modules": modules}))
"""

# What every Typer CLI that reads SQLite loads anyway: the floor of benchmarks/speed.py.
FLOOR = """
import sqlite3, sys
import typer
modules = sorted(sys.modules)
import json
print(json.dumps(modules))
"""

NOT_ON_THE_QUERY_PATH = (
    "pypdfium2",
    "sqlite_utils",
    "datasette",
    "rich",
    "pydantic",
    "dataclasses",  # creating a frozen dataclass costs about half a millisecond: records are NamedTuples
    "json",  # only --format json (and --questions) pay for it
    "evfind.ingest",
    "evfind.extract",
    "evfind.structure",
    "evfind.evaluate",
    "evfind.writes",
    "evfind.batch",
    "evfind.packing",  # only `evfind show` and `evfind upgrade` unpack the raw text
    "evfind.datasette_plugin",
    "evfind.pageimage",
    "evfind.sqlerrors",  # SQLite's errors mapped to evfind's: loaded when one is met
    "evfind.browse",  # `evfind serve` only
    "evfind.cli_ingest",  # of the command line, a query imports cli, cli_app and cli_query alone
    "evfind.cli_show",
    "evfind.cli_eval",
    "evfind.cli_serve",
    "evfind.mcp_server",  # `evfind mcp` only, and with it the MCP SDK and what it brings:
    "evfind.mcp_tools",
    "mcp",
    "mcp_types",
    "anyio",
    "starlette",
    "httpx2",
    "jsonschema",
)



def loaded(*args) -> tuple[int, str, set[str]]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *[str(a) for a in args]],
        capture_output=True,
        text=True,
    )
    report = json.loads(result.stderr.splitlines()[-1] if "\n" in result.stderr else result.stderr)
    return report["code"], result.stdout, set(report["modules"])


def banned(modules: set[str], names=NOT_ON_THE_QUERY_PATH) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in names or m in names)


@pytest.fixture(scope="module")
def floor() -> set[str]:
    result = subprocess.run([sys.executable, "-c", FLOOR], capture_output=True, text=True, check=True)
    return set(json.loads(result.stdout))


def test_query_imports_only_what_a_query_needs(filing_db, floor):
    code, stdout, modules = loaded("query", filing_db, CAPEX)
    assert code == 0, stdout
    assert "Consolidated Statements of Cash Flows" in stdout
    assert "evfind.finder" in modules  # the probe really ran a query
    assert banned(modules - floor) == []  # (what typer loads itself is not evfind's doing)
    # Of the standard library, a query loads only what typer and sqlite3 load already,
    # unicodedata (the table's cell widths and the control characters of its evidence lines) and
    # __future__ (the cli modules' annotations stay strings: Typer evaluates the query command's alone).
    assert {m for m in modules - floor if m.split(".")[0] not in ("evfind", "typer", "click")} <= {"unicodedata", "__future__"}


def test_json_query_imports_json_and_nothing_else_more(filing_db, floor):
    code, stdout, modules = loaded("query", filing_db, CAPEX, "--format", "json")
    assert code == 0, stdout
    assert json.loads(stdout)["results"][0]["page_number"] == 10
    assert "json" in modules
    assert banned(modules - floor, set(NOT_ON_THE_QUERY_PATH) - {"json"}) == []


def test_an_english_question_does_not_import_the_chinese_reader(filing_db):
    """zh.py (the glossary reader, the Chinese notes, messages and labels) is imported by a
    Chinese question, or a Chinese answer, only."""
    for args in ([CAPEX], [CAPEX, "--format", "markdown"], [CAPEX, "--format", "json"], [CAPEX, "--explain"],
                 ["what is the"], ["widgets of Mars"]):  # no content words (an error); no page found
        code, stdout, modules = loaded("query", filing_db, *args)
        assert code in (0, 1, 2) and "evfind.finder" in modules
        assert "evfind.zh" not in modules, args
    for args in (["2024财年的资本支出是多少？"], [CAPEX, "--lang", "zh"], ["what is the", "--lang", "zh"]):
        code, stdout, modules = loaded("query", filing_db, *args)
        assert "evfind.zh" in modules, args


def test_a_filing_without_facts_imports_no_fact_reader(filing_db):
    """A filing ingested from PDF tags no inline-XBRL fact: its query, its --explain and its
    JSON import neither the fact store nor the concepts reader (some 2 ms of a query process),
    and say no fact."""
    for args in ([CAPEX], [CAPEX, "--explain"], [CAPEX, "--format", "json"]):
        code, stdout, modules = loaded("query", filing_db, *args)
        assert code == 0 and "evfind.finder" in modules, stdout
        assert {"evfind.concepts", "evfind.factstore"}.isdisjoint(modules), args
    assert all(not hit["facts"] for hit in json.loads(stdout)["results"])
    from evfind import Finder
    from evfind.concepts import Lookup

    with Finder(filing_db) as finder:  # what the fact reader would have found: nothing
        facts = finder.explain(CAPEX).facts
    assert facts == Lookup((), ()) and facts.facts == facts.pages == facts.on_page(1) == ()


def test_batch_query_imports_nothing_more(filing_db, tmp_path):
    source = tmp_path / "q.txt"
    source.write_text(CAPEX + "\n", encoding="utf-8")
    code, stdout, modules = loaded("query", filing_db, "--questions", source)
    assert code == 0
    assert json.loads(stdout)["results"][0]["page_number"] == 10
    assert not {m.split(".")[0] for m in modules} & {"pypdfium2", "sqlite_utils", "datasette", "rich", "pydantic"}
    assert "evfind.ingest" not in modules and "evfind.structure" not in modules


# Runs the CLI in a fresh process and reports the commands Typer built Click commands for.
BUILT = """
import sys
import typer.main

built = []
_build = typer.main.get_command_from_info


def recording(command_info, **options):
    built.append(command_info.name or command_info.callback.__name__)
    return _build(command_info, **options)


typer.main.get_command_from_info = recording
sys.argv = ["evfind", *sys.argv[1:]]
from evfind.cli import main

try:
    main()
except SystemExit:
    pass
sys.stderr.write("\\nbuilt: " + " ".join(built))
"""


def built(*args) -> tuple[str, str, list[str]]:
    """(stdout, stderr, the commands built) of the CLI run with ``args`` in a fresh process."""
    result = subprocess.run([sys.executable, "-c", BUILT, *[str(a) for a in args]], capture_output=True, text=True,
                            env={**os.environ, "COLUMNS": "100", "TERM": "dumb", "NO_COLOR": "1"})
    stderr, _, commands = result.stderr.rpartition("\nbuilt: ")
    return result.stdout, stderr, commands.split()


def test_a_command_builds_only_its_own_click_command(filing_db, cli):
    stdout, _, commands = built("query", filing_db, CAPEX)
    assert "Consolidated Statements of Cash Flows" in stdout
    assert commands == ["query"]
    # the one command prints what the whole app prints: its help, its usage errors
    for args in (["query", "--help"], ["query"], ["query", filing_db, "-5% growth"], ["show", "--help"]):
        stdout, stderr, commands = built(*args)
        assert commands == [args[0]]
        whole = cli(*args)
        assert (stdout, stderr) == (whole.stdout, whole.stderr)
    # no command named, or a misspelt one: the whole app, to list the commands or suggest one
    stdout, _, commands = built("--help")
    assert sorted(commands) == ["eval", "info", "ingest", "mcp", "query", "serve", "show", "upgrade"]
    assert stdout == cli("--help").stdout
    _, stderr, commands = built("quer", filing_db, CAPEX)
    assert len(commands) == 8 and "Did you mean 'query'" in stderr


def test_the_command_line_starts_with_start_up_frozen_and_the_collector_back_on():
    """The console script (evfind.__main__) imports the command line with the garbage collector
    off, freezes what that made, and switches the collector back on: a long command (a batch,
    `evfind serve`) still collects its garbage. A program that imports evfind.cli keeps its own."""
    probe = (
        "import gc, sys\n"
        "import evfind.__main__\n"
        "frozen = gc.get_freeze_count()\n"
        "import evfind.cli\n"
        "print(gc.isenabled(), frozen > 10000, any(m.startswith('typer') for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True).stdout.split() == ["True", "True", "True"]
    plain = "import gc\nimport evfind.cli\nprint(gc.isenabled(), gc.get_freeze_count())"
    assert subprocess.run([sys.executable, "-c", plain], capture_output=True, text=True).stdout.split() == ["True", "0"]


def test_the_console_script_imports_its_command_with_the_collector_off_and_collects_less_often():
    """Before the command runs, the console script imports its module (cli_query for `query`)
    with the collector off and freezes what that made, and raises the collector's first
    threshold (a query's collections would free nothing); the collector is on for the command."""
    probe = (
        "import gc, sys\n"
        "sys.argv = ['evfind', 'query']\n"
        "import evfind.__main__ as console\n"
        "before = gc.get_freeze_count()\n"
        "loaded = 'evfind.cli_query' in sys.modules\n"
        "console._start()\n"
        "print(loaded, 'evfind.cli_query' in sys.modules, gc.get_freeze_count() > before,\n"
        "      gc.get_threshold()[0] == console.YOUNG > 700, gc.isenabled())"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.split() == ["False", "True", "True", "True", "True"], done.stderr


def test_ingest_does_load_the_pdf_library(filing_pdf, tmp_path):
    # the probe sees imports: the same probe on ingest finds pypdfium2
    code, _, modules = loaded("ingest", filing_pdf, "--db", tmp_path / "probe.db", "--quiet")
    assert code == 0
    assert "pypdfium2" in modules and "evfind.structure" in modules


# Imports the modules of the query path in a fresh process after the floor's own imports and
# reports the regular expressions evfind's modules compiled and the files they opened meanwhile.
IMPORT_PROBE = """
import re, sys
import sqlite3, typer

compiled, opened = [], []
_compile = re._compile


def recording(pattern, flags):
    caller = sys._getframe(1)
    while caller.f_globals.get("__name__", "").partition(".")[0] == "re":
        caller = caller.f_back
    if caller.f_globals.get("__name__", "").startswith("evfind"):
        compiled.append(str(pattern))
    return _compile(pattern, flags)


re._compile = recording
sys.addaudithook(lambda event, args: opened.append(str(args[0])) if event == "open" else None)
import evfind.cli, evfind.cli_query, evfind.finder, evfind.multi, evfind.render  # what `evfind query` imports

from evfind._data import DATA
import json
print(json.dumps({"compiled": compiled, "data": [p for p in opened if p.startswith(str(DATA))]}))
"""

# The patterns every English question runs. None is compiled at import (text.LazyPattern: on
# first use), so a process pays only for those its question runs; any other pattern is compiled
# where it is used (the Chinese reader's, ingest's): the Han ranges alone take some 7 ms.
EVERY_QUERY = {
    pattern.pattern
    for pattern in (
        text._TOKEN,  # the question's words
        question._YEAR,  # fiscal years
        question._WHERE,  # does it ask where, or for a figure
        question._FIGURE,
        present.MARK,  # the matched spans of each hit
        evidence._SPAN,  # the evidence lines of the leading pages
        evidence._TOKEN,
        evidence._DIGIT,
        evidence._FIGURE,
        evidence._YEAR,
        evidence._DATE,
    )
}


def test_importing_the_query_path_reads_no_data_and_compiles_only_what_every_query_runs():
    result = subprocess.run([sys.executable, "-c", IMPORT_PROBE], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["data"] == []  # the vocabulary is read on first use
    assert set(report["compiled"]) <= EVERY_QUERY
    assert report["compiled"] == []  # not even those: compiled on first use


def test_the_vocabulary_is_kept_between_processes(tmp_path, monkeypatch):
    """The tables a question is read with are built once and read back from the user's cache
    while the data files are unchanged; a changed file, or no cache, builds them again."""
    import marshal

    from evfind import _data, question

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("EVFIND_NO_CACHE", raising=False)
    built = question._build_vocabulary()
    assert _data.compiled("question", question._VOCABULARY_FILES, question._build_vocabulary) == built
    (kept,) = (tmp_path / "evfind").glob("question-*.marshal")
    key, value = marshal.loads(kept.read_bytes())
    assert value == built and "lexicon.tsv:" in key
    # read back without building: a build that fails proves it is not called
    def fail():
        raise AssertionError("built again")

    assert _data.compiled("question", question._VOCABULARY_FILES, fail, code=question.__file__) == built
    # another key (a data file changed size or time, another evfind version): built again
    kept.write_bytes(marshal.dumps(("another key", {"stale": True})))
    assert _data.compiled("question", question._VOCABULARY_FILES, lambda: "rebuilt", code=question.__file__) == "rebuilt"
    # a value written under a new key removes this install's files of the same name under older
    # keys; not another name's, nor another install's (checkout) of the same name
    install = kept.name.rsplit("-", 1)[0]  # question-<install>
    assert install.startswith("question-") and len(install) == len("question-") + 8
    folder = tmp_path / "evfind"
    stale, other = folder / f"{install}-0badc0de.marshal", folder / "zh-0badc0de-0badc0de.marshal"
    elsewhere = folder / "question-0badc0de-0badc0de.marshal"
    for path in (stale, other, elsewhere, kept):  # (kept under another key too: the value is written anew)
        path.write_bytes(marshal.dumps(("an older key", {})))
    assert _data.compiled("question", question._VOCABULARY_FILES, lambda: "rebuilt", code=question.__file__) == "rebuilt"
    assert sorted(p.name for p in folder.iterdir()) == sorted([kept.name, other.name, elsewhere.name])
    assert _data.compiled("question", question._VOCABULARY_FILES, fail, code=question.__file__) == "rebuilt"  # read back
    # no cache at all: built every time
    monkeypatch.setenv("EVFIND_NO_CACHE", "1")
    assert _data.compiled("question", question._VOCABULARY_FILES, lambda: "fresh") == "fresh"


def test_the_python_api_imports_nothing_of_the_mcp_sdk(filing_db):
    """`import evfind` and a query through the Python API load no part of the MCP SDK (nor
    evfind's server over it): `evfind mcp` alone does (tests/test_mcp.py)."""
    probe = (
        "import sys\n"
        "import evfind\n"
        "from evfind import Finder\n"
        "from evfind.multi import open_finder\n"
        f"with open_finder({str(filing_db)!r}) as finder:\n"
        f"    assert finder.query({CAPEX!r}).results[0].page_number == 10\n"
        "print(' '.join(sorted(sys.modules)))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    modules = set(result.stdout.split())
    assert "evfind.finder" in modules
    assert banned(modules, {"mcp", "mcp_types", "anyio", "evfind.mcp_server"}) == []


# Runs the console script's main in a fresh process, saying on stderr whether it left by
# os._exit; `--atexit` registers an atexit function first, `--thread` leaves a thread running.
LEAVE = """
import atexit, os, sys, threading, time
if sys.argv[1] == "--atexit":
    del sys.argv[1]
    atexit.register(lambda: sys.stderr.write("atexit ran\\n"))
if sys.argv[1] == "--thread":
    del sys.argv[1]
    def wait():  # until the main thread is done, as a worker would
        while threading.main_thread().is_alive():
            time.sleep(0.01)
        sys.stderr.write("thread done\\n")

    threading.Thread(target=wait).start()
sys.argv = ["evfind", *sys.argv[1:]]
leave = os._exit
os._exit = lambda status: (sys.stderr.write(f"os._exit({status})\\n"), sys.stderr.flush(), leave(status))
import evfind.__main__
evfind.__main__.main()
"""


def test_the_console_script_leaves_at_once_only_when_nothing_is_left(filing_db):
    """The console script ends the process with os._exit once its output is flushed (the
    interpreter's exit would only free memory), with the command's exit status and all of its
    output; an atexit function or a running thread gets Python's own exit, which runs and waits
    for them."""
    def leave(*args):
        return subprocess.run([sys.executable, "-c", LEAVE, *[str(a) for a in args]], capture_output=True, text=True)

    registered = subprocess.run([sys.executable, "-c", "import atexit; print(atexit._ncallbacks())"],
                                capture_output=True, text=True).stdout.strip()
    if registered != "0":  # (a .pth file of some other package, run by site at start-up)
        pytest.skip(f"this Python registers {registered} atexit function(s) before evfind starts, so the "
                    "console script rightly takes Python's own exit; run the tests in the project's venv")

    found = leave("query", filing_db, CAPEX, "--top", "12", "--format", "json")
    assert found.returncode == 0 and found.stderr == "os._exit(0)\n"
    assert len(json.loads(found.stdout)["results"]) > 1  # all of it, flushed
    missing = leave("query", filing_db, "zebra giraffe hippopotamus")
    assert missing.returncode == 1 and missing.stderr.endswith("os._exit(1)\n")
    usage = leave("query", filing_db, "--top", "0", CAPEX)  # (Typer's usage error imports logging,
    assert usage.returncode == 2 and "os._exit" not in usage.stderr  # which registers an atexit function)
    waited = leave("--atexit", "query", filing_db, CAPEX)
    assert waited.returncode == 0 and waited.stderr == "atexit ran\n" and "Cash Flows" in waited.stdout
    waited = leave("--thread", "query", filing_db, CAPEX)
    assert waited.returncode == 0 and waited.stderr == "thread done\n"


def lazy_patterns() -> list[tuple[object, int]]:
    """(pattern, flags) of every LazyPattern of evfind's modules (those that import here) kept in
    the shared file (not text.CHINESE's: the patterns only a Chinese question runs)."""
    import importlib
    import pkgutil

    import evfind

    found = []
    for info in pkgutil.iter_modules(evfind.__path__):
        if info.name in ("__main__", "mcp_server", "mcp_tools", "datasette_plugin"):  # (start-up; the servers)
            continue
        try:
            module = importlib.import_module(f"evfind.{info.name}")
        except ImportError:  # an extra that is not installed (datasette, mcp)
            continue
        for value in vars(module).values():
            if isinstance(value, text.LazyPattern) and value.programs is None:
                found.append((value.pattern() if callable(value.pattern) else value.pattern, int(value.flags)))
    return list(dict.fromkeys(found))


def test_the_programs_of_patterns_are_kept_between_processes(tmp_path, monkeypatch):
    """Each LazyPattern is compiled by re once per Python, not once per process: its program is
    kept in the user's cache and made into the pattern by _sre at once, a pattern equal to the
    one re compiles (patterns compare equal when their code does). A damaged file, another
    Python's, or EVFIND_NO_CACHE: re compiles them, as if there were no cache."""
    import re

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("EVFIND_NO_CACHE", raising=False)
    wanted = lazy_patterns()
    assert 30 < len(wanted) < text.Programs.MAX / 2 and any(isinstance(p, bytes) for p, _ in wanted)  # (kinds.py's are bytes)
    expected = [re.compile(p, f) for p, f in wanted]
    assert [text.Programs().compile(p, f) for p, f in wanted] == expected  # compiled by re, kept
    (kept,) = (tmp_path / "evfind").glob("patterns-*.marshal")
    compiled = []
    real = re.compile
    monkeypatch.setattr(re, "compile", lambda *args: compiled.append(args) or real(*args))
    made = [text.Programs().compile(p, f) for p, f in wanted]
    assert made == expected and compiled == []  # read back: none compiled by re
    assert [m.groupindex for m in made] == [e.groupindex for e in expected]
    def found(pattern):
        match = pattern.search("Why did net sales grow 12% in fiscal 2024, Item 7 (U.S.)?")
        return match and (match.span(), match.groups())

    assert [found(m) for m in made if isinstance(m.pattern, str)] == [found(e) for e in expected if isinstance(e.pattern, str)]
    kept.write_bytes(b"not a marshal file")
    assert [text.Programs().compile(p, f) for p, f in wanted[:5]] == expected[:5] and len(compiled) == 5
    import marshal

    kept.write_bytes(marshal.dumps(("another Python", {key: None for key in wanted})))
    assert [text.Programs().compile(p, f) for p, f in wanted[:5]] == expected[:5] and len(compiled) == 10
    monkeypatch.setenv("EVFIND_NO_CACHE", "1")
    kept.unlink()
    assert text.Programs().compile(*wanted[0]) == expected[0] and not kept.exists()


def test_a_second_query_process_compiles_none_of_evfinds_patterns(filing_db, tmp_path):
    probe = (
        "import re, sys\n"
        "compiled = []\n"
        "_compile = re._compile\n"
        "def recording(pattern, flags):\n"
        "    caller = sys._getframe(1)\n"
        "    while caller.f_globals.get('__name__', '').partition('.')[0] == 're':\n"
        "        caller = caller.f_back\n"
        "    if caller.f_globals.get('__name__', '') == 'evfind.text' and type(pattern) is str:\n"
        "        compiled.append(pattern)  # a LazyPattern's, compiled by re\n"
        "    return _compile(pattern, flags)\n"
        "re._compile = recording\n"
        "sys.argv = ['evfind', *sys.argv[1:]]\n"
        "from evfind.cli import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "sys.stderr.write(f'\\ncompiled {len(compiled)}')\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    env.pop("EVFIND_NO_CACHE", None)

    def compiled() -> int:
        done = subprocess.run([sys.executable, "-c", probe, "query", str(filing_db), CAPEX], capture_output=True, text=True, env=env)
        assert "Consolidated Statements of Cash Flows" in done.stdout, done.stderr
        return int(done.stderr.rpartition("compiled ")[2])

    assert compiled() > 10  # the first: every pattern the question runs, compiled by re and kept
    assert compiled() == 0  # the next: made from the kept programs
