"""The MCP server's tool schemas against what evfind gives, without the MCP SDK: the answer
schema (evfind/mcp_tools.py ANSWER) describes every field `Answer.to_dict()` gives, with its
type, on answers of every kind (pages found in one document or several, printed folios, no page
found, a question that cannot be asked), and the schemas of read_page and list_documents
describe what those give. A field added to the CLI's JSON reaches an agent as it is (every
object allows more fields), and this test asks for it to be described. Also: `evfind mcp`
without the extra installed."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from evfind.ingest import ingest
from evfind.mcp_server import Library
from evfind.mcp_tools import ANSWER, DOCUMENTS, PAGE, TOOLS

from .conftest import REPO, write_jsonl
from .filing import LABELS, PAGES
from .pdfgen import make_pdf
from .test_several import BETA, LEGAL

SAMPLE = REPO / "sample.db"
SAMPLE_QUESTIONS = [json.loads(line) for line in (REPO / "sample" / "questions.jsonl").read_text().splitlines()]
CAPEX = "What were capital expenditures in 2024? Use the cash flow statement."

# Fields the schema describes before evfind gives them (none now: the learned ranking's
# confidence per hit, issue 21, is given). Once to_dict gives one, take it off this list (the test says so).
ANNOUNCED: set[str] = set()


def json_type(value) -> str:
    if value is None:
        return "null"
    for kind, types in (("boolean", bool), ("integer", int), ("number", float), ("string", str), ("array", list),
                        ("object", dict)):
        if isinstance(value, types):
            return kind
    raise AssertionError(f"not a JSON value: {value!r}")


def walk(value, schema: dict, path: str, seen: set[str]) -> None:
    """Check ``value`` against the part of the schema at ``path``: its type is one the schema
    gives, every field it holds is described, every required field is there. ``seen`` gathers
    the paths met."""
    declared = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    kind = json_type(value)
    assert kind in declared or (kind == "integer" and "number" in declared), f"{path or '.'}: a {kind}, the schema says {declared}"
    seen.add(path)
    if kind == "object":
        properties = schema.get("properties", {})
        for key in schema.get("required", ()):
            assert key in value, f"{path}.{key}: required by the schema, not given"
        for key, item in value.items():
            where = f"{path}.{key}".lstrip(".")
            assert key in properties, f"{where}: given, but not described in evfind/mcp_tools.py"
            walk(item, properties[key], where, seen)
    elif kind == "array":
        for item in value:
            walk(item, schema["items"], f"{path}[]", seen)


def declared(schema: dict, path: str = "") -> set[str]:
    """Every path the schema describes."""
    found = {path}
    for key, item in schema.get("properties", {}).items():
        found |= declared(item, f"{path}.{key}".lstrip("."))
    if "items" in schema:
        found |= declared(schema["items"], f"{path}[]")
    return found


def validate(data: dict, schema: dict) -> None:
    """Also by a JSON Schema validator where one is installed (the MCP extra brings jsonschema,
    which the SDK's client checks every result with)."""
    try:
        import jsonschema
    except ImportError:
        return
    jsonschema.validate(data, schema)


@pytest.fixture(scope="module")
def shelf(tmp_path_factory):
    """sample.db; the test filing as a PDF with printed page labels; a database of two filings."""
    folder = tmp_path_factory.mktemp("shelf")
    pdf_db = ingest(make_pdf(folder / "ACME_2024_10K.pdf", PAGES, LABELS)).db_path
    two = folder / "two.db"
    ingest(write_jsonl(folder / "ACME_2024_10K.jsonl", PAGES), two, "ACME_2024_10K")
    ingest(write_jsonl(folder / "BETA_2024_10K.jsonl", BETA), two, "BETA_2024_10K")
    from .html_filing import write_filing

    html_db = ingest(write_filing(folder / "mrw-20251231.htm")).db_path  # inline XBRL: hits list facts
    return SAMPLE, pdf_db, two, html_db


def answers(shelf):
    """Answers of every kind, as find_evidence gives them (Answer.to_dict())."""
    sample, pdf_db, two, html_db = shelf
    with Library([sample]) as library:
        for item in SAMPLE_QUESTIONS:
            for question in (item["question"], item["question_zh"]):
                yield library.call("find_evidence", {"question": question})
        yield library.call("find_evidence", {"question": "what is the"})  # cannot be asked
        yield library.call("find_evidence", {"question": "widgets of Mars"})  # no page found
    with Library([pdf_db]) as library:
        yield library.call("find_evidence", {"question": CAPEX, "top": 20})  # printed folios
    with Library([html_db]) as library:
        yield library.call("find_evidence", {"question": "What were net sales in 2025?"})  # facts
    with Library([two]) as library:
        yield library.call("find_evidence", {"question": LEGAL})  # two documents asked as one
        yield library.call("find_evidence", {"question": "zebras of Antarctica"})


def test_the_answer_schema_describes_every_field_the_cli_json_gives(shelf):
    seen: set[str] = set()
    kinds = set()
    for result in answers(shelf):
        assert result.data is not None, result.text
        walk(result.data, ANSWER, "", seen)
        validate(result.data, ANSWER)
        kinds.add((result.error, bool(result.data["results"]), "documents" in result.data))
    assert kinds == {(False, True, False), (True, False, False), (False, False, False), (False, True, True),
                     (False, False, True)}
    assert {"results[].page_label"} <= seen and "documents[].document_sha256" in seen
    now_given = ANNOUNCED & seen
    assert not now_given, f"{sorted(now_given)}: given by to_dict now: take it off ANNOUNCED"
    assert declared(ANSWER) - seen == ANNOUNCED, "the schema describes fields to_dict never gives"


def test_a_field_the_answer_adds_is_caught_and_yet_passed_on(shelf):
    """The drift check fails on a field it does not know (here a confidence of another type
    than the schema's); the schema itself lets it through to the agent."""
    result = next(answers(shelf))
    drifted = json.loads(result.text)
    drifted["results"][0]["confidence"] = "high"
    drifted["results"][0]["reason"] = "new"
    with pytest.raises(AssertionError, match="confidence: a string, the schema says"):
        walk(drifted, ANSWER, "", set())
    del drifted["results"][0]["confidence"]
    with pytest.raises(AssertionError, match=r"results\[\]\.reason: given, but not described"):
        walk(drifted, ANSWER, "", set())
    validate(drifted, ANSWER)  # (more fields are allowed)


def test_the_page_and_documents_schemas_describe_what_the_tools_give(shelf):
    sample, pdf_db, two, html_db = shelf
    seen_pages: set[str] = set()
    seen_documents: set[str] = set()
    with Library([sample, pdf_db, two.parent]) as library:
        listed = library.call("list_documents", {})
        walk(listed.data, DOCUMENTS, "", seen_documents)
        validate(listed.data, DOCUMENTS)
        for document in listed.data["documents"]:
            for page in (1, 2):
                result = library.call("read_page", {"document": document["document_sha256"], "page": page})
                walk(result.data, PAGE, "", seen_pages)
                validate(result.data, PAGE)
    assert declared(PAGE) == seen_pages
    assert declared(DOCUMENTS) - seen_documents == {"not_served[]", "not_served[].path", "not_served[].reason"}


def test_the_tools_are_described_for_an_agent():
    for tool in TOOLS:
        assert tool["input_schema"]["type"] == "object" and tool["output_schema"]["type"] == "object"
        assert tool["input_schema"]["additionalProperties"] is False
        for name, argument in tool["input_schema"]["properties"].items():
            assert argument.get("description"), f"{tool['name']}({name}) has no description"
    find = TOOLS[0]["input_schema"]["properties"]
    assert find["top"]["maximum"] == 20 and find["question"]["maxLength"] == 50_000


# `evfind mcp` where the SDK cannot be imported (as without the extra installed).
WITHOUT_SDK = """
import sys
sys.modules["mcp"] = None  # import mcp... raises ImportError
sys.argv = ["evfind", "mcp", *sys.argv[1:]]
from evfind.cli import main
main()
"""


def test_without_the_extra_evfind_mcp_says_how_to_install_it():
    result = subprocess.run([sys.executable, "-c", WITHOUT_SDK, str(SAMPLE)], capture_output=True, text=True)
    assert result.returncode == 6, result.stderr
    assert result.stdout == ""
    assert result.stderr == "Error: the MCP SDK is not installed: pip install 'evfind[mcp]'\n"
