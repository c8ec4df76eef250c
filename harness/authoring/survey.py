"""What an existing skills repo already has, so `init` can fit skillscope to it instead of over it:
governance files every skill ships, a shared negatives file, workflows that already run evals, and
the runner types its machine.yml files name."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from harness import jsonsafe
from harness.files import UnreadableFile, read_text
from harness.model import machine
from harness.model.foreign import ForeignFile, recognise
from harness.model.repo import VENDORED, discover
from harness.routing.room import CATALOG

MARKDOWN_SUFFIXES = (".md", ".markdown")
# A line of a workflow that grades skills: skillscope itself, a skill's dataset or SKILL.md, or an
# eval script or folder (`python eval/run_evals.py`).
EVAL_SIGN = re.compile(
    r"skillscope|evals\.json|SKILL\.md|(?<![\w-])evals?/|\b\w*evals?\w*\.(?:py|sh|js|mjs|ts)\b", re.I
)
NEGATIVES_NAME = "*negatives*.json"
# The runner type select treats as the everyday runners when the repo defines none.
EVERYDAY = "default"


@dataclass(frozen=True)
class EvalWorkflow:
    path: str  # root-relative
    line: int
    text: str  # the line that runs the evals, as written

    @property
    def rank(self) -> int:
        if CHECK_ONLY.search(self.text):
            return 3
        return 0 if RUNS_EVALS.search(self.text) else 1

    @property
    def checks_only(self) -> bool:
        """The workflow's best line checks eval files (`--validate`) rather than running them."""
        return self.rank == 3

    @property
    def command(self) -> str:
        """The line without its YAML key, cut to what a terminal line holds."""
        text = re.sub(r"^(-\s*)?(run|uses|name):\s*", "", self.text)
        return text if len(text) <= 100 else text[:99] + "…"


@dataclass
class Survey:
    skills: list[str] = field(default_factory=list)  # root-relative skill folders
    with_dataset: list[str] = field(default_factory=list)  # the names of those with evals/evals.json
    skill_files: list[str] = field(default_factory=list)  # files every skill ships beside SKILL.md
    skill_sections: list[str] = field(default_factory=list)  # `##` sections all the markdown ones fill
    negatives: list[str] = field(default_factory=list)  # shared negatives files in the dataset shape
    bare_negatives: list[str] = field(default_factory=list)  # the same cases as a bare JSON list
    workflows: list[EvalWorkflow] = field(default_factory=list)
    runner_types: dict[str, list[str]] = field(default_factory=dict)  # type -> machine.yml files
    foreign: list[ForeignFile] = field(default_factory=list)  # other tools' eval files, and their adoption

    @property
    def partial_coverage(self) -> bool:
        """Some skills (or all) have no dataset: routing then ranks against the whole catalog, as an agent
        with every skill installed chooses, rather than against the skills that happen to have one (the
        first dataset added to a catalog without any would otherwise make a room of one)."""
        return len(self.with_dataset) < len(self.skills)

    def noticed(self) -> dict[str, list[str]]:
        """The settings the repo already keeps to, as skillscope.toml keys."""
        noticed = {}
        if self.skill_files:
            noticed["skill-files"] = self.skill_files
        if self.skill_sections:
            noticed["skill-sections"] = self.skill_sections
        if self.negatives:
            noticed["negatives"] = self.negatives
        if self.partial_coverage:
            noticed["routing-room"] = [CATALOG]
        return noticed

    def why_noticed(self) -> dict[str, str]:
        files = ", ".join(self.skill_files)
        return {
            "skill-files": f"each of the {len(self.skills)} skills ships {files}",
            "skill-sections": f"each {files} fills these sections",
            "negatives": "only cases no skill should fire on",
            "routing-room": f"{len(self.with_dataset)} of the {len(self.skills)} skills have a dataset: "
            "routing installs every skill, and only those with one add cases",
        }


def survey(
    root: Path, globs: list[str], own_workflow: str, defined_types: frozenset[str] = frozenset()
) -> Survey:
    """What the repo at `root` holds for the skills under `globs`; `own_workflow` (the one init writes)
    and runner types already defined are left out."""
    repo = discover(root, globs)
    folders = [repo.skill_dirs[name] for name in repo.names]
    found = Survey(skills=[repo.rel(folder) for folder in folders], with_dataset=repo.with_dataset())
    found.skill_files = shared_files(folders)
    shipped = [folder / name for folder in folders for name in found.skill_files]
    found.skill_sections = shared_sections(shipped)
    found.negatives, found.bare_negatives = negatives_files(root, set(folders))
    found.workflows = eval_workflows(root, own_workflow)
    found.runner_types = runner_types(root, folders, defined_types)
    found.foreign = [
        other
        for name in repo.names
        for other in recognise(root, name, repo.skill_dirs[name], repo.rel(repo.skill_dirs[name]))
    ]
    return found


def shared_files(folders: list[Path]) -> list[str]:
    """Files (not folders, not hidden) that every skill folder holds beside SKILL.md. One skill
    alone says nothing about a policy, so it takes two."""
    if len(folders) < 2:
        return []
    names = [_files_in(folder) - {"SKILL.md"} for folder in folders]
    return sorted(set.intersection(*names))


def _files_in(folder: Path) -> set[str]:
    try:
        return {p.name for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")}
    except OSError:
        return set()  # a folder init may not list holds no policy it can see; structural names it


def shared_sections(files: list[Path]) -> list[str]:
    """The `##` sections with content that every markdown file among `files` has, in the first one's
    order: what --skill-sections would require of each of them."""
    markdown = [path for path in files if PurePosixPath(path.name).suffix.lower() in MARKDOWN_SUFFIXES]
    if not markdown:
        return []
    from harness.markdown import budget, sections  # markdown-it only for a repo with such files

    titles: list[list[str]] = []
    for path in markdown:
        try:
            found = sections.sections(read_text(path))
        except (UnreadableFile, budget.TooManyLinkMarks):
            return []
        titles.append([s.title for s in found if s.level == 2 and s.has_content])
    common = set.intersection(*({title.lower() for title in each} for each in titles))
    return [title for title in dict.fromkeys(titles[0]) if title.lower() in common]


def negatives_files(root: Path, skill_folders: set[Path]) -> tuple[list[str], list[str]]:
    """Files named like negatives.json at the root or one folder down, outside the skills, whose cases
    are all false: (those in the dataset shape, those that are a bare JSON list of such cases)."""
    candidates = [*root.glob(NEGATIVES_NAME)]
    for folder in sorted(root.iterdir()):
        if folder.is_dir() and folder not in skill_folders and not _skipped(folder):
            candidates += folder.glob(NEGATIVES_NAME)
    dataset: list[str] = []
    bare: list[str] = []
    for path in sorted(p for p in candidates if p.is_file()):
        try:
            data = jsonsafe.loads(read_text(path), path.name)
        except (UnreadableFile, jsonsafe.JsonProblem):
            continue
        cases = data.get("evaluations") if isinstance(data, dict) else data
        if not isinstance(cases, list) or not cases or not all(_false_case(case) for case in cases):
            continue
        (dataset if isinstance(data, dict) else bare).append(path.relative_to(root).as_posix())
    return dataset, bare


def _skipped(folder: Path) -> bool:
    return folder.name.startswith(".") or folder.name in VENDORED


def _false_case(case: object) -> bool:
    return isinstance(case, dict) and case.get("skill_should_trigger") is False and bool(case.get("prompt"))


def eval_workflows(root: Path, own_workflow: str) -> list[EvalWorkflow]:
    """Workflows under .github/workflows, other than init's own, with a line that runs skill evals."""
    folder = root / ".github" / "workflows"
    if not folder.is_dir():
        return []
    found = []
    for path in sorted([*folder.glob("*.yml"), *folder.glob("*.yaml")]):
        rel = path.relative_to(root).as_posix()
        if rel == own_workflow:
            continue
        try:
            lines = read_text(path).splitlines()
        except UnreadableFile:
            continue
        named = [EvalWorkflow(rel, n, text) for n, text in commands(lines) if EVAL_SIGN.search(text)]
        # A step that validates the datasets or plans the jobs often comes first; the one that runs the
        # evals is the answer, and a workflow that only checks them is named as one that does.
        if named:
            found.append(min(named, key=lambda w: w.rank))
    return found


# How surely a command runs evals, best first: skillscope, an eval runner (`run_evals.py`, `run-evals`),
# any other command naming evals; one that checks eval files or tests the runner runs none.
RUNS_EVALS = re.compile(r"skillscope\s+(?:routing|behavioral|compare)|run[_-]?evals?\b|evals?[_-]run", re.I)
CHECK_ONLY = re.compile(
    r"(?<![\w-])--?(?:validate|check|lint|dry-run)\b|skillscope\s+(?:structural|refs)|pytest|\btest_\w*\.py"
)


def commands(lines: list[str]):
    r"""(number, command) of each command a workflow runs, a line continued with a trailing `\` joined
    to the lines it continues on (numbered by its first)."""
    pending: tuple[int, str] | None = None
    for number, text in command_lines(lines):
        if pending is not None:
            number, text = pending[0], f"{pending[1]} {text}"
            pending = None
        if text.endswith("\\"):
            pending = (number, text[:-1].rstrip())
            continue
        yield number, text
    if pending is not None:
        yield pending


# A step's `run:` or `uses:` key; a `|` or `>` after `run:` opens a block of commands on the lines below.
STEP_KEY = re.compile(r"^(\s*)(?:-\s+)?(run|uses):\s*(.*)$")


def command_lines(lines: list[str]):
    """(number, text) of each line a workflow runs: `run:` and `uses:` values and a run block's lines.
    A trigger's `paths:` filter or a step's name mentions evals too, but runs nothing."""
    block_indent = None  # the `run:` key's indent while inside its block
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if block_indent is not None and indent > block_indent:
            yield number, text
            continue
        block_indent = None
        step = STEP_KEY.match(line)
        if not step:
            continue
        value = step.group(3).strip()
        if step.group(2) == "run" and value[:1] in ("|", ">"):
            block_indent = len(step.group(1))
        elif value:
            yield number, text


def runner_types(root: Path, folders: list[Path], defined: frozenset[str]) -> dict[str, list[str]]:
    """Each runner type a skill's evals/machine.yml names that the repo does not define yet."""
    named: dict[str, list[str]] = {}
    for folder in folders:
        path = folder / "evals" / machine.FILENAME
        rel = path.relative_to(root).as_posix()
        kind = machine.load(path, rel).runner_type
        if kind and kind != EVERYDAY and kind not in defined:
            named.setdefault(kind, []).append(rel)
    return dict(sorted(named.items()))


def defined_runner_types(value: object) -> frozenset[str]:
    """The runner types a settings value of runner-types defines (a JSON object, as --runner-types
    takes); none when it is broken, since select names the broken value itself."""
    try:
        parsed = json.loads(value) if isinstance(value, str) else value
    except ValueError:
        return frozenset()
    return frozenset(parsed) if isinstance(parsed, dict) else frozenset()
