"""Acceptance: every command `init` suggests runs cleanly on the settings it wrote, on catalogs shaped
like the three public ones of the adoption guides (amd/skills, anthropics/skills before and after its
first dataset, addyosmani/agent-skills): no usage error, no error line, and no note that one of init's
own settings keys is not used."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from harness.cli import settings
from tests.support.helpers import run_cli

CATALOGS = Path(__file__).parent / "catalog"
# A suggested command: a `next:` line's own (up to its explanation), or one quoted in backticks.
NEXT_LINE = re.compile(r"^  (skillscope [^:;]+?)(?:[:;]\s|$)")
QUOTED = re.compile(r"`(skillscope [^`]+)`")


def suggested(stdout: str) -> list[str]:
    found = []
    for line in stdout.splitlines():
        found += [m.group(1).strip() for m in (NEXT_LINE.match(line),) if m]
        found += QUOTED.findall(line)
    return list(dict.fromkeys(found))


def catalog(name: str, tmp_path: Path) -> Path:
    source = "partial-coverage" if name.startswith("anthropics") else name
    root = shutil.copytree(CATALOGS / source, tmp_path / name)
    (root / ".git").mkdir()
    if name == "anthropics-no-dataset":  # the catalog as published: no skill has a dataset yet
        shutil.rmtree(root / "skills" / "pdf" / "evals")
    return root


def test_the_suggestion_pattern_sees_both_forms():
    """A pattern that matched nothing would pass every catalog."""
    text = (
        "next:\n  skillscope structural; an existing `skillscope baseline` records\n  skillscope template: x"
    )
    assert suggested(text) == ["skillscope structural", "skillscope baseline", "skillscope template"]


@pytest.mark.parametrize(
    "name", ["amd-like", "anthropics-no-dataset", "anthropics-one-dataset", "addyosmani-like"]
)
def test_every_command_init_suggests_runs_cleanly_on_what_init_wrote(name: str, tmp_path: Path):
    root = catalog(name, tmp_path)
    init = run_cli(["init"], cwd=root)
    assert init.code == 0, init.stderr
    keys = set(settings.load(root).values)
    assert keys, "init wrote no settings: nothing of its own to check"
    commands = suggested(init.stdout)
    assert any(c.startswith("skillscope structural") for c in commands), init.stdout
    for command in commands:
        words = shlex.split(command)[1:]
        run = run_cli(words, cwd=root)
        said = run.stdout + run.stderr
        assert run.code in (0, 1), f"{command}: exit {run.code}\n{said[-2000:]}"
        assert not [line for line in said.splitlines() if line.startswith("error:")], f"{command}:\n{said}"
        assert "not used" not in said and "Traceback" not in said, f"{command}:\n{said}"
        noted = [line for line in said.splitlines() if line.startswith(("note:", "warning:"))]
        assert not [line for line in noted for key in keys if key in line], f"{command}: {noted}"
