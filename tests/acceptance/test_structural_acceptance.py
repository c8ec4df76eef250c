"""Acceptance: every folder under structural/ is a repo; expected.json beside it says what structural finds.

expected.json: {"args": [...], "exit": N, "findings": [{"rule", "path", "line", "severity"?,
"message_contains"?}], "rename"?: {"stored/path": "name on disk"}, "link"?: {"path": "target"}}. Listed
findings must appear exactly (rule, path, line); an error finding that is not listed fails the test.
Adding a case is adding a folder.
`rename` gives a file the name it is tested under in a copy of the folder: a name Windows cannot hold
(`nul.md`) is stored under another, so this repo's own checkout works everywhere; `link` makes a
symbolic link in the copy, for the same reason.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.support.helpers import run_cli

SCENARIOS = Path(__file__).parent / "structural"
REPORT_SCHEMA = Path(__file__).parents[2] / "schema" / "structural-report.schema.json"


def scenario_names() -> list[str]:
    return sorted(p.name for p in SCENARIOS.iterdir() if (p / "expected.json").is_file())


def _key(finding: dict) -> tuple:
    return finding["rule"], finding["path"], finding["line"]


@pytest.mark.parametrize("name", scenario_names())
def test_structural_reports_what_the_scenario_expects(name: str, tmp_path: Path) -> None:
    root = SCENARIOS / name
    expected = json.loads((root / "expected.json").read_text(encoding="utf-8"))
    output = tmp_path / "report.json"
    if expected.get("rename") or expected.get("link"):
        root = shutil.copytree(root, tmp_path / name)
        for stored, actual in expected.get("rename", {}).items():
            (root / stored).rename((root / stored).with_name(actual))
        for path, target in expected.get("link", {}).items():
            (root / path).symlink_to(target)

    run = run_cli(
        ["structural", *expected["args"], "--repo", str(root), "--output", str(output)], cwd=tmp_path
    )

    report = json.loads(output.read_text(encoding="utf-8"))
    found = report["findings"]
    listing = "\n".join(
        f"  {f['severity']} {f['rule']} {f['path']}:{f['line']} {f['message']}" for f in found
    )
    for want in expected["findings"]:
        matches = [f for f in found if _key(f) == _key(want)]
        assert matches, f"{name}: expected {_key(want)} among:\n{listing}"
        assert matches[0]["severity"] == want.get("severity", "error"), listing
        if "message_contains" in want:
            assert any(want["message_contains"] in f["message"] for f in matches), listing
    listed = {_key(w) for w in expected["findings"]}
    unexpected = [f for f in found if f["severity"] == "error" and _key(f) not in listed]
    assert not unexpected, f"{name}: unexpected error finding(s):\n{listing}"
    assert run.code == expected["exit"], f"{name}: exit {run.code}, stderr: {run.stderr}\n{listing}"
    assert run.stderr == ""
    assert report["totals"]["errors"] == sum(1 for f in found if f["severity"] == "error")


def test_every_scenario_has_an_expected_file() -> None:
    missing = [p.name for p in SCENARIOS.iterdir() if p.is_dir() and not (p / "expected.json").is_file()]
    assert not missing


def test_every_structural_rule_on_its_page_has_a_failing_scenario() -> None:
    page = (Path(__file__).parents[2] / "docs" / "commands" / "structural.md").read_text(encoding="utf-8")
    section = page[page.index("## What structural asserts") :]
    documented = set(re.findall(r"^\| `([a-z0-9-]+)` \|", section, re.MULTILINE))
    covered = {
        finding["rule"]
        for name in scenario_names()
        for finding in json.loads((SCENARIOS / name / "expected.json").read_text())["findings"]
    }
    assert documented, "the rule table moved; update this test"
    assert sorted(documented - covered) == []
    assert sorted(covered - documented) == [], "a rule the docs do not list"
