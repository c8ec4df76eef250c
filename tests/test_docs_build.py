"""The docs build the nox sessions run can fail: a link to a heading that is not there stops it (a flag
such as --quiet once hid the warnings strict mode counts, and broken anchors passed)."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BROKEN = Path(__file__).resolve().parent / "docs_build" / "broken_anchor"


def noxfile_build() -> tuple[tuple[str, ...], dict[str, str]]:
    """The build command and environment the sessions use, read from the noxfile's source: executing it
    would register its sessions with nox a second time in this process."""
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    values = {
        target.id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and target.id in {"MKDOCS_BUILD", "MKDOCS_ENV"}
    }
    return values["MKDOCS_BUILD"], values["MKDOCS_ENV"]


def build(site: Path, out: Path) -> subprocess.CompletedProcess:
    command, env = noxfile_build()
    return subprocess.run(
        [*command, "--config-file", str(site / "mkdocs.yml"), "--site-dir", str(out)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_sessions_docs_build_fails_on_a_broken_anchor(tmp_path: Path):
    done = build(BROKEN, tmp_path / "site")
    assert done.returncode != 0, done.stdout + done.stderr
    assert "no-such-section" in done.stdout + done.stderr  # and says which link


def test_the_same_site_with_the_anchor_fixed_builds(tmp_path: Path):
    fixed = tmp_path / "fixed"
    shutil.copytree(BROKEN, fixed)
    page = fixed / "docs" / "index.md"
    page.write_text(
        page.read_text(encoding="utf-8").replace("no-such-section", "a-section"), encoding="utf-8"
    )
    done = build(fixed, tmp_path / "site")
    assert done.returncode == 0, done.stdout + done.stderr
