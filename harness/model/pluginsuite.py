"""Claude Code's plugin eval suites, read where they stand: `evals/<case>/case.yaml`, or `prompt.md`
plus `graders/*.md`, one case per folder. Each folder becomes one of our Cases; every problem and every
grader we cannot honour yet is a finding on its own file and line, never dropped and never a pass."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.files import UnreadableFile, present, read_text
from harness.model import findings
from harness.model.dataset import Case, Dataset, Grader
from harness.model.suite_folders import CASE_FILE, PROMPT_FILE, case_folders

if TYPE_CHECKING:
    import yaml

GRADERS_DIR = "graders"
SCHEMA_RULE = "plugin-eval-schema"
NOT_RUN_RULE = "plugin-eval-not-run"
SUPPORTED_MAJOR = 1
DEFAULT_RUNS = 3
SKILL_TOOL = "Skill"

TOP_KEYS = {"schema_version", "name", "description", "tags", "plugins", "context", "execution", "runs"}
TOP_KEYS |= {"graders", "expected_outcome"}
EXECUTION_KEYS = {"prompt", "max_turns", "timeout_seconds", "model", "allowed_tools", "disallowed_tools"}
EXECUTION_KEYS |= {"artifact_publish", "growthbook_overrides", "append_system_prompt", "env"}
PROSE_KEYS = {"schema_version", "name", "description", "tags", "plugins", "runs", "expected_outcome"}
PROSE_KEYS |= EXECUTION_KEYS - {"prompt"}
COMMON_GRADER_KEYS = {"name", "type", "weight", "arm"}
GRADER_KEYS = {
    "regex": {"target", "pattern", "flags", "match"},
    "tool_order": {"before", "after"},
    "tool_used": {"tool", "input_match", "min", "max"},
    "file_exists": {"path", "exists"},
    "llm": {"criteria", "focus"},
    "baseline": {"baseline_file", "criteria"},
}
# Settings of a host case that we cannot honour yet, and why; each one present is a NOT RUN finding.
NOT_HONOURED = {
    "plugins": "extra plugins are not loaded: skillscope installs skills, not plugins",
    "context.scaffold_script": "scaffold scripts are not run; use a `workspace` fixture or a hooks.py setup",
    "context.history_file": "resuming a recorded Claude session has no counterpart on the other agents",
    "context.add_dirs": "extra readable folders are not granted: the run stays in its workspace",
    "execution.growthbook_overrides": "Claude Code feature-flag overrides are not applied",
    "execution.artifact_publish": "publishing artifacts is a Claude Code feature",
    "execution.model": "the run uses the model of --model for every case",
    "execution.append_system_prompt": "an appended system prompt is not passed to the agent",
    "execution.env": "per-case environment variables are not set",
    "execution.allowed_tools": "tools are those skillscope grants every behavioral run",
    "execution.disallowed_tools": "tools are those skillscope grants every behavioral run",
    "execution.max_turns": "turns are bounded by the run's own limits, not per case",
    "execution.timeout_seconds": "the run's --case-timeout applies to every case",
}
MOCKS_REASON = "MCP stand-ins (`mocks/`) are not served: cases that need them run without"
REGEX_TARGETS = {"last_message", "trace", "files"}
LLM_FOCUS = {"last_message", "trace", "files"}
COUNT = re.compile(r"count:(\d+)")
# JavaScript regex flags and their Python counterparts; the rest cannot be honoured.
JS_FLAGS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "u": 0, "g": 0, "d": 0}


@dataclass
class HostCase:
    """What one case folder says, before mapping; `lines` maps a dotted key to its line in `files`."""

    folder: Path
    rel: str
    data: dict[str, Any] = field(default_factory=dict)
    # (grader, its file, its line)
    graders: list[tuple[dict[str, Any], str, int | None]] = field(default_factory=list)
    lines: dict[str, tuple[str, int | None]] = field(default_factory=dict)


def load_suite(evals: Path, rel_of: Callable[[Path], str], skill: str) -> Dataset | None:
    """The host suite under a skill's `evals/` folder as one Dataset, or None when there is none.
    `rel_of` turns a path into the root-relative one every finding names."""
    folders = case_folders(evals)
    if not folders:
        return None
    dataset = Dataset(rel=rel_of(evals), skill=skill)
    if (evals / "mocks").is_dir():
        dataset.problems.append(findings.warning(NOT_RUN_RULE, rel_of(evals / "mocks"), f"{MOCKS_REASON}."))
    for folder in folders:
        host = read_case(folder, rel_of, dataset.problems)
        if host is not None:
            dataset.cases += to_cases(host, skill, dataset.problems)
    return dataset


def read_case(
    folder: Path, rel_of: Callable[[Path], str], problems: list[findings.Finding]
) -> HostCase | None:
    """Merge case.yaml and prompt.md + graders/*.md as the CLI does: prose wins, graders concatenate."""
    host = HostCase(folder=folder, rel=rel_of(folder))
    before = len(problems)
    yaml_file = folder / CASE_FILE
    if present(yaml_file):
        _read_yaml_case(yaml_file, rel_of(yaml_file), host, problems)
    prompt_file = folder / PROMPT_FILE
    if present(prompt_file):
        _read_prose_case(prompt_file, rel_of(prompt_file), host, problems)
    for grader in sorted((folder / GRADERS_DIR).glob("*.md")) if (folder / GRADERS_DIR).is_dir() else []:
        _read_grader_file(grader, rel_of(grader), host, problems)
    _validate(host, problems)
    failed = any(f.severity == findings.ERROR for f in problems[before:])
    return None if failed else host  # a case the CLI would refuse is not run: errors are never graded


def _read_yaml_case(path: Path, rel: str, host: HostCase, problems: list[findings.Finding]) -> None:
    from harness import yamlsafe  # PyYAML only where a plugin suite is read

    try:
        text = read_text(path)
        data = yamlsafe.load(text, rel).data
    except UnreadableFile as exc:
        problems.append(findings.error(SCHEMA_RULE, rel, f"cannot be read: {exc.reason}."))
        return
    except yamlsafe.YamlProblem as exc:
        problems.append(findings.error(SCHEMA_RULE, rel, f"is not valid YAML: {exc.message}.", exc.line))
        return
    if not isinstance(data, dict):
        problems.append(findings.error(SCHEMA_RULE, rel, "must be a YAML mapping of case fields.", 1))
        return
    lines = nested_lines(text)
    host.lines.setdefault("", (rel, 1))
    for key, line in lines.items():
        host.lines[key] = (rel, line)
    host.data.update(data)
    graders = data.get("graders")
    for index, grader in enumerate(graders if isinstance(graders, list) else []):
        host.graders.append((grader, rel, lines.get(f"graders.{index}")))
    if "graders" in data and not isinstance(graders, list):
        problems.append(_schema(host, "graders", "`graders` must be a list of graders."))


def _read_prose_case(path: Path, rel: str, host: HostCase, problems: list[findings.Finding]) -> None:
    parsed = _frontmatter(path, rel, problems)
    if parsed is None:
        return
    meta, body, lines = parsed
    host.lines.setdefault("", (rel, 1))
    execution = dict(host.data.get("execution") or {}) if isinstance(host.data.get("execution"), dict) else {}
    for key, value in meta.items():
        line = lines.get(key)
        if key not in PROSE_KEYS:
            allowed = ", ".join(sorted(PROSE_KEYS))
            problems.append(
                findings.error(
                    SCHEMA_RULE, rel, f"has unknown frontmatter key `{key}`; allowed: {allowed}.", line
                )
            )
        elif key in EXECUTION_KEYS:
            execution[key] = value
            host.lines[f"execution.{key}"] = (rel, line)
        else:
            host.data[key] = value
            host.lines[key] = (rel, line)
    host.data.setdefault("schema_version", "1.1")
    if body.strip():
        execution["prompt"] = body.strip()
        host.lines["execution.prompt"] = (rel, lines.get("", None))
    host.data["execution"] = execution


def _read_grader_file(path: Path, rel: str, host: HostCase, problems: list[findings.Finding]) -> None:
    parsed = _frontmatter(path, rel, problems, required=False)
    if parsed is None:
        # The CLI skips a grader file without frontmatter silently; we say so.
        problems.append(
            findings.warning(
                NOT_RUN_RULE,
                rel,
                "has no frontmatter, so it is no grader; open it with `---` and `type:`.",
                1,
            )
        )
        return
    meta, body, _ = parsed
    grader = {"name": path.stem, **meta}
    kind = meta.get("type")
    if body.strip() and kind in ("llm", "baseline"):
        grader.setdefault("criteria", body.strip())
    elif body.strip() and kind == "regex":
        grader.setdefault("pattern", body.strip())
    host.graders.append((grader, rel, 1))


def _frontmatter(
    path: Path, rel: str, problems: list[findings.Finding], required: bool = True
) -> tuple[dict[str, Any], str, dict[str, int]] | None:
    """(frontmatter, body, key lines) of a markdown file; None when it has none or cannot be read
    (a finding says why, except for a missing frontmatter that is not `required`)."""
    try:
        text = read_text(path)
    except UnreadableFile as exc:
        problems.append(findings.error(SCHEMA_RULE, rel, f"cannot be read: {exc.reason}."))
        return None
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return ({}, text, {"": 1}) if required else None
    from harness import yamlsafe

    end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    if end is None:
        problems.append(findings.error(SCHEMA_RULE, rel, "opens a `---` frontmatter it never closes.", 1))
        return None
    try:
        meta = yamlsafe.load("\n".join(lines[1:end]), rel)
    except yamlsafe.YamlProblem as exc:
        line = exc.line + 1 if exc.line else 1
        problems.append(
            findings.error(SCHEMA_RULE, rel, f"has a frontmatter that is not YAML: {exc.message}.", line)
        )
        return None
    data = meta.data if isinstance(meta.data, dict) else {}
    key_lines = {key: line + 1 for key, line in meta.key_lines.items()}
    key_lines[""] = end + 2
    return data, "\n".join(lines[end + 1 :]), key_lines


def nested_lines(text: str) -> dict[str, int]:
    """1-based line of every key and list item by dotted path (`execution.prompt`, `graders.2`),
    from PyYAML's marks. Called after yamlsafe accepted the text, so it holds no alias."""
    import yaml  # a plugin suite's case files only: a behavioral run's graders need no YAML parser

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return {}
    lines: dict[str, int] = {}

    def walk(node: yaml.Node, prefix: str) -> None:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                path = f"{prefix}{key.value}"
                lines[path] = key.start_mark.line + 1
                walk(value, path + ".")
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                path = f"{prefix}{index}"
                lines[path] = item.start_mark.line + 1
                walk(item, path + ".")

    if root is not None:
        walk(root, "")
    return lines


def _schema(host: HostCase, key: str, message: str) -> findings.Finding:
    rel, line = host.lines.get(key) or host.lines.get("", (host.rel, None))  # else the case file's top
    return findings.error(SCHEMA_RULE, rel, message, line)


def _validate(host: HostCase, problems: list[findings.Finding]) -> None:
    """The CLI's own rules: a supported schema_version, a name, a prompt, graders with unique names
    and only their type's keys."""
    data = host.data
    if not data and not host.graders:
        problems.append(
            findings.error(
                SCHEMA_RULE, host.rel, "holds no case: case.yaml and prompt.md are empty; fill one in."
            )
        )
        return
    version = data.get("schema_version")
    if not isinstance(version, str) or not re.fullmatch(r"\d+(\.\d+)*", version.strip()):
        problems.append(
            _schema(host, "schema_version", '`schema_version` must be a version string such as "1.0".')
        )
    elif int(version.split(".")[0]) > SUPPORTED_MAJOR:
        problems.append(
            _schema(
                host,
                "schema_version",
                f"`schema_version` {version} is newer than {SUPPORTED_MAJOR}.x, the "
                "newest this reader knows; write 1.x or update skillscope.",
            )
        )
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append(_schema(host, "name", "needs a non-empty `name`; add one."))
    execution = data.get("execution")
    prompt = execution.get("prompt") if isinstance(execution, dict) else None
    if not isinstance(prompt, str) or not prompt.strip():
        problems.append(
            _schema(host, "execution", "needs `execution.prompt` (or a prompt.md body); add the prompt.")
        )
    runs = data.get("runs")
    if runs is not None and not (type(runs) is int and 1 <= runs <= 50):
        problems.append(_schema(host, "runs", f"`runs` is {runs!r}; use a whole number from 1 to 50."))
    if not host.graders:
        problems.append(_schema(host, "graders", "has no grader; add at least one under `graders`."))
    seen: set[str] = set()
    for grader, rel, line in host.graders:
        for message in grader_problems(grader):
            problems.append(findings.error(SCHEMA_RULE, rel, message, line))
        gname = grader.get("name") if isinstance(grader, dict) else None
        if isinstance(gname, str):
            if gname in seen:
                problems.append(
                    findings.error(
                        SCHEMA_RULE, rel, f"has a second grader named `{gname}`; rename one.", line
                    )
                )
            seen.add(gname)


def grader_problems(grader: object) -> list[str]:
    """What is wrong with one grader, each a sentence with its fix (strict keys, as the CLI is)."""
    if not isinstance(grader, dict):
        return ["has a grader that is not a mapping; give it `name`, `type` and its fields."]
    label = f"grader `{grader.get('name')}`"
    if not isinstance(grader.get("name"), str) or not grader["name"].strip():
        return ["has a grader without a `name`; name it."]
    kind = grader.get("type")
    if kind not in GRADER_KEYS:
        return [f"{label} has type {kind!r}; use one of {', '.join(sorted(GRADER_KEYS))}."]
    allowed = COMMON_GRADER_KEYS | GRADER_KEYS[kind]
    out = []
    extra = sorted(str(k) for k in grader if k not in allowed)
    if extra:
        out.append(
            f"{label} has unknown key(s) {', '.join(f'`{k}`' for k in extra)}; a {kind} grader takes "
            f"{', '.join(sorted(allowed))}."
        )
    weight = grader.get("weight", 1)
    if isinstance(weight, bool) or not isinstance(weight, (int, float)) or weight <= 0:
        out.append(f"{label} has weight {weight!r}; use a positive number.")
    if grader.get("arm") not in (None, "with-only", "both"):
        out.append(f"{label} has arm {grader.get('arm')!r}; use with-only or both.")
    required = {"regex": "pattern", "tool_order": "before", "tool_used": "tool", "file_exists": "path"}
    required |= {"llm": "criteria", "baseline": "criteria"}
    needed = required[kind]
    if not isinstance(grader.get(needed), str) and not (
        kind == "tool_order" and isinstance(grader.get(needed), dict)
    ):
        out.append(f"{label} needs `{needed}`; add it.")
    if kind == "tool_order" and "after" not in grader:
        out.append(f"{label} needs `after`; add it.")
    if kind == "regex":
        match = grader.get("match", "contains")
        if not (match in ("contains", "not_contains") or (isinstance(match, str) and COUNT.fullmatch(match))):
            out.append(f"{label} has match {match!r}; use contains, not_contains or count:N.")
    out += [f"{label} {problem}" for problem in _pattern_problems(grader)]
    for bound in ("min", "max"):
        value = grader.get(bound)
        if kind == "tool_used" and value is not None and not (type(value) is int and value >= 0):
            out.append(f"{label} has {bound} {value!r}; use a whole number 0 or more.")
    return out


def _pattern_problems(grader: dict[str, Any]) -> list[str]:
    """Patterns Python's re cannot compile: found when the suite is read, never mid-run."""
    found = [("pattern", grader.get("pattern")), ("input_match", grader.get("input_match"))]
    found += [
        (f"{side}.input_match", grader[side].get("input_match"))
        for side in ("before", "after")
        if isinstance(grader.get(side), dict)
    ]
    out = []
    for key, pattern in found:
        if pattern is None:
            continue
        try:
            re.compile(str(pattern))
        except re.error as exc:
            out.append(
                f"has `{key}` {str(pattern)[:60]!r}, which Python's re cannot read ({exc}); "
                "write it in the syntax both share, e.g. `(?P<name>...)` for a named group."
            )
    return out


def python_flags(flags: object) -> tuple[int, str | None]:
    """JavaScript regex flags as Python's, and the flags Python cannot honour (None when all can)."""
    text = flags if isinstance(flags, str) else ""
    value, unsupported = 0, ""
    for flag in text:
        if flag in JS_FLAGS:
            value |= JS_FLAGS[flag]
        else:
            unsupported += flag
    return value, unsupported or None


def to_cases(host: HostCase, skill: str, problems: list[findings.Finding]) -> list[Case]:
    """One case folder as our Case: a `tool_used: Skill` grader decides routing, `file_exists` and
    `llm` become our scorers and judged statements, regex/tool graders are scored by us too."""
    data, execution = host.data, host.data.get("execution") or {}
    rel, line = host.lines.get("name", (host.rel, None))
    case = Case(
        id=str(data["name"]).strip(),
        prompt=str(execution["prompt"]).strip(),
        should_trigger=True,
        skill=skill,
        source=rel,
        line=line,
        note=data.get("description") if isinstance(data.get("description"), str) else None,
    )
    case.runs = data.get("runs") if type(data.get("runs")) is int else None
    _report_not_honoured(host, problems)
    for grader, grel, gline in host.graders:
        _map_grader(case, grader, skill, grel, gline, problems)
    return [case]


def _report_not_honoured(host: HostCase, problems: list[findings.Finding]) -> None:
    for dotted, reason in NOT_HONOURED.items():
        head, _, tail = dotted.partition(".")
        holder = host.data.get(head) if tail else host.data
        if isinstance(holder, dict) and (tail or head) in holder:
            rel, line = host.lines.get(dotted, (host.rel, None))
            problems.append(findings.warning(NOT_RUN_RULE, rel, f"`{dotted}` is NOT RUN: {reason}.", line))


def _map_grader(
    case: Case,
    grader: dict[str, Any],
    skill: str,
    rel: str,
    line: int | None,
    problems: list[findings.Finding],
) -> None:
    kind, name = grader["type"], grader["name"]
    weight = float(grader.get("weight", 1))
    if kind == "baseline":
        problems.append(
            findings.warning(
                NOT_RUN_RULE,
                rel,
                f"grader `{name}` (baseline) is NOT RUN: comparing with a recorded Claude "
                "trajectory has no counterpart yet.",
                line,
            )
        )
        return
    target = grader.get("target", grader.get("focus", "last_message"))
    if target == "mock_calls" or isinstance(target, dict):
        problems.append(
            findings.warning(
                NOT_RUN_RULE,
                rel,
                f"grader `{name}` is NOT RUN: its target {target!r} (mock calls or a named file) "
                "is not read yet.",
                line,
            )
        )
        return
    if kind == "tool_used" and grader["tool"] == SKILL_TOOL:
        case.should_trigger = grader.get("max") != 0
        named = grader.get("input_match")
        if isinstance(named, str) and not re.search(named, skill) and not re.search(named, f"plugin:{skill}"):
            problems.append(
                findings.warning(
                    NOT_RUN_RULE,
                    rel,
                    f"grader `{name}` matches skill {named!r}, not `{skill}` whose folder holds "
                    f"the suite; routing grades this case against `{skill}`.",
                    line,
                )
            )
        return
    if kind == "file_exists":
        if grader.get("exists", True) is False:
            problems.append(
                findings.warning(
                    NOT_RUN_RULE,
                    rel,
                    f"grader `{name}` (file_exists with exists: false) is NOT RUN: only present "
                    "files are checked.",
                    line,
                )
            )
            return
        host_graders(case).append(Grader(name, kind, weight, dict(grader), rel, line))  # a glob: ours
        return
    if kind == "llm":
        case.expected_behavior.append(grader["criteria"].strip())
        host_graders(case).append(Grader(name, kind, weight, dict(grader), rel, line))  # for its weight
        return
    if kind == "regex":
        _, unsupported = python_flags(grader.get("flags"))
        if unsupported:
            problems.append(
                findings.warning(
                    NOT_RUN_RULE,
                    rel,
                    f"grader `{name}` is NOT RUN: regex flag(s) `{unsupported}` have no Python "
                    "counterpart; drop them (i, m, s are honoured).",
                    line,
                )
            )
            return
        if target not in REGEX_TARGETS:
            problems.append(
                findings.error(
                    SCHEMA_RULE,
                    rel,
                    f"grader `{name}` has target {target!r}; use last_message, trace or files.",
                    line,
                )
            )
            return
    host_graders(case).append(Grader(name, kind, weight, dict(grader), rel, line))


def host_graders(case: Case) -> list[Grader]:
    """The free graders read from a host suite that our behavioral run scores."""
    return case.graders
