"""Datasets: schema, repo-wide unique ids, trigger-only fields, fixtures, and Tier 0."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from harness.checks import CheckOptions
from harness.files import is_inside, links_leaving, within
from harness.model import findings
from harness.model.catalog import Catalog
from harness.model.dataset import EVALS, EXTENDED, SHARED_NEGATIVES, TRIGGER_ONLY_KEYS, Case, Dataset
from harness.model.findings import Finding
from harness.printable import name_list

MIN_POSITIVES = 3
DATASET_FILES = (EVALS, EXTENDED)
MIN_NEGATIVES = 2


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    out: list[Finding] = []
    for name, skill in catalog.skills.items():
        base = catalog.dataset(name)
        if base is None:
            out.append(_missing(catalog, name, skill.path))
        for data in catalog.datasets.get(name, []):
            out.extend(data.problems)
            out.extend(_trigger_rules(data, catalog))
            out.extend(_input_files(data, catalog))
        # Tier 0 counts a skill's base files together: skill-creator keeps its trigger set apart.
        base_files = [d for d in catalog.datasets.get(name, []) if not d.extended]
        if base is not None and not findings.errors_in(p for d in base_files for p in d.problems):
            out.extend(_tier0(base, [c for d in base_files for c in d.cases]))
    for data in catalog.negatives:
        out.extend(data.problems)
        out.extend(_only_false(data))
    # The shared pools go first: the harness's ids are its own, so a clash is the skill's to rename.
    skills_data = [d for name in catalog.skills for d in catalog.datasets.get(name, [])]
    out.extend(_unique_ids(catalog.negatives + skills_data))
    return out


def _missing(catalog: Catalog, name: str, folder: Path) -> Finding:
    """No dataset; where another tool's eval file stands for it, which tool's and the one way to adopt it."""
    from harness.model import foreign  # other tools' eval files are looked for only for a skill without ours

    rel = catalog.repo.rel(folder)
    others = foreign.recognise(catalog.repo.root, name, folder, rel)
    if others:
        named = "; ".join(f"{f.path} is {f.tool}: {f.advice}" for f in others)
        message = f"no eval dataset of skillscope's shape, but {named}."
        return replace(findings.error("dataset-missing", rel, message), remedied=True)
    return findings.error(
        "dataset-missing",
        rel,
        "no eval dataset: add evals/evals.json with at least 3 prompts that should trigger the "
        "skill and 2 that should not (`skillscope template` prints a starting point).",
    )


def _only_false(data: Dataset) -> list[Finding]:
    """A shared negatives file holds cases no skill may fire on; a true case there has no owner."""
    return [
        findings.error(
            "negatives-not-false",
            data.rel,
            f"case `{case.id}` is a shared negative but has skill_should_trigger true; make it false or "
            "move it into the dataset of the skill it belongs to.",
            case.line,
        )
        for case in data.cases
        if case.should_trigger
    ]


def _trigger_rules(data: Dataset, catalog: Catalog) -> list[Finding]:
    out = []
    items = data.raw.get("evaluations") if isinstance(data.raw, dict) else None
    by_id = {case.id: case for case in data.cases}
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            continue
        case = by_id.get(item["id"].strip())
        if case is None:
            continue
        if not case.should_trigger:
            used = [key for key in TRIGGER_ONLY_KEYS if key in item]
            if used:
                out.append(
                    findings.error(
                        "false-case-expectation",
                        data.rel,
                        f"case `{case.id}` expects no skill to fire but uses {', '.join(used)}, which only "
                        "apply when skill_should_trigger is true; remove them or make it a true case.",
                        case.line,
                    )
                )
        if case.workspace is not None and data.skill is not None:
            out.extend(_workspace(case, data, data.skill, catalog))
        if "owner" in item:
            out.extend(_owner(case, data, catalog))
    return out


def _owner(case, data: Dataset, catalog: Catalog) -> list[Finding]:
    """`owner` names another skill of the repo, on a false case: the one that should answer the prompt."""
    if case.should_trigger:
        return [
            findings.error(
                "owner-on-true-case",
                data.rel,
                f"case `{case.id}` expects its own skill to fire but names an `owner`, which belongs on a "
                "false case (the skill that should answer instead); remove it or make the case false.",
                case.line,
            )
        ]
    if case.owner is None:
        return []  # a malformed value is the schema's finding
    if case.owner == data.skill:
        return [
            findings.error(
                "owner-self",
                data.rel,
                f"case `{case.id}`: `owner` names this skill itself, which cannot outrank itself; name the "
                "skill that should answer this prompt instead.",
                case.line,
            )
        ]
    if case.owner not in catalog.repo.skill_dirs:
        return [
            findings.error(
                "owner-unknown",
                data.rel,
                f"case `{case.id}`: `owner` names `{case.owner}`, which is not a skill under --skills-dir "
                f"{','.join(catalog.repo.globs)} (skills: {name_list(catalog.repo.names)}); fix the name.",
                case.line,
            )
        ]
    return []


def _workspace(case, data: Dataset, skill: str, catalog: Catalog) -> list[Finding]:
    """The fixture folder of a case of `skill`'s dataset stays inside the skill, exists, and holds no
    copy of the dataset."""
    skill_dir = catalog.repo.skill_dirs[skill]
    target = skill_dir / case.workspace
    if ".." in case.workspace.replace("\\", "/").split("/") or not is_inside(target, skill_dir):
        return [
            findings.error(
                "workspace-escape",
                data.rel,
                f"case `{case.id}`: `workspace` '{case.workspace}' leads outside the skill "
                "folder; keep fixtures inside the skill.",
                case.line,
            )
        ]
    if not target.is_dir():
        return [
            findings.error(
                "workspace-missing",
                data.rel,
                f"case `{case.id}`: `workspace` names {catalog.repo.rel(target)}, which is "
                "not a directory; create it or fix the path.",
                case.line,
            )
        ]
    if holds_answer_key(target, skill_dir):
        return [
            findings.error(
                "workspace-answer-key",
                data.rel,
                f"case `{case.id}`: `workspace` '{case.workspace}' would hand the agent the skill's "
                "dataset (the answer key); give the case a fixture folder of its own, e.g. fixtures/<id>.",
                case.line,
            )
        ]
    return []


def holds_answer_key(folder: Path, skill_dir: Path) -> bool:
    """The fixture is or holds the skill's evals/ folder, or holds a dataset file anywhere below it."""
    real = folder.resolve()
    if within((skill_dir / "evals").resolve(), real):
        return True
    return any(path.name in DATASET_FILES for path in real.rglob("*.json"))


def _input_files(data: Dataset, catalog: Catalog) -> list[Finding]:
    """A case's `files` (files or whole folders) exist inside the folder they are relative to: the
    skill (skill-creator's inputs), or the repo's evals/fixtures/ for an addyosmani case file."""
    if data.skill is None:
        return []
    skill_dir = catalog.repo.skill_dirs[data.skill]
    out = []
    for case in data.cases:
        folder = case.files_root or skill_dir
        named = f"{catalog.repo.rel(folder)}/" if case.files_root else "the skill folder"
        for entry in case.files:
            target = folder / entry
            if ".." in entry.replace("\\", "/").split("/") or not is_inside(target, folder):
                out.append(
                    findings.error(
                        "workspace-escape",
                        data.rel,
                        f"case `{case.id}`: input file '{entry}' leads outside {named}; "
                        "keep input files inside it.",
                        case.line,
                    )
                )
            elif target.is_dir() and (leaving := links_leaving(target, folder)):
                out.append(
                    findings.error(
                        "workspace-escape",
                        data.rel,
                        f"case `{case.id}`: input folder '{entry}' holds {catalog.repo.rel(leaving[0])}, "
                        f"a link that leads outside {named}; replace it with what it points at.",
                        case.line,
                    )
                )
            elif not (target.is_file() or target.is_dir()):
                out.append(
                    findings.error(
                        "workspace-missing",
                        data.rel,
                        f"case `{case.id}`: input file {catalog.repo.rel(target)} does not exist; "
                        f"add it or fix the path (paths start at {named}).",
                        case.line,
                    )
                )
    return out


def _tier0(data: Dataset, cases: list[Case]) -> list[Finding]:
    out = []
    positives = [c for c in cases if c.should_trigger]
    negatives = [c for c in cases if not c.should_trigger]
    if len(positives) < MIN_POSITIVES:
        out.append(
            findings.error(
                "tier0-positives",
                data.rel,
                f"{len(positives)} case(s) with skill_should_trigger true; Tier 0 "
                f"needs at least {MIN_POSITIVES}, so add prompts a real user would type.",
            )
        )
    if len(negatives) < MIN_NEGATIVES:
        out.append(
            findings.error(
                "tier0-negatives",
                data.rel,
                f"{len(negatives)} case(s) with skill_should_trigger false; Tier 0 "
                f"needs at least {MIN_NEGATIVES}, so add near misses that should not trigger this skill.",
            )
        )
    if positives and not any(c.expected_behavior or c.unexpected_behavior for c in positives):
        out.append(
            findings.error(
                "tier0-behavior",
                data.rel,
                "no true case carries expected_behavior or unexpected_behavior; "
                "Tier 0 needs one, so something beyond triggering is graded.",
            )
        )
    return out


# Where a clashing id is taken when skillscope's own set (a file of the installed package) took it first.
BUILT_IN_USE = (
    "by one of skillscope's built-in shared negatives (the package's own set, not a file of this repo; "
    "--no-builtin-negatives leaves it out)"
)


def _unique_ids(datasets: list[Dataset]) -> list[Finding]:
    first_seen: dict[str, str] = {}
    out = []
    for data in datasets:
        for case in data.cases:
            if case.id not in first_seen:
                first_seen[case.id] = (
                    BUILT_IN_USE
                    if data.rel == SHARED_NEGATIVES
                    else f"at {data.rel}:{case.line}"
                    if case.line
                    else f"at {data.rel}"
                )
                continue
            rename = "rename this one" if first_seen[case.id] == BUILT_IN_USE else "rename one"
            out.append(
                findings.error(
                    "case-id-duplicate",
                    data.rel,
                    f"case id `{case.id}` is already used {first_seen[case.id]}; ids are unique repo-wide "
                    f"because routing pools every skill's cases, so {rename}.",
                    case.line,
                )
            )
    return out
