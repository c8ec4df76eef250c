"""addyosmani/agent-skills' case files, `evals/cases/<skill>.json` at the repo's root, read in place.

A case file holds `skill_name`, `trigger.positive[]` of `{prompt, top_k}`, `trigger.negative[]` of
`{prompt, owner}` and behavioural `evals[]` in skill-creator's shape (plus `kind` and `trust_level`),
whose `files` are relative to the repo's `evals/fixtures/`. `top_k` and `owner` mean what ours mean.

`routing_cases` is the one conversion of the trigger lists: `import addyosmani` writes what it returns,
and the in-place reader runs it, so both name cases alike (`<skill>-pos-N`, `<skill>-neg-N`, after the
evals' `<skill>-<id>`). A skill's own evals/evals.json wins: the case file is read only without one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import json_positions
from harness.model import findings
from harness.model.case_ids import IdMaker
from harness.model.dataset import Dataset, case_from
from harness.model.repo import CASE_FILES
from harness.model.skill_creator_evals import EVAL_KEYS, eval_case, read_json, unhonoured

CASES = CASE_FILES
FIXTURES = Path("evals") / "fixtures"
FORMAT = "addyosmani case file"
TOP_KEYS = frozenset({"skill_name", "trigger", "evals"})
TRIGGER_KEYS = frozenset({"positive", "negative"})
CASE_EVAL_KEYS = EVAL_KEYS | {"trust_level"}
FIELDS = {
    "positive": ("top_k", frozenset({"prompt", "top_k"})),
    "negative": ("owner", frozenset({"prompt", "owner"})),
}


@dataclass(frozen=True)
class LeftOut:
    sentence: str  # what was not carried over, and why
    line: int | None = None


@dataclass
class Routing:
    cases: list[tuple[dict[str, Any], int | None]] = field(default_factory=list)  # our case shape, its line
    left_out: list[LeftOut] = field(default_factory=list)


def is_case_file(data: object) -> bool:
    return isinstance(data, dict) and isinstance(data.get("trigger", {}), dict)


def routing_cases(data: dict[str, Any], ids: IdMaker, text: str | None = None) -> Routing:
    """The trigger lists of a case file as our routing cases; `ids` already holds the evals' ids.
    With the file's `text`, each case and each thing left out carries its line."""
    out = Routing()
    trigger = data.get("trigger") or {}
    for kind, (key, known) in FIELDS.items():
        items = trigger.get(kind) or []
        lines = json_positions.nested_element_lines(text, ("trigger", kind)) if text else []
        for index, item in enumerate(items if isinstance(items, list) else []):
            line = lines[index] if index < len(lines) else None
            where = f"trigger.{kind}[{index}]"
            prompt = item.get("prompt") if isinstance(item, dict) else None
            if not isinstance(item, dict) or not isinstance(prompt, str) or not prompt.strip():
                out.left_out.append(LeftOut(f"{where} has no prompt; it was left out.", line))
                continue
            case: dict[str, Any] = {
                "id": ids.make("pos" if kind == "positive" else "neg", index + 1),
                "skill_should_trigger": kind == "positive",
                "prompt": prompt.strip(),
            }
            value = item.get(key)
            if key == "top_k" and type(value) is int and value >= 1:
                case["top_k"] = value
            elif key == "owner" and isinstance(value, str) and value.strip():
                case["owner"] = value.strip()
            elif value is not None:
                out.left_out.append(LeftOut(f"{where}: {key} {value!r} is not usable.", line))
            for extra in sorted(set(item) - known):
                out.left_out.append(LeftOut(f"{where}: `{extra}` has no counterpart in our shape.", line))
            out.cases.append((case, line))
    top_line = json_positions.key_line(text, "trigger") if text else None
    for extra in sorted(set(data) - TOP_KEYS):
        line = json_positions.key_line(text, extra) if text else None
        out.left_out.append(LeftOut(f"the top-level `{extra}` has no counterpart in our shape.", line))
    for extra in sorted(set(trigger) - TRIGGER_KEYS):
        out.left_out.append(LeftOut(f"`trigger.{extra}` has no counterpart in our shape.", top_line))
    return out


def load(path: Path, rel: str, skill: str, fixtures: Path) -> Dataset:
    """`skill`'s case file as its dataset; `fixtures` is the folder its `files` are relative to.
    Never raises: problems become findings on the case file's lines."""
    dataset = Dataset(rel=rel, skill=skill, format=FORMAT)
    read = read_json(path, dataset)
    if read is None:
        return dataset
    text, data = read
    dataset.raw = data
    if not is_case_file(data) or (data.get("evals") is not None and not isinstance(data.get("evals"), list)):
        dataset.problems.append(
            findings.error(
                "dataset-schema",
                rel,
                "is not an addyosmani case file: expected an object with `trigger` {positive, negative} "
                "and an `evals` list; fix it, or move it out of evals/cases/.",
            )
        )
        return dataset
    assert isinstance(data, dict)  # is_case_file said so
    name = data.get("skill_name")
    if isinstance(name, str) and name != skill:
        dataset.problems.append(
            findings.error(
                "dataset-schema",
                rel,
                f"`skill_name` is '{name}', but the file is named for skill '{skill}'; make them equal.",
                json_positions.key_line(text, "skill_name"),
            )
        )
    ids = IdMaker(skill)
    _behavioural(data, text, dataset, ids, fixtures)
    routing = routing_cases(data, ids, text)
    for case, line in routing.cases:
        made = case_from(case, dataset, line)
        if made is not None:
            dataset.cases.append(made)
    for left in routing.left_out:
        dataset.problems.append(
            findings.warning(
                "dataset-field-unhonoured",
                rel,
                f"{left.sentence} skillscope runs the file without it.",
                left.line,
            )
        )
    return dataset


def _behavioural(data: dict[str, Any], text: str, dataset: Dataset, ids: IdMaker, fixtures: Path) -> None:
    """The behavioural evals, read as skill-creator's are; their inputs come from `fixtures`."""
    lines = json_positions.element_lines(text, "evals")
    items = data.get("evals") or []
    for index, item in enumerate(items):
        line = lines[index] if index < len(lines) else None
        prompt = item.get("prompt") if isinstance(item, dict) else None
        if not isinstance(item, dict) or not isinstance(prompt, str) or not prompt.strip():
            dataset.problems.append(
                findings.warning(
                    "dataset-field-unhonoured",
                    dataset.rel,
                    f"evals[{index}] has no prompt; it is not run.",
                    line,
                )
            )
            continue
        unhonoured(item, CASE_EVAL_KEYS, f"evals[{index}]", dataset, line, "its case runs")
        trust = item.get("trust_level")
        trust_level = trust if trust in ("provisional", "stable") else "stable"
        dataset.cases.append(
            eval_case(
                item,
                prompt,
                index,
                ids,
                dataset,
                line,
                "addyosmani",
                files_root=fixtures,
                trust_level=trust_level,
            )
        )
