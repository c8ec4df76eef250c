"""addyosmani/agent-skills' case files (`evals/cases/<skill>.json`) into our dataset shape.

A case file holds `skill_name`, `trigger.positive[]` of `{prompt, top_k}`, `trigger.negative[]` of
`{prompt, owner}` and behavioural `evals[]` in skill-creator's shape (with an optional `kind` and
`trust_level`). `top_k` and `owner` mean exactly what ours mean, so they carry over as they are;
the behavioural evals go through skill-creator's converter. What cannot be carried over is returned
as sentences, never dropped silently.
"""

from __future__ import annotations

from pathlib import Path

from harness.authoring import skill_creator
from harness.authoring.skill_creator import Converted, NotSkillCreator
from harness.model.case_ids import IdMaker

TOP_KEYS = frozenset({"skill_name", "trigger", "evals"})
POSITIVE_KEYS = frozenset({"prompt", "top_k"})
NEGATIVE_KEYS = frozenset({"prompt", "owner"})


def convert(skill: str, data: object, skill_dir: Path, stage_files: bool) -> Converted:
    if not isinstance(data, dict) or not isinstance(data.get("trigger", {}), dict):
        raise NotSkillCreator(
            "is not an addyosmani case file: expected an object with `trigger` "
            "{positive, negative} and `evals`"
        )
    evals = {"evals": data["evals"]} if isinstance(data.get("evals"), list) else None
    out = skill_creator.convert(skill, evals, None, skill_dir, stage_files)
    ids = IdMaker(skill)
    ids.taken.update(case["id"] for case in out.dataset["evaluations"])
    trigger = data.get("trigger") or {}
    for kind, known in (("positive", POSITIVE_KEYS), ("negative", NEGATIVE_KEYS)):
        items = trigger.get(kind) or []
        for index, item in enumerate(items if isinstance(items, list) else []):
            _add(out, ids, kind, index, item, known)
    for key in sorted(set(data) - TOP_KEYS):
        out.left_out.append(f"the top-level `{key}` has no counterpart in our shape.")
    for key in sorted(set(trigger) - {"positive", "negative"}):
        out.left_out.append(f"`trigger.{key}` has no counterpart in our shape.")
    return out


def _add(out: Converted, ids: IdMaker, kind: str, index: int, item: object, known: frozenset[str]) -> None:
    where = f"trigger.{kind}[{index}]"
    prompt = item.get("prompt") if isinstance(item, dict) else None
    if not isinstance(item, dict) or not isinstance(prompt, str) or not prompt.strip():
        out.left_out.append(f"{where} has no prompt; it was left out.")
        return
    case: dict = {
        "id": ids.make("pos" if kind == "positive" else "neg", index + 1),
        "skill_should_trigger": kind == "positive",
        "prompt": prompt.strip(),
    }
    value = item.get("top_k" if kind == "positive" else "owner")
    if kind == "positive" and type(value) is int and value >= 1:
        case["top_k"] = value
    elif kind == "negative" and isinstance(value, str) and value.strip():
        case["owner"] = value.strip()
    elif value is not None:
        out.left_out.append(f"{where}: {'top_k' if kind == 'positive' else 'owner'} {value!r} is not usable.")
    for key in sorted(set(item) - known):
        out.left_out.append(f"{where}: `{key}` has no counterpart in our shape.")
    out.dataset["evaluations"].append(case)
