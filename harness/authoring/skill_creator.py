"""Anthropic's skill-creator datasets into ours.

skill-creator keeps two files: an evals file (`skill_name`, `evals[]` of `id`, `prompt`,
`expected_output`, `files[]` and `expectations[]`, also spelled `assertions`) and a trigger eval
set (a list of `{query, should_trigger}`). Each eval becomes a `true` case graded on behaviour;
each trigger query a routing case. What cannot be carried over is returned as sentences, never
dropped silently.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from harness.errors import HarnessError
from harness.files import UnreadableFile, links_leaving, read_bytes, rel_to
from harness.model.case_ids import IdMaker
from harness.writer import write_bytes, writing

EVAL_KEYS = frozenset(
    {"id", "prompt", "expected_output", "files", "expectations", "assertions", "trust_level"}
)
FIXTURES = "fixtures"  # where an eval's input files go, inside the skill
FIXTURE_BYTES = 64 * 1024 * 1024  # an input file copied whole; far above any hand-made one


class NotSkillCreator(Exception):
    """The input is not a skill-creator file; the message says what is wrong, `in_triggers` which of the
    two files it is (the trigger eval set, else the evals file)."""

    def __init__(self, message: str, in_triggers: bool = False):
        super().__init__(message)
        self.in_triggers = in_triggers


@dataclass
class Converted:
    dataset: dict
    left_out: list[str] = field(default_factory=list)  # one sentence per thing not carried over
    fixtures: dict[str, list[Path]] = field(default_factory=dict)  # case id -> input files to copy


def convert(
    skill: str, evals: object | None, triggers: object | None, skill_dir: Path, stage_files: bool
) -> Converted:
    """Both skill-creator files (either may be None) as one dataset for `skill`. With `stage_files`,
    an eval's input files become a workspace fixture (see `write_fixtures`); without, they are
    reported as left out."""
    out = Converted({"evaluations": []})
    ids = IdMaker(skill)
    if evals is not None:
        for index, item in enumerate(_evals_list(evals)):
            _add_eval(out, ids, item, index, skill_dir, stage_files)
        assert isinstance(evals, dict)  # _evals_list refused anything else
        for key in sorted(set(evals) - {"skill_name", "evals"}):
            hint = (
                " (an addyosmani case file: use `skillscope import addyosmani`)" if key == "trigger" else ""
            )
            out.left_out.append(f"the top-level `{key}` has no counterpart in skill-creator's shape{hint}.")
    if triggers is not None:
        for index, item in enumerate(_trigger_list(triggers)):
            _add_trigger(out, ids, item, index)
    return out


def _evals_list(data: object) -> list:
    if not isinstance(data, dict) or not isinstance(data.get("evals"), list):
        raise NotSkillCreator("is not a skill-creator evals file: expected an object with an `evals` list")
    return data["evals"]


def _trigger_list(data: object) -> list:
    if isinstance(data, dict) and isinstance(data.get("queries"), list):
        return data["queries"]
    if not isinstance(data, list):
        raise NotSkillCreator(
            "is not a skill-creator trigger eval set: expected a list of {query, should_trigger}",
            in_triggers=True,
        )
    return data


def _add_eval(
    out: Converted, ids: IdMaker, item: object, index: int, skill_dir: Path, stage_files: bool
) -> None:
    where = f"evals[{index}]"
    if not isinstance(item, dict) or not _text(item.get("prompt")):
        out.left_out.append(f"{where} has no prompt; it was left out.")
        return
    case_id = ids.make(item.get("id", index + 1))
    case: dict = {"id": case_id, "skill_should_trigger": True, "prompt": item["prompt"].strip()}
    statements = [_text(item.get("expected_output"))]
    checks = item.get("expectations", item.get("assertions")) or []
    statements += [_text(c) for c in checks] if isinstance(checks, list) else []
    kept = [s for s in dict.fromkeys(statements) if s]
    if kept:
        case["expected_behavior"] = kept
    files = item.get("files") or []
    if files:
        inside = _files_inside(files, skill_dir, where, out.left_out)
        if inside and not stage_files:
            out.left_out.append(
                f"{where}: {len(inside)} input file(s) not copied; write the dataset with --output to "
                f"copy them into {FIXTURES}/{case_id}/ as the case's workspace."
            )
        elif inside:
            case["workspace"] = f"{FIXTURES}/{case_id}"
            out.fixtures[case_id] = inside
    if item.get("trust_level") in ("provisional", "stable"):
        case["trust_level"] = item["trust_level"]
    for key in sorted(set(item) - EVAL_KEYS):
        out.left_out.append(f"{where}: `{key}` has no counterpart in our shape.")
    case["note"] = f"imported from skill-creator eval {item.get('id', index + 1)}"
    out.dataset["evaluations"].append(case)


def _add_trigger(out: Converted, ids: IdMaker, item: object, index: int) -> None:
    where = f"trigger query {index + 1}"
    if not isinstance(item, dict) or not _text(item.get("query")):
        out.left_out.append(f"{where} has no query; it was left out.")
        return
    trigger = item.get("should_trigger")
    if not isinstance(trigger, bool):
        out.left_out.append(f"{where} has no true/false should_trigger; it was left out.")
        return
    case_id = ids.make("trigger" if trigger else "no-trigger", index + 1)
    out.dataset["evaluations"].append(
        {"id": case_id, "skill_should_trigger": trigger, "prompt": item["query"].strip()}
    )


def _files_inside(files: object, skill_dir: Path, where: str, left_out: list[str]) -> list[Path]:
    """Input files that exist inside the skill; every other entry is reported."""
    kept = []
    root = skill_dir.resolve()
    for entry in files if isinstance(files, list) else [files]:
        path = (skill_dir / str(entry)).resolve()
        if not path.is_relative_to(root):
            left_out.append(
                f"{where}: file {entry!r} lies outside the skill; copy it into the skill and list it again."
            )
        elif path.is_dir() and (leaving := links_leaving(path, root)):
            left_out.append(
                f"{where}: folder {entry!r} holds {rel_to(root, leaving[0])}, a link that leads outside the "
                "skill; it was left out: replace the link with what it points at and import again."
            )
        elif not (path.is_file() or path.is_dir()):
            left_out.append(f"{where}: file {entry!r} does not exist in the skill; it was left out.")
        else:
            kept.append(path)
    return kept


def write_fixtures(converted: Converted, skill_dir: Path, repo: Path) -> list[Path]:
    """Copy each case's input files (with their permission bits) into `<skill>/fixtures/<case id>/`;
    returns the folders made."""
    made = []
    for case_id, files in converted.fixtures.items():
        folder = skill_dir / FIXTURES / case_id
        for path in files:
            for source, target in _copies(path, folder / path.name):
                _copy_file(source, target, repo)
        made.append(folder)
    return made


def _copies(path: Path, target: Path) -> list[tuple[Path, Path]]:
    """Each file to copy for an input (itself, or every file under a folder), with where it goes."""
    if not path.is_dir():
        return [(path, target)]
    out = []
    for current, folders, names in sorted(os.walk(path)):
        here = Path(current)
        linked = next((here / f for f in folders if (here / f).is_symlink()), None)
        if linked is not None:  # os.walk does not enter it: refused rather than left out unsaid
            raise HarnessError(
                f"{linked} is a link to a folder; replace it with the folder and import again."
            )
        out += [(here / name, target / here.relative_to(path) / name) for name in sorted(names)]
    return out


def _copy_file(path: Path, target: Path, repo: Path) -> None:
    try:
        data = read_bytes(path, FIXTURE_BYTES)
    except UnreadableFile as exc:
        raise HarnessError(f"{path} cannot be copied: {exc.reason}.") from None
    with writing("an input file", target, "fix the folder's permissions"):
        write_bytes(target, data, repo, mode=stat.S_IMODE(os.stat(path).st_mode))


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""
