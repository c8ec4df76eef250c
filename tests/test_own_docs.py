"""This repo eats its own cooking: its docs' links resolve and its example skills pass structural."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

from harness.cli import main
from harness.context import Context
from tests.support import docs_pages

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str, tmp_path: Path, root: Path = ROOT) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(
        [*argv, "--repo", str(root), "--output", str(tmp_path / "report.json")],
        Context(environ={}, cwd=root, stdout=out, stderr=err),
    )
    return code, out.getvalue() + err.getvalue()


def as_built(tmp_path: Path) -> Path:
    """A copy of this repo with the pages the site build generates (the flag and rules references)
    written into docs/, as the built site has them: a link to one resolves, a link to no page fails."""
    copy = tmp_path / "repo"
    junk = shutil.ignore_patterns(".git", ".nox", "site", "__pycache__", ".*_cache", ".benchmarks", ".hypo*")
    shutil.copytree(ROOT, copy, ignore=junk, symlinks=True, copy_function=linked)
    for page, text in docs_pages.generated().items():
        (copy / "docs" / page).unlink(missing_ok=True)  # a linked repo file: never write through
        (copy / "docs" / page).write_text(text, encoding="utf-8")
    return copy


def linked(source: str, destination: str) -> None:
    """A hard link where the file system allows one: the run only reads the copy, and copying the
    repo's thousands of files byte by byte was most of this module's time."""
    try:
        os.link(source, destination)
    except OSError:
        shutil.copy2(source, destination)


def test_every_internal_link_in_the_readme_docs_and_examples_resolves(tmp_path):
    code, output = run(
        "refs",
        "--no-external",
        "--docs",
        "README.md,CHANGELOG.md,docs/**/*.md",
        "--skills-dir",
        "examples/skills/*",
        tmp_path=tmp_path,
        root=as_built(tmp_path),
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
