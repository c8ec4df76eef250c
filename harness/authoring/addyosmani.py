"""addyosmani/agent-skills' case files (`evals/cases/<skill>.json`) into our dataset shape.

The behavioural `evals[]` (skill-creator's shape, plus `kind` and `trust_level`) go through
skill-creator's converter, their `files` taken from the repo's `evals/fixtures/`; the trigger lists go
through the one conversion the in-place reader also runs (harness/model/addyosmani_cases.py), so an
imported file and the file read in place name their cases alike. What cannot be carried over is
returned as sentences, never dropped silently.
"""

from __future__ import annotations

from pathlib import Path

from harness.authoring import skill_creator
from harness.authoring.skill_creator import Converted, NotSkillCreator
from harness.model.addyosmani_cases import is_case_file, routing_cases
from harness.model.case_ids import IdMaker


def convert(skill: str, data: object, fixtures: Path, stage_files: bool) -> Converted:
    """`data` (a parsed case file) for `skill`; its evals' `files` are relative to `fixtures`."""
    if not is_case_file(data):
        raise NotSkillCreator(
            "is not an addyosmani case file: expected an object with `trigger` "
            "{positive, negative} and `evals`"
        )
    assert isinstance(data, dict)  # is_case_file said so
    evals = {"evals": data["evals"]} if isinstance(data.get("evals"), list) else None
    out = skill_creator.convert(skill, evals, None, fixtures, stage_files)
    ids = IdMaker(skill)
    ids.taken.update(case["id"] for case in out.dataset["evaluations"])
    routing = routing_cases(data, ids)
    out.dataset["evaluations"] += [case for case, _line in routing.cases]
    out.left_out += [left.sentence for left in routing.left_out]
    return out
