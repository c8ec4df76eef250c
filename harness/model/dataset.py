"""Case and Dataset: evals.json, extended_evals.json and the shared negatives."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from harness import json_positions, nesting, schemas
from harness.files import UnreadableFile, packaged_text, read_text
from harness.memo import Memo
from harness.model import findings

TYPE_CHECKING = False  # typing's flag without importing typing, which reading a dataset does not need
if TYPE_CHECKING:
    from typing import Any

    from jsonschema.exceptions import ValidationError

EVALS = "evals.json"
EXTENDED = "extended_evals.json"
EXPECTATION_KEYS = ("expected_behavior", "unexpected_behavior", "logs_contain", "files_exist")
TRIGGER_ONLY_KEYS = (*EXPECTATION_KEYS, "workspace", "top_k")
DEFAULT_TOP_K = 3
SHARED_NEGATIVES = "harness/data/negatives.json"
MAX_DEPTH = nesting.MAX_DEPTH
_TOO_DEEP = object()
_CONSTANT = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)')


@dataclass(frozen=True)
class Grader:
    """A free grader we score ourselves: regex, tool_used (other than routing) or tool_order."""

    name: str
    kind: str
    weight: float
    spec: dict[str, Any]  # the grader's own fields, checked
    source: str
    line: int | None = None


@dataclass
class Case:
    """One evaluation case: a prompt, whether its skill should fire, and where it was read."""

    id: str
    prompt: str
    should_trigger: bool
    skill: str | None  # the owning skill; None for the shared negatives
    source: str  # root-relative path of the dataset
    line: int | None = None
    expected_behavior: list[str] = field(default_factory=list)
    unexpected_behavior: list[str] = field(default_factory=list)
    logs_contain: list[str] = field(default_factory=list)
    files_exist: list[str] = field(default_factory=list)
    workspace: str | None = None
    note: str | None = None
    extended: bool = False
    top_k: int = DEFAULT_TOP_K  # lexical routing: a true case's skill must rank within this many
    owner: str | None = None  # on a false case: the skill this prompt belongs to, which should fire on it
    trust_level: str = "stable"  # provisional: reported apart, counted by the gates only with --strict
    files: list[str] = field(default_factory=list)  # input files copied into the workspace
    files_root: Path | None = None  # the folder `files` are relative to and must stay in; None: the skill
    # Read from a Claude Code plugin eval suite (model/pluginsuite.py): its regex/tool graders we
    # score ourselves, and its `runs`.
    graders: list[Grader] = field(default_factory=list)
    runs: int | None = None

    @property
    def provisional(self) -> bool:
        return self.trust_level == "provisional"

    @property
    def category(self) -> str:
        if self.skill is None:
            return "unrelated"
        return "positive" if self.should_trigger else "near_miss"

    @property
    def expected_skill(self) -> str | None:
        """The skill routing should fire: a true case's own, a false case's `owner`; None: no skill."""
        return self.skill if self.should_trigger else self.owner

    @property
    def unwanted_skill(self) -> str | None:
        """A false case's own skill: the prompt is not its job, so its firing is a false trigger."""
        return None if self.should_trigger else self.skill

    @property
    def has_behavior(self) -> bool:
        return any(getattr(self, key) for key in EXPECTATION_KEYS) or bool(self.graders)


@dataclass
class Dataset:
    """One dataset file's cases and the problems found reading it."""

    rel: str
    skill: str | None
    extended: bool = False
    cases: list[Case] = field(default_factory=list)
    skillscope_version: str | None = None
    problems: list[findings.Finding] = field(default_factory=list)
    raw: object = None
    format: str = "skillscope"  # which tool's shape the file is in; others are read by their own readers


# Reads a file in skill-creator's evals shape: (text, parsed data, the dataset to fill) -> it filled.
ForeignReader = Callable[[str, object, "Dataset"], "Dataset"]


def load(
    path: Path,
    rel: str,
    skill: str | None,
    extended: bool = False,
    memo: Memo | None = None,
    foreign: ForeignReader | None = None,
) -> Dataset:
    """Read and validate one dataset file. Never raises: problems become findings. `memo` keeps the
    case lines of each text the schema accepted, so an unchanged file skips validation next run.
    `foreign` reads a file in skill-creator's shape in place (the catalog passes that reader)."""
    dataset = Dataset(rel=rel, skill=skill, extended=extended)
    try:
        text = read_text(path)
    except UnreadableFile as exc:
        dataset.problems.append(findings.error("dataset-unreadable", rel, f"cannot be read: {exc.reason}."))
        return dataset
    return parse(text, dataset, memo, foreign)


def parse(
    text: str, dataset: Dataset, memo: Memo | None = None, foreign: ForeignReader | None = None
) -> Dataset:
    rel = dataset.rel
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        dataset.problems.append(
            findings.error(
                "dataset-json",
                rel,
                f"is not valid JSON: {exc.msg} (column {exc.colno}); fix the syntax there.",
                exc.lineno,
            )
        )
        return dataset
    except ValueError as exc:
        dataset.problems.append(
            findings.error("dataset-json", rel, f"is not valid JSON: {exc}.", _constant_line(text))
        )
        return dataset
    except RecursionError:
        data = _TOO_DEEP
    if data is _TOO_DEEP:
        memo = None  # only what parsed is memoized
    elif foreign is not None and foreign_evals_shape(data):
        return foreign(text, data, dataset)
    key = memo.key(text) if memo is not None else ""
    known = memo.get(key) if memo is not None else None
    if isinstance(known, list):  # this very text passed the screen before: its case lines
        return _read_cases(data, dataset, known)
    # What the screen passes nests as shallowly as the schema allows; anything else is measured first.
    valid = data is not _TOO_DEEP and schemas.passes_screen("evals", data)
    if not valid and (data is _TOO_DEEP or nesting.deeper_than(data, MAX_DEPTH)):
        dataset.problems.append(
            findings.error(
                "dataset-json",
                rel,
                f"nests more than {MAX_DEPTH} levels deep, far beyond the documented "
                "shape; keep to an object holding an `evaluations` array of flat objects.",
            )
        )
        return dataset
    case_lines = json_positions.element_lines(text, "evaluations")
    if valid and memo is not None:
        memo.put(key, case_lines)
    if not valid:
        found = schemas.validator("evals").iter_errors(data)
        for error in sorted(found, key=lambda e: list(e.absolute_path)):
            dataset.problems.append(_schema_finding(error, rel, case_lines, text))
    return _read_cases(data, dataset, case_lines)


def foreign_evals_shape(data: object) -> bool:
    """skill-creator's (and the specification's) evals shape: an `evals` list, no `evaluations`."""
    return isinstance(data, dict) and "evals" in data and "evaluations" not in data


def _read_cases(data: object, dataset: Dataset, case_lines: list[int]) -> Dataset:
    dataset.raw = data
    if not isinstance(data, dict):
        return dataset
    version = data.get("skillscope_version")
    dataset.skillscope_version = version if isinstance(version, str) else None
    items = data.get("evaluations")
    for index, item in enumerate(items if isinstance(items, list) else []):
        line = case_lines[index] if index < len(case_lines) else None
        case = case_from(item, dataset, line)
        if case is not None:
            dataset.cases.append(case)
    return dataset


def located(source: str, line: int | None) -> tuple[str, int | None]:
    """Where a finding about a case points: its own file and line, or, for one of the built-in shared
    negatives (a file of the installed package, which no user can edit), the repo as a whole."""
    return (".", None) if source == SHARED_NEGATIVES else (source, line)


def origin_note(source: str, ident: str) -> str:
    """What a finding about a built-in shared negative adds: where it came from and how to leave it out."""
    if source != SHARED_NEGATIVES:
        return ""
    return (
        f"; `{ident}` is one of skillscope's built-in shared negatives, not a file of this repo: "
        "--no-builtin-negatives (or no-builtin-negatives = true in skillscope.toml) leaves that set out"
    )


def shared_negatives(memo: Memo | None = None) -> Dataset:
    text = packaged_text("data", "negatives.json")
    return parse(text, Dataset(rel=SHARED_NEGATIVES, skill=None), memo)


def template_text() -> str:
    return packaged_text("data", "TEMPLATE.json")


def case_from(item: object, dataset: Dataset, line: int | None) -> Case | None:
    """One evaluation of our shape as a Case of `dataset`; None when it lacks an id, prompt or trigger."""
    if not isinstance(item, dict):
        return None
    ident, prompt, trigger = item.get("id"), item.get("prompt"), item.get("skill_should_trigger")
    if not (
        isinstance(ident, str) and ident.strip() and isinstance(prompt, str) and isinstance(trigger, bool)
    ):
        return None
    workspace, note, trust = item.get("workspace"), item.get("note"), item.get("trust_level")
    top_k, owner = item.get("top_k"), item.get("owner")
    return Case(
        id=ident.strip(),
        prompt=prompt.strip(),
        should_trigger=trigger,
        skill=dataset.skill,
        source=dataset.rel,
        line=line,
        extended=dataset.extended,
        workspace=workspace if isinstance(workspace, str) else None,
        note=note if isinstance(note, str) else None,
        trust_level=trust if trust in ("provisional", "stable") else "stable",
        top_k=top_k if type(top_k) is int and top_k >= 1 else DEFAULT_TOP_K,
        owner=owner.strip() if isinstance(owner, str) and owner.strip() else None,
        expected_behavior=_strings(item.get("expected_behavior")),
        unexpected_behavior=_strings(item.get("unexpected_behavior")),
        logs_contain=_strings(item.get("logs_contain")),
        files_exist=_strings(item.get("files_exist")),
    )


def _strings(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON; use a number or a string")


def _constant_line(text: str) -> int | None:
    """Line of the first NaN/Infinity outside a string (json's parse_constant hook gets no position)."""
    for match in _CONSTANT.finditer(text):
        if match.group(1):
            return text.count("\n", 0, match.start()) + 1
    return None


def _schema_finding(error: ValidationError, rel: str, case_lines: list[int], text: str) -> findings.Finding:
    path = list(error.absolute_path)
    line = None
    if len(path) >= 2 and path[0] == "evaluations" and isinstance(path[1], int) and path[1] < len(case_lines):
        line = case_lines[path[1]]
    elif path and isinstance(path[0], str):
        line = json_positions.key_line(text, path[0])
    elif not path and error.validator == "additionalProperties" and isinstance(error.instance, dict):
        extra = [key for key in error.instance if key not in schemas.declared_properties(error)]
        line = json_positions.key_line(text, extra[0]) if extra else None
    where = _where(path, error.instance if path else None)
    return findings.error("dataset-schema", rel, f"{where}{_explain(error)}", line)


def _where(path: list[str | int], _instance: object) -> str:
    if not path:
        return "the top level "
    text = str(path[0])
    for part in path[1:]:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return f"`{text}` "


def _explain(error: ValidationError) -> str:
    kind, value = error.validator, error.validator_value
    if kind == "required":
        required = value if isinstance(value, list) else []  # `required` holds a list of keys
        missing = [key for key in required if isinstance(error.instance, dict) and key not in error.instance]
        names = ", ".join(f"`{key}`" for key in missing)
        return f"is missing {names}; every evaluation needs an id, a prompt and skill_should_trigger."
    if kind == "additionalProperties":
        allowed = sorted(schemas.declared_properties(error))
        extra = sorted(set(error.instance) - set(allowed)) if isinstance(error.instance, dict) else []
        return f"has unknown key(s) {', '.join(f'`{k}`' for k in extra)}; allowed: {', '.join(allowed)}."
    if kind == "type":
        shown = json.dumps(error.instance)[:60]
        return f"must be of type {value}, not {type(error.instance).__name__}: {shown}."
    if kind in ("minLength", "pattern") and isinstance(error.instance, str) and not error.instance.strip():
        return "must be a non-empty string."
    if kind == "pattern" and list(error.absolute_path)[-1:] == ["id"]:
        shown = json.dumps(error.instance, ensure_ascii=False)[:80]
        return (
            f"is {shown}; a case id holds only letters, digits, `_`, `.`, `:` and `-`, starting with a "
            "letter or digit (it names log files), so rename it, such as `my-skill-pos-1`."
        )
    if kind == "minItems":
        return "must be a non-empty array."
    if kind in ("pattern", "not"):
        return (
            f"is '{error.instance}', which is not a usable git ref or version; use a tag such as v1.2.0, a "
            "release such as 1.2.0 (its tag v1.2.0), or skillscope-harness==1.2.0 from the package index."
        )
    return f"is invalid: {error.message}."
