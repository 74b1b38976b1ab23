"""The README's first command: its output, as printed there, is what evfind prints today."""

from __future__ import annotations

import re
import shlex

from .conftest import REPO


def test_readme_query_output_is_current(cli, monkeypatch):
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    match = re.search(r"```console\npip install \. && (evfind query [^\n]+)\n```\n\n```\n(.*?)\n```", readme, re.S)
    assert match, "the README's first command and its output block were not found"
    command, shown = match.groups()
    args = shlex.split(command)[1:]
    monkeypatch.chdir(REPO)
    result = cli(*args)
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip("\n") == shown, "update the README's sample output"


def test_readme_console_examples_are_current(cli, monkeypatch):
    """Every `$ evfind query sample.db ...` example whose output is shown whole."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    examples = re.findall(r"```console\n\$ (evfind query sample\.db [^\n]+)\n(.*?)\n```", readme, re.S)
    whole = [(command, shown) for command, shown in examples if not shown.rstrip().endswith("...")]
    assert whole, "no example found"
    monkeypatch.chdir(REPO)
    for command, shown in whole:
        result = cli(*shlex.split(command)[1:])
        assert result.stdout.rstrip("\n") == shown, f"update the README's output of: {command}"
