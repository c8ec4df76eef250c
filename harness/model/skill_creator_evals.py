"""skill-creator's two files (the first is also the Agent Skills specification's shape), read in place.

- `evals/evals.json` as `{"skill_name", "evals": [{"id", "prompt", "expected_output", "files",
  "expectations"}]}`: each eval is a case that should trigger the skill; `expected_output` and every
  expectation (skill-creator also spells them `assertions`) are judged as statements; `files` (paths
  from the skill's root) are copied into the agent's workspace.
- `evals/eval_set.json`, the trigger eval set: a list of `{"query", "should_trigger"}`, each a routing
  case. skill-creator fixes no place for it (its review page exports `eval_set.json`); we read it
  beside the evals file.

Each file is validated against its own shape, never ours: what breaks that shape is a
`skill-creator-schema` finding, and a field we cannot honour is a `dataset-field-unhonoured` warning
naming it. Ids are `<skill>-<id>` and `<skill>-trigger-N` / `<skill>-no-trigger-N`, as `import` writes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness import json_positions, jsonsafe, schemas
from harness.files import UnreadableFile, read_text
from harness.model import findings
from harness.model.case_ids import IdMaker
from harness.model.dataset import Case, Dataset

TRIGGER_SET = "eval_set.json"
EVALS_FORMAT = "skill-creator evals"
TRIGGERS_FORMAT = "skill-creator trigger set"
EVAL_KEYS = frozenset({"id", "prompt", "expected_output", "files", "expectations", "assertions"})
TOP_KEYS = frozenset({"skill_name", "evals"})
TRIGGER_KEYS = frozenset({"query", "should_trigger"})


def read_evals(text: str, data: object, dataset: Dataset) -> Dataset:
    """`dataset` filled from an evals file in skill-creator's shape; `data` is `text` parsed."""
    dataset.format = EVALS_FORMAT
    dataset.raw = data
    lines = json_positions.element_lines(text, "evals")
    _validate("skill-creator-evals", data, dataset, lines, text)
    if not isinstance(data, dict):
        return dataset
    name = data.get("skill_name")
    if isinstance(name, str) and dataset.skill is not None and name != dataset.skill:
        dataset.problems.append(
            findings.error(
                "skill-creator-schema",
                dataset.rel,
                f"`skill_name` is '{name}', but the file sits in skill '{dataset.skill}'; make them equal.",
                json_positions.key_line(text, "skill_name"),
            )
        )
    unhonoured(data, TOP_KEYS, "the top level", dataset, json_positions.key_line(text, "evals"))
    ids = IdMaker(dataset.skill or "shared")
    items = data.get("evals")
    for index, item in enumerate(items if isinstance(items, list) else []):
        line = lines[index] if index < len(lines) else None
        if not isinstance(item, dict):
            continue
        unhonoured(item, EVAL_KEYS, f"evals[{index}]", dataset, line)
        prompt = item.get("prompt")
        if not isinstance(prompt, str) or not prompt.strip():
            continue
        dataset.cases.append(eval_case(item, prompt, index, ids, dataset, line, "skill-creator"))
    return dataset


def eval_case(
    item: dict[str, Any],
    prompt: str,
    index: int,
    ids: IdMaker,
    dataset: Dataset,
    line: int | None,
    tool: str,
    **more: Any,
) -> Case:
    """One eval in skill-creator's shape (skill-creator's own, addyosmani's case files) as a case that
    should trigger the dataset's skill, judged on its statements, its `files` copied into the workspace;
    `tool` names where it came from in the case's note, `more` are a tool's own Case fields."""
    files = item.get("files")
    return Case(
        id=ids.make(item.get("id", index + 1)),
        prompt=prompt.strip(),
        should_trigger=True,
        skill=dataset.skill,
        source=dataset.rel,
        line=line,
        expected_behavior=statements(item),
        files=[f for f in files if isinstance(f, str)] if isinstance(files, list) else [],
        note=f"{tool} eval {item.get('id', index + 1)}",
        **more,
    )


def statements(item: dict[str, object]) -> list[str]:
    """What an eval is judged on: its expected output, then each expectation, once each."""
    found = [item.get("expected_output")]
    checks = item.get("expectations", item.get("assertions"))
    found += checks if isinstance(checks, list) else []
    return list(dict.fromkeys(s.strip() for s in found if isinstance(s, str) and s.strip()))


def load_trigger_set(path: Path, rel: str, skill: str) -> Dataset:
    """The trigger eval set beside a skill's evals file. Never raises: problems become findings."""
    dataset = Dataset(rel=rel, skill=skill, format=TRIGGERS_FORMAT)
    read = read_json(path, dataset)
    return dataset if read is None else read_triggers(*read, dataset)


def read_json(path: Path, dataset: Dataset) -> tuple[str, Any] | None:
    """The text and JSON value of another tool's eval file, or None with the problem added to
    `dataset` as a finding on its line."""
    try:
        text = read_text(path)
        return text, jsonsafe.loads(text, dataset.rel, constants=False)
    except UnreadableFile as exc:
        problem = findings.error("dataset-unreadable", dataset.rel, f"cannot be read: {exc.reason}.")
    except jsonsafe.JsonProblem as exc:
        problem = findings.error("dataset-json", dataset.rel, f"{exc.reason}; fix the file there.", exc.line)
    dataset.problems.append(problem)
    return None


def read_triggers(text: str, data: object, dataset: Dataset) -> Dataset:
    dataset.format = TRIGGERS_FORMAT
    dataset.raw = data
    lines = json_positions.top_array_lines(text)
    _validate("skill-creator-triggers", data, dataset, lines, text)
    ids = IdMaker(dataset.skill or "shared")
    for index, item in enumerate(data if isinstance(data, list) else []):
        line = lines[index] if index < len(lines) else None
        if not isinstance(item, dict):
            continue
        unhonoured(item, TRIGGER_KEYS, f"query {index + 1}", dataset, line)
        query, trigger = item.get("query"), item.get("should_trigger")
        if not (isinstance(query, str) and query.strip() and isinstance(trigger, bool)):
            continue
        dataset.cases.append(
            Case(
                id=ids.make("trigger" if trigger else "no-trigger", index + 1),
                prompt=query.strip(),
                should_trigger=trigger,
                skill=dataset.skill,
                source=dataset.rel,
                line=line,
            )
        )
    return dataset


def _validate(schema: str, data: object, dataset: Dataset, lines: list[int], text: str) -> None:
    for error in sorted(schemas.validator(schema).iter_errors(data), key=lambda e: list(e.absolute_path)):
        path = list(error.absolute_path)
        index = next((p for p in path if isinstance(p, int)), None)
        line = lines[index] if index is not None and index < len(lines) else None
        if line is None and path and isinstance(path[0], str):
            line = json_positions.key_line(text, path[0])
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
        dataset.problems.append(
            findings.error(
                "skill-creator-schema",
                dataset.rel,
                f"{f'`{where}` ' if where else 'the top level '}does not fit skill-creator's shape: "
                f"{error.message}; fix it as skill-creator's references/schemas.md describes.",
                line,
            )
        )


def unhonoured(
    item: dict[str, object],
    known: frozenset[str],
    where: str,
    dataset: Dataset,
    line: int | None,
    runs: str = "its cases run",
) -> None:
    """A `dataset-field-unhonoured` warning naming each key of `item` skillscope does not use."""
    extra = sorted(str(key) for key in item if key not in known)
    if extra:
        dataset.problems.append(
            findings.warning(
                "dataset-field-unhonoured",
                dataset.rel,
                f"{where}: skillscope does not use {', '.join(f'`{k}`' for k in extra)}; {runs} without it.",
                line,
            )
        )
