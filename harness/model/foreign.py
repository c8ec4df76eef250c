"""Other tools' eval files recognised beside a skill, and what adopts each: read in place, or the one
command that converts it. `structural` names them where a dataset is missing, `init` lists them.

- skill-creator's (and the specification's) `evals/evals.json` and trigger set `evals/eval_set.json`:
  read in place (see harness/model/skill_creator_evals.py).
- addyosmani/agent-skills' `evals/cases/<skill>.json` at the repo's root: read in place when the skill
  has no evals/evals.json of its own (see harness/model/addyosmani_cases.py); `import addyosmani`
  writes a copy in our shape.
- a `claude plugin eval` suite, `evals/<case>/case.yaml` (or `prompt.md`) inside the skill: read in place
  (see harness/model/pluginsuite.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from harness import jsonsafe
from harness.files import present
from harness.model.dataset import EVALS, foreign_evals_shape
from harness.model.repo import CASE_FILES as ADDYOSMANI_CASES
from harness.model.skill_creator_evals import TRIGGER_SET

PLUGIN_EVAL_FILES = ("case.yaml", "prompt.md")


@dataclass(frozen=True)
class ForeignFile:
    path: str  # root-relative
    tool: str  # whose format it is, as a reader would name it
    advice: str  # "read in place ..." or the one command that adopts it


def recognise(root: Path, skill: str, skill_dir: Path, rel: str) -> list[ForeignFile]:
    """Every other tool's eval file for `skill` (its folder `skill_dir`, root-relative `rel`)."""
    found = []
    evals = skill_dir / "evals"
    if present(evals / EVALS) and _skill_creator_shape(evals / EVALS):
        found.append(
            ForeignFile(f"{rel}/evals/{EVALS}", "skill-creator's (the specification's evals shape)", READ)
        )
    if present(evals / TRIGGER_SET):
        found.append(ForeignFile(f"{rel}/evals/{TRIGGER_SET}", "skill-creator's trigger set", READ))
    cases = root / ADDYOSMANI_CASES / f"{skill}.json"
    if present(cases):
        case_file = (ADDYOSMANI_CASES / f"{skill}.json").as_posix()
        command = (
            f"skillscope import addyosmani --skill {skill} --evals {case_file} --output {rel}/evals/{EVALS}"
        )
        found.append(
            ForeignFile(
                case_file,
                "addyosmani/agent-skills' case file",
                f"read in place while the skill has no evals/{EVALS} of its own: its cases run as they "
                f"stand, nothing to convert (`{command}` writes a copy in our shape)",
            )
        )
    for suite in sorted(evals.glob("*/")) if evals.is_dir() else []:
        marker = next((suite / name for name in PLUGIN_EVAL_FILES if present(suite / name)), None)
        if marker is not None:
            found.append(
                ForeignFile(
                    f"{rel}/evals/{suite.name}/{marker.name}",
                    "a `claude plugin eval` suite",
                    "read in place: its cases run on every agent, and what cannot run yet is named",
                )
            )
    return found


READ = "read in place: its cases run as they stand, nothing to convert"


def _skill_creator_shape(path: Path) -> bool:
    try:
        return foreign_evals_shape(jsonsafe.load(path))
    except jsonsafe.JsonProblem:
        return False  # structural reports the file itself
