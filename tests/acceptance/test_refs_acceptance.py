"""Acceptance: every folder under refs/ is a repo; expected.json beside it says what the check finds.

expected.json: {"args": [...], "exit": N, "command"?: "refs" | "structural", "findings": [{"rule", "path",
"line", "severity"?, "message_contains"?}]}. `refs` runs with --no-external (the suite never leaves
loopback). Each listed finding must appear (rule, path, line, and the message fragment when given);
any finding, error or warning, that is not listed fails the test. Adding a case is adding a folder.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tests.support.helpers import run_cli

SCENARIOS = Path(__file__).parent / "refs"
SCHEMAS = Path(__file__).parents[2] / "schema"


def scenario_names() -> list[str]:
    return sorted(p.name for p in SCENARIOS.iterdir() if (p / "expected.json").is_file())


def _key(finding: dict) -> tuple:
    return finding["rule"], finding["path"], finding["line"]


def _matches(found: dict, want: dict) -> bool:
    return (
        _key(found) == _key(want)
        and found["severity"] == want.get("severity", "error")
        and want.get("message_contains", "") in found["message"]
    )


@pytest.mark.parametrize("name", scenario_names())
def test_references_are_reported_as_the_scenario_expects(name: str, tmp_path: Path) -> None:
    root = SCENARIOS / name
    expected = json.loads((root / "expected.json").read_text(encoding="utf-8"))
    command = expected.get("command", "refs")
    extra = ["--no-external"] if command == "refs" else []
    output = tmp_path / "report.json"

    run = run_cli(
        [command, *expected["args"], *extra, "--repo", str(root), "--output", str(output)], cwd=tmp_path
    )

    report = json.loads(output.read_text(encoding="utf-8"))
    remaining = list(report["findings"])
    listing = "\n".join(
        f"  {f['severity']} {f['rule']} {f['path']}:{f['line']} {f['message']}" for f in remaining
    )
    for want in expected["findings"]:
        match = next((f for f in remaining if _matches(f, want)), None)
        assert match is not None, f"{name}: expected {want} among:\n{listing}"
        remaining.remove(match)
    assert not remaining, f"{name}: unexpected finding(s) {remaining}\namong:\n{listing}"
    assert run.code == expected["exit"], f"{name}: exit {run.code}, stderr: {run.stderr}\n{listing}"
    assert run.stderr == ""
    schema = json.loads((SCHEMAS / f"{command}-report.schema.json").read_text(encoding="utf-8"))
    assert not list(Draft202012Validator(schema).iter_errors(report))


def test_every_scenario_has_an_expected_file() -> None:
    missing = [p.name for p in SCENARIOS.iterdir() if p.is_dir() and not (p / "expected.json").is_file()]
    assert not missing
