"""This repo eats its own cooking: its docs' links resolve and its example skills pass structural."""

from __future__ import annotations

import io
from pathlib import Path

from harness.cli import main
from harness.context import Context

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str, tmp_path: Path) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(
        [*argv, "--repo", str(ROOT), "--output", str(tmp_path / "report.json")],
        Context(environ={}, cwd=ROOT, stdout=out, stderr=err),
    )
    return code, out.getvalue() + err.getvalue()


def test_every_internal_link_in_the_readme_docs_and_examples_resolves(tmp_path):
    code, output = run(
        "refs",
        "--no-external",
        "--docs",
        "README.md,CHANGELOG.md,docs/**/*.md",
        "--skills-dir",
        "examples/skills/*",
        tmp_path=tmp_path,
    )
    assert code == 0, output


def test_the_example_skills_pass_structural_with_the_skill_card_policy(tmp_path):
    code, output = run(
        "structural",
        "--skills-dir",
        "examples/skills/*",
        "--skill-files",
        "skill-card.md",
        "--skill-sections",
        "Description,Owner,License",
        tmp_path=tmp_path,
    )
    assert code == 0, output
    assert "3 skill(s)" in output and "0 warning(s)" in output
