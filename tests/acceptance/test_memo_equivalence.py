"""The parse memo changes nothing: every acceptance scenario, run again on a warm memo without the
markdown parser, the stemmer or a frontmatter's YAML parse, reports exactly what its cold run reported;
an edit misses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import yamlsafe
from harness.checks import collisions
from harness.markdown import links
from harness.model import skill
from tests.support.helpers import make_skill, run_cli

ACCEPTANCE = Path(__file__).parent
SCENARIOS = sorted(
    (kind, folder.name)
    for kind in ("structural", "refs")
    for folder in (ACCEPTANCE / kind).iterdir()
    if (folder / "expected.json").is_file()
)


class Recomputed(Exception):
    """Raised by the parser or the scorer on a run that should have read the memo."""


def forbid_recomputing(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise Recomputed

    monkeypatch.setattr(links.Parser, "tokens", refuse)
    monkeypatch.setattr(collisions, "similar_pairs", refuse)


def findings_of(command: str, args: list[str], root: Path, tmp_path: Path) -> tuple[int, list[dict]]:
    output = tmp_path / "report.json"
    extra = ["--no-external"] if command == "refs" else []
    run = run_cli([command, *args, *extra, "--repo", str(root), "--output", str(output)], cwd=tmp_path)
    return run.code, json.loads(output.read_text(encoding="utf-8"))["findings"]


@pytest.mark.parametrize(("kind", "name"), SCENARIOS)
def test_a_warm_run_reports_what_the_cold_run_reported(kind: str, name: str, tmp_path: Path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = ACCEPTANCE / kind / name
    expected = json.loads((root / "expected.json").read_text(encoding="utf-8"))
    command = expected.get("command", kind)
    cold = findings_of(command, expected["args"], root, tmp_path)
    forbid_recomputing(monkeypatch)
    parsed: list[str] = []
    real_load = yamlsafe.load
    monkeypatch.setattr(yamlsafe, "load", lambda text, *rest: parsed.append(text) or real_load(text, *rest))
    assert findings_of(command, expected["args"], root, tmp_path) == cold
    machine_texts = {p.read_text(encoding="utf-8", errors="replace") for p in root.rglob("machine.yml")}
    # A claude plugin eval suite's case.yaml and its markdown files' frontmatter are read as they stand.
    suite_texts = [
        p.read_text(encoding="utf-8", errors="replace")
        for pattern in ("evals/*/case.yaml", "evals/*/prompt.md", "evals/*/graders/*.md")
        for p in root.rglob(pattern)
    ]
    # Only a broken machine.yml is read again: a valid plan is kept.
    broken_machines = any(finding["rule"].startswith("machine-") for finding in cold[1])
    for text in list(
        parsed
    ):  # YAML read again: a broken machine.yml, a suite's, or a frontmatter JSON cannot carry
        if (broken_machines and text in machine_texts) or any(text in suite for suite in suite_texts):
            continue
        assert not skill.same_through_json(skill.frontmatter(text, None)), text


def test_an_edited_file_or_description_is_parsed_and_scored_again(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    repo = tmp_path / "repo"
    body = "# Guide\n\nSee [setup](references/setup.md#install).\n"
    make_skill(repo, "csv-cleaner", body=body, files={"references/setup.md": "# Setup\n\n## Install\n"})
    make_skill(repo, "csv-fixer")
    code, found = findings_of("structural", [], repo, tmp_path)
    assert code == 0 and not [f for f in found if f["severity"] == "error"]
    (repo / "csv-cleaner" / "references" / "setup.md").write_text("# Setup\n\n## Installing\n")
    skill_md = repo / "csv-fixer" / "SKILL.md"
    text = skill_md.read_text().replace("Does the csv-fixer job", "Does the csv-cleaner job")
    skill_md.write_text(text.replace("Use when asked to csv-fixer", "Use when asked to csv-cleaner"))
    code, found = findings_of("structural", [], repo, tmp_path)
    assert ("ref-missing-anchor", "csv-cleaner/SKILL.md", 7) in [
        (f["rule"], f["path"], f["line"]) for f in found
    ]
    assert "description-collision" in [f["rule"] for f in found]
    assert code == 1
