"""Issue 24: `evfind mcp sample.db`, spoken to by the MCP SDK's own stdio client, answers every
question of sample.db's own tests as `evfind query --format json` does, numbers a page's lines
as the evidence lines are numbered, and refuses what the CLI refuses, with its message, as a
tool error the server survives. One server process serves the whole module."""

from __future__ import annotations

import json

import pytest

from .conftest import REPO, Cli
from .mcpclient import McpClient

SAMPLE = REPO / "sample.db"
SAMPLE_QUESTIONS = [json.loads(line) for line in (REPO / "sample" / "questions.jsonl").read_text().splitlines()]
QUESTIONS = [item["question"] for item in SAMPLE_QUESTIONS] + [item["question_zh"] for item in SAMPLE_QUESTIONS]
CAPEX = "What were capital expenditures in 2025? Use the cash flow statement."


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    client = McpClient(SAMPLE, errlog=tmp_path_factory.mktemp("mcp") / "stderr.txt")
    yield client
    client.close()


@pytest.fixture(scope="module")
def cli() -> Cli:
    return Cli()


def cli_json(cli: Cli, *args):
    result = cli(*args, "--format", "json")
    return result, json.loads(result.stdout)


def test_the_server_says_who_it_is_and_lists_its_three_tools(server):
    from evfind import __version__
    from evfind.mcp_tools import TOOLS

    assert server.initialized.server_info.name == "evfind"
    assert server.initialized.server_info.version == __version__
    assert "never computes" in server.initialized.instructions
    tools = {tool.name: tool for tool in server.tools()}
    assert list(tools) == ["find_evidence", "read_page", "list_documents"]
    for declared in TOOLS:
        tool = tools[declared["name"]]
        assert len(tool.description) > 100  # what an agent decides by
        assert tool.input_schema == declared["input_schema"] and tool.input_schema["type"] == "object"
        assert tool.output_schema == declared["output_schema"] and tool.output_schema["type"] == "object"
        assert tool.annotations.read_only_hint is True  # started without --ingest: it only reads
    assert tools["find_evidence"].input_schema["required"] == ["question"]
    assert tools["read_page"].input_schema["required"] == ["document", "page"]


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_sample_question_gets_the_answer_the_cli_gives(server, cli, question):
    result, expected = cli_json(cli, "query", SAMPLE, question)
    assert result.exit_code == 0, result.output
    answer = server.call("find_evidence", question=question)
    assert not answer.is_error
    assert answer.structured_content == expected  # the pages, and every other field, exactly
    assert json.loads(answer.content[0].text) == expected
    assert [hit["page_number"] for hit in expected["results"]]  # (pages were found)


def test_the_options_are_the_clis(server, cli):
    question = SAMPLE_QUESTIONS[2]["question"]
    result, expected = cli_json(cli, "query", SAMPLE, question, "--top", "12", "--lang", "zh", "--document", "halden")
    assert result.exit_code == 0, result.output
    answer = server.call("find_evidence", question=question, top=12, lang="zh", document="halden")
    assert answer.structured_content == expected
    assert len(expected["results"]) == 12 and "命中" in expected["results"][0]["note"]
    sha = expected["document"]["document_sha256"]
    assert server.call("find_evidence", question=question, document=sha[:10]).structured_content == cli_json(
        cli, "query", SAMPLE, question)[1]  # a SHA-256 prefix names the revision


def test_read_page_numbers_lines_as_the_evidence_lines_are_numbered(server, cli):
    checked = 0
    for question in QUESTIONS:
        for hit in server.call("find_evidence", question=question).structured_content["results"][:3]:
            for evidence in hit["evidence"]:
                page = server.call("read_page", document=hit["document_sha256"], page=hit["page_number"],
                                   lines=evidence["line"])
                assert not page.is_error, page.content[0].text
                assert page.structured_content["lines"] == [{"line": evidence["line"], "text": evidence["text"]}]
                checked += 1
    assert checked > 100
    # the whole page: the lines of `evfind show --format json`'s text, its label and headings
    result, shown = cli_json(cli, "show", SAMPLE, "38")
    page = server.call("read_page", document="HALDEN_2025_10K", page=38).structured_content
    assert [line["text"] for line in page["lines"]] == shown["text"].split("\n")
    assert [line["line"] for line in page["lines"]] == list(range(1, page["line_count"] + 1))
    assert {key: page[key] for key in ("page_number", "page_label", "heading", "section", "section_heading", "statement")} == {
        key: shown[key] for key in ("page_number", "page_label", "heading", "section", "section_heading", "statement")}
    assert page["document"] == {key: shown["document"][key] for key in ("document_id", "document_sha256", "page_count")}
    assert page["lines"][28]["text"].startswith("Purchases of property, plant and equipment")  # line 29
    ranged = server.call("read_page", document="halden", page=38, lines="28-30").structured_content
    assert ranged["lines"] == page["lines"][27:30] and ranged["line_count"] == page["line_count"]


def test_list_documents_is_what_evfind_info_says(server, cli):
    result, info = cli_json(cli, "info", SAMPLE)
    (revision,) = info["revisions"]
    listed = server.call("list_documents").structured_content
    assert listed["not_served"] == []
    (document,) = listed["documents"]
    assert document["document_id"] == revision["document_id"] == "HALDEN_2025_10K"
    assert document["document_sha256"] == revision["sha256"]
    assert (document["form"], document["page_count"], document["blank_pages"]) == ("10-K", 61, revision["blank_pages"])
    assert document["period"] == {"text": "fiscal year ended December 31, 2025", "page_number": 1}
    assert document["database"] == str(SAMPLE)
    assert document["revisions"] == [
        {"document_sha256": revision["sha256"], "page_count": 61, "ingested_at": revision["ingested_at"], "served": True}
    ]


def test_a_question_that_cannot_be_asked_is_a_tool_error_with_the_clis_answer(server, cli):
    for question in ("what is the", "", "是多少？"):  # (the last answered in Chinese)
        result, expected = cli_json(cli, "query", SAMPLE, question)
        assert result.exit_code == 2  # the CLI's "cannot be asked"
        answer = server.call("find_evidence", question=question)
        assert answer.is_error
        assert answer.structured_content == expected and expected["results"] == []
        assert answer.content[0].text == expected["message"]


def test_no_page_found_is_an_answer_not_an_error(server, cli):
    question = "widgets of Mars"
    result, expected = cli_json(cli, "query", SAMPLE, question)
    assert result.exit_code == 1 and expected["results"] == []
    answer = server.call("find_evidence", question=question)
    assert not answer.is_error and answer.structured_content == expected
    assert expected["message"].startswith("No relevant page found in this document")


def error(server, tool, **arguments) -> str:
    answer = server.call(tool, **arguments)
    assert answer.is_error and answer.structured_content is None, answer
    (content,) = answer.content
    assert "\n" not in content.text  # one line
    return content.text


def test_refusals_are_the_clis_one_line_messages(server, cli):
    # a page that does not exist, as `evfind show` refuses it
    for page in (0, 62, 10_000):
        shown = cli("show", SAMPLE, str(page))
        assert shown.exit_code == 2 and shown.stdout == ""
        assert error(server, "read_page", document="HALDEN_2025_10K", page=page) == shown.stderr.removeprefix("Error: ").rstrip("\n")
    # a question too long, as `evfind query` refuses it
    long = "capital expenditures " * 2400
    asked = cli("query", SAMPLE, long, "--format", "json")
    assert asked.exit_code == 3 and asked.stdout == ""
    assert error(server, "find_evidence", question=long) == asked.stderr.removeprefix("Error: ").rstrip("\n")
    assert "evfind reads questions of at most 50000 characters" in asked.stderr
    # --top out of range, an unknown language
    assert error(server, "find_evidence", question=CAPEX, top=21) == "top must be between 1 and 20"
    assert error(server, "find_evidence", question=CAPEX, lang="fr") == "unknown language 'fr': use en or zh"


def test_no_such_document_and_malformed_calls_are_errors_that_say_what_to_do(server):
    served = "no document 'ACME' is served (documents: HALDEN_2025_10K); list_documents lists them"
    assert error(server, "find_evidence", question=CAPEX, document="ACME") == served
    assert error(server, "read_page", document="ACME", page=1) == served
    assert error(server, "read_page", document="ffff", page=1).startswith("no document 'ffff' is served")
    assert error(server, "read_page", document="halden", page=38, lines=67) == (
        "line 67 does not exist: page 38 of HALDEN_2025_10K has lines 1 to 66")
    assert error(server, "read_page", document="halden", page=38, lines="5-x") == (
        "lines '5-x' is not a line (29) or a range of lines (27-31)")
    assert error(server, "read_page", document="halden", page="38") == "page must be an integer"
    assert error(server, "read_page", page=38) == "read_page needs document"
    assert error(server, "find_evidence", question=CAPEX, pages=3) == "find_evidence takes question, document, top, lang; not pages"
    assert error(server, "summarise", text="x") == "no tool 'summarise': the tools are find_evidence, read_page, list_documents"
    # and the server goes on answering
    assert server.call("find_evidence", question=CAPEX).structured_content["results"][0]["page_number"] == 38
    assert server.stderr() == ""  # nothing went wrong on its side
