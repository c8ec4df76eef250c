"""Another tool's eval files read and converted into a dataset of ours: the one entry `import` calls for
every format it reads (skill-creator's, also the specification's evals shape, and addyosmani's case
files), with the files' faults said as the files were named."""

from __future__ import annotations

from pathlib import Path

from harness import jsonsafe
from harness.authoring import addyosmani, skill_creator
from harness.authoring.skill_creator import Converted
from harness.errors import HarnessError, UsageError
from harness.files import UnreadableFile, read_text
from harness.model import addyosmani_cases

SOURCES = ("skill-creator", "addyosmani")


def converted(
    source: str,
    skill: str,
    evals: str | None,
    triggers: str | None,
    *,
    cwd: Path,
    skill_dir: Path,
    root: Path,
    stage_files: bool,
) -> Converted:
    """The `source` tool's files `evals` and `triggers` (as given, from `cwd`) as a dataset of ours for
    `skill`, which lives in `skill_dir` of the repo at `root`. With `stage_files`, each eval's input
    files are kept to be copied beside the skill."""
    evals_data = load_json(cwd / evals) if evals else None
    triggers_data = load_json(cwd / triggers) if triggers else None
    try:
        if source == "addyosmani":
            fixtures = root / addyosmani_cases.FIXTURES
            return addyosmani.convert(skill, evals_data, fixtures, stage_files=stage_files)
        return skill_creator.convert(skill, evals_data, triggers_data, skill_dir, stage_files=stage_files)
    except skill_creator.NotSkillCreator as exc:
        raise HarnessError(f"{triggers if exc.in_triggers else evals} {exc}.") from None


def load_json(path: Path) -> object:
    try:
        return jsonsafe.loads(read_text(path), str(path))
    except UnreadableFile as exc:
        raise UsageError(f"{path} cannot be read: {exc.reason}.") from None
    except jsonsafe.JsonProblem as exc:
        raise HarnessError(f"{exc}; fix the file and run again.") from None
