"""The selected skills loaded once: SKILL.md, datasets and machine plans, shared by every check."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from harness.errors import UsageError
from harness.files import present
from harness.memo import Memo, code_digest
from harness.model import dataset, machine, skill, skill_creator_evals
from harness.model.dataset import Case, Dataset
from harness.model.machine import MachinePlan
from harness.model.repo import CASE_FILES, Repo
from harness.model.skill import Skill
from harness.model.skill_tree import SkillTree
from harness.model.suite_folders import case_folders

T = TypeVar("T")


@dataclass
class Catalog:
    """The selected skills, loaded once: each one's SKILL.md, datasets and machine plan."""

    repo: Repo
    skills: dict[str, Skill] = field(default_factory=dict)
    datasets: dict[str, list[Dataset]] = field(default_factory=dict)
    machines: dict[str, MachinePlan] = field(default_factory=dict)
    # Shared false cases every routing run pools: the harness's own set first (unless left out),
    # then the repo's --negatives files.
    negatives: list[Dataset] = field(default_factory=list)
    # What a check derives from the catalog that the report also shows (the headroom table), kept so
    # that one run works it out once; a narrowed catalog starts empty.
    derived: dict[Hashable, Any] = field(default_factory=dict, compare=False, repr=False)
    # Each skill folder's listing, made on first use and replayed by every check that walks the folder.
    trees: dict[str, SkillTree] = field(default_factory=dict, compare=False, repr=False)

    def derive(self, key: Hashable, make: Callable[[], T]) -> T:
        if key not in self.derived:
            self.derived[key] = make()
        found: T = self.derived[key]
        return found

    def tree(self, name: str) -> SkillTree:
        """The listing of skill `name`'s folder, made once per run (see harness.model.skill_tree)."""
        if name not in self.trees:
            self.trees[name] = SkillTree(self.skills[name].path)
        return self.trees[name]

    def dataset(self, name: str, extended: bool = False) -> Dataset | None:
        return next((d for d in self.datasets.get(name, []) if d.extended == extended), None)

    def cases(self, names: list[str] | None = None, extended: bool = True) -> list[Case]:
        """Cases of `names` (default: every loaded skill), in skill then file order."""
        chosen = self.skills if names is None else names
        return [
            case
            for name in chosen
            for data in self.datasets.get(name, [])
            if extended or not data.extended
            for case in data.cases
        ]

    def all_datasets(self) -> list[Dataset]:
        every = [data for name in self.skills for data in self.datasets.get(name, [])]
        return every + self.negatives

    def narrowed(self, names: list[str]) -> Catalog:
        """The same catalog holding only `names`: what --skill and --only check in structural and refs."""
        keep = [name for name in names if name in self.skills]
        return Catalog(
            repo=self.repo,
            skills={name: self.skills[name] for name in keep},
            datasets={name: self.datasets.get(name, []) for name in keep},
            machines={name: self.machines[name] for name in keep if name in self.machines},
            negatives=self.negatives,
        )

    def looked_at(self) -> Callable[[str], bool]:
        """Whether a root-relative path is one the run looked at: its skills' folders and datasets, and,
        unless --skill or --only narrowed it, the rest of the repo but the skill folders its --skills-dir
        did not reach. A baseline's finding elsewhere was not looked for, so it is not called fixed (nor
        pruned); one in a folder that holds no SKILL.md any more is gone with its skill."""
        folders = tuple(self.repo.rel(self.repo.skill_dirs[name]) for name in self.skills)
        files = {d.rel for name in self.skills for d in self.datasets.get(name, [])}
        whole = set(self.skills) == set(self.repo.skill_dirs)

        def seen(path: str) -> bool:
            if path in files or any(path == f or path.startswith(f"{f}/") for f in folders):
                return True
            return whole and not self.in_other_skill(path)

        return seen

    def in_other_skill(self, path: str) -> bool:
        """Whether root-relative `path` lies in a folder holding a SKILL.md that is none of this run's."""
        mine = {self.repo.skill_dirs[name] for name in self.skills}
        target = self.repo.root / path
        return any(
            folder not in mine and present(folder / "SKILL.md")
            for folder in target.parents
            if folder != self.repo.root and self.repo.root in folder.parents
        )

    def owners(self, only: list[str]) -> list[str]:
        """Skill names for --only: each a skill name, or a case id standing for the skill that owns it."""
        by_case = {case.id: case.skill for case in self.cases() if case.skill}
        unknown = [item for item in only if item not in self.skills and item not in by_case]
        if unknown:
            raise UsageError(f"--only {','.join(unknown)}: no skill or case of that name in this repo.")
        return list(dict.fromkeys(item if item in self.skills else by_case[item] for item in only))

    def negative_cases(self) -> list[Case]:
        return [case for data in self.negatives for case in data.cases]


@dataclass(frozen=True)
class Negatives:
    """Which shared negatives join routing: the harness's own (unless left out) and repo files."""

    files: tuple[str, ...] = ()  # root-relative dataset files whose cases must all be false
    builtin: bool = True


def load(repo: Repo, names: list[str] | None = None, negatives: Negatives = Negatives()) -> Catalog:
    """Load `names` (default: every skill the globs found); an unknown name is a usage error."""
    chosen = repo.names if names is None else names
    unknown = [name for name in chosen if name not in repo.skill_dirs]
    if unknown:
        found = ", ".join(repo.names) or "none"
        raise UsageError(
            f"no skill named {', '.join(unknown)} under --skills-dir {','.join(repo.globs)} "
            f"(skills found: {found})."
        )
    memo = Memo.of_repo(repo.root, "frontmatter", frontmatter_fingerprint())
    checked = Memo.of_repo(repo.root, "datasets", dataset_fingerprint())
    catalog = Catalog(repo=repo, negatives=[dataset.shared_negatives(checked)] if negatives.builtin else [])
    for rel in negatives.files:
        path = repo.root / rel
        if not present(path):
            raise UsageError(
                f"--negatives {rel}: no such file under the repo root; give a root-relative path."
            )
        catalog.negatives.append(dataset.load(path, repo.rel(path), None))
    for name in chosen:
        path = repo.skill_dirs[name]
        catalog.skills[name] = skill.load(name, path, memo)
        evals = path / "evals"
        loaded = []
        for filename, extended in ((dataset.EVALS, False), (dataset.EXTENDED, True)):
            file = evals / filename
            if present(file):
                loaded.append(
                    dataset.load(
                        file, repo.rel(file), name, extended, checked, skill_creator_evals.read_evals
                    )
                )
        case_file = repo.root / CASE_FILES / f"{name}.json"
        if not present(evals / dataset.EVALS) and present(case_file):  # the skill's own file wins
            from harness.model import addyosmani_cases  # another tool's readers only for its files

            fixtures = repo.root / addyosmani_cases.FIXTURES
            loaded.insert(0, addyosmani_cases.load(case_file, repo.rel(case_file), name, fixtures))
        triggers = evals / skill_creator_evals.TRIGGER_SET
        if present(triggers):  # read beside evals.json, whichever shape that has
            loaded.append(skill_creator_evals.load_trigger_set(triggers, repo.rel(triggers), name))
        if case_folders(evals):  # a Claude Code plugin eval suite, read in place (PyYAML only then)
            from harness.model import pluginsuite

            suite = pluginsuite.load_suite(evals, repo.rel, name)
            if suite is not None:
                loaded.append(suite)
        catalog.datasets[name] = loaded
        plan = evals / machine.FILENAME  # most skills have none: its name is worked out only for one
        catalog.machines[name] = machine.load(plan, repo.rel(plan), memo) if present(plan) else MachinePlan()
    memo.save()
    checked.save()
    return catalog


def frontmatter_fingerprint() -> str:
    """A digest of the code a frontmatter's and a machine.yml's reading depend on (our YAML rules, PyYAML
    and the machine schema)."""
    harness = Path(__file__).resolve().parent.parent
    read_by = [
        "yamlsafe.py",
        "nesting.py",
        "model/skill.py",
        "model/machine.py",
        "schema/machine.schema.json",
    ]
    return code_digest([harness / rel for rel in read_by], ("yaml",))


def dataset_fingerprint() -> str:
    """A digest of what decides that a dataset text is valid and where its cases sit: the schema,
    the screen compiled from it and its compiler, the line finder and the dataset reader."""
    harness = Path(__file__).resolve().parent.parent
    files = [harness / "schema" / "evals.schema.json", harness / "schemas.py", harness / "jsonlines.py"]
    files += [harness / "nesting.py", harness / "model" / "dataset.py"]
    return code_digest(files, ("fastjsonschema",))


def select_cases(cases: list[Case], only: list[str], skills: list[str]) -> list[Case]:
    """--only (case ids or skill names) wins over --skill (owning skills); matching nothing is an error."""
    if only:
        wanted = set(only)
        chosen = [c for c in cases if c.id in wanted or (c.skill is not None and c.skill in wanted)]
        if not chosen:
            raise UsageError(f"--only {','.join(only)} matched no case id or skill name in this run.")
        known = {c.id for c in cases} | {c.skill for c in cases if c.skill}
        unmatched = [item for item in only if item not in known]
        if unmatched:  # a typo in a list must not shrink the run silently
            word = unmatched[0]
            raise UsageError(
                f"--only {word}: no case id or skill name of that name in this run; {close_to(word, known)}"
            )
        return chosen
    if skills:
        return [c for c in cases if c.skill in set(skills)]
    return cases


def close_to(word: str, known: Iterable[str]) -> str:
    """The fix for a name that is not among `known`: the nearest one, else to drop it."""
    import difflib

    close = difflib.get_close_matches(word, sorted(known), n=1, cutoff=0.6)
    return f"did you mean {close[0]}?" if close else "drop it or fix its spelling."
