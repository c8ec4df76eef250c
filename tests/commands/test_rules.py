"""`skillscope rules`: every rule id of the installed harness, with its severity and bar."""

from __future__ import annotations

import json
from pathlib import Path

from harness.files import packaged_text
from tests.support.helpers import run_cli


def test_every_rule_is_printed_once_with_its_severity_in_name_order(tmp_path: Path) -> None:
    rules = json.loads(packaged_text("data", "rules.json"))
    run = run_cli(["rules"], cwd=tmp_path)
    assert run.code == 0 and run.stderr == ""
    lines = run.stdout.splitlines()
    assert [line.split()[0] for line in lines] == sorted(rules)
    assert all(line.split()[1] == rules[line.split()[0]]["severity"] for line in lines)


def test_a_rule_is_printed_as_plain_text_without_markdown_links(tmp_path: Path) -> None:
    run = run_cli(["rules"], cwd=tmp_path)
    assert "](" not in run.stdout and "`" not in run.stdout
    assert "name-mismatch" in run.stdout and "equal to the folder name" in run.stdout
