"""The CI plan for a change: whether routing runs, and which behavioral legs run on which runners.

Three steps, each testable alone: a `Selection` (which skills a change touches, whether it can move a
routing decision), the `SkillFacts` of those skills (behavioral cases, version pin, machine.yml), and
`build`, which turns both into a `Plan` under the repo's runner policy (`PlanOptions`).
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from harness import __version__, dataset, machine
from harness.errors import HarnessError, UsageError
from harness.files import MAX_TEXT_BYTES, UnreadableFile, read_bytes, read_text
from harness.machine import MachinePlan
from harness.repo import Repo
from harness.room import name_list

DEFAULT_RUNNER = ("ubuntu-latest",)
DEFAULT_OS = ("Linux",)
DEFAULT_TYPE = "default"  # the kind of machine a skill without runner_type gets, unless --runner-types says
RUNNER_TYPE_KEYS = ("labels", "os", "gate", "environment")
# A skill's files that decide routing: what the agent matches a prompt against, and the prompts.
ROUTING_INPUTS = ("SKILL.md", f"evals/{dataset.EVALS}")
EXTENDED_ROUTING_INPUT = f"evals/{dataset.EXTENDED}"


# --- the repo's runner policy ---------------------------------------------------------------------------

@dataclass(frozen=True)
class RunnerType:
    """A kind of machine the repo defines (`--runner-types`); a skill's machine.yml names it."""

    name: str
    labels: tuple[str, ...] = ()  # the leg's complete runs-on labels (empty: --behavior-runner)
    os: tuple[str, ...] = ()  # its platforms (empty: --behavior-os, and any skill `os` is allowed)
    gate: str | None = None
    environment: str | None = None


@dataclass(frozen=True)
class PlanOptions:
    extended: bool = True
    version: str = __version__
    infra_paths: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    ignore_gates: bool = False
    behavior_runner: tuple[str, ...] = DEFAULT_RUNNER
    behavior_os: tuple[str, ...] = DEFAULT_OS
    scoped_runner: tuple[str, ...] = ()  # empty: reuse behavior_runner
    scoped_gate: str | None = None
    scoped_environment: str | None = None
    runner_types: Mapping[str, RunnerType] = field(default_factory=dict)


def parse_runner_types(text: str | None, flag: str = "--runner-types") -> dict[str, RunnerType]:
    """`{"name": {"labels": [...], "os": [...], "gate": "...", "environment": "..."}}`; blank means none."""
    if text is None or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{flag}: invalid JSON ({exc.msg}, column {exc.colno}); pass an object mapping "
                         'each type to its runner, such as {"gpu": {"labels": ["self-hosted", "gpu"]}}.'
                         ) from None
    if not isinstance(data, dict):
        raise UsageError(f"{flag}: expected a JSON object mapping type names to runners, got "
                         f"{type(data).__name__}.")
    return {name: _parse_type(flag, name, spec) for name, spec in data.items()}


def _parse_type(flag: str, name: str, spec: object) -> RunnerType:
    where = f"{flag}: type '{name}'"
    if not name.strip():
        raise UsageError(f"{flag}: a type name must be a non-empty string.")
    if not isinstance(spec, dict):
        raise UsageError(f"{where} must be an object with any of {', '.join(RUNNER_TYPE_KEYS)}.")
    extra = sorted(set(spec) - set(RUNNER_TYPE_KEYS))
    if extra:
        raise UsageError(f"{where} has unknown key(s) {', '.join(extra)}; a runner type holds only "
                         f"{', '.join(RUNNER_TYPE_KEYS)}.")
    lists = {}
    examples = {"labels": '["self-hosted", "gpu"]', "os": '["Linux"]'}
    for key in ("labels", "os"):
        value = spec.get(key)
        if value is None:
            lists[key] = ()
            continue
        if not (isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value)):
            raise UsageError(f"{where}: `{key}` must be a non-empty list of non-empty strings, such as "
                             f"{examples[key]}.")
        lists[key] = tuple(v.strip() for v in value)
    strings = {}
    for key in ("gate", "environment"):
        value = spec.get(key)
        if value is not None and not (isinstance(value, str) and value.strip()):
            raise UsageError(f"{where}: `{key}` must be a non-empty string or left out.")
        strings[key] = value.strip() if value else None
    return RunnerType(name=name, **lists, **strings)


# --- which skills a change selects ----------------------------------------------------------------------

@dataclass(frozen=True)
class Selection:
    skills: list[str]  # in plan order
    routing: bool  # the change can move a routing decision and the room is non-empty
    unknown: list[str] = field(default_factory=list)  # changed paths under skills that no longer exist


def normalise_paths(lines: Iterable[str]) -> list[str]:
    """Changed paths as git prints them, whatever the shell did to them: posix separators, no blanks."""
    paths = []
    for line in lines:
        path = line.strip().replace("\\", "/")
        while path.startswith("./"):
            path = path[2:]
        if path:
            paths.append(path)
    return list(dict.fromkeys(paths))


class Ownership:
    """Which skill owns a root-relative path: the skill whose directory prefixes it (the deepest one)."""

    def __init__(self, repo: Repo):
        self._root = repo.root
        self._dirs = {_relative(repo, path): name for name, path in repo.skill_dirs.items()}
        self._root_skill = self._dirs.pop(".", None)
        # Look up only the prefix lengths a skill directory has, deepest first: a dict hit per length
        # keeps a 10,000-path change linear instead of scanning every skill for every path.
        self._depths = sorted({rel.count("/") + 1 for rel in self._dirs}, reverse=True)
        segments = (tuple(part for part in glob.split("/") if part not in ("", ".")) for glob in repo.globs)
        self._globs = [glob for glob in segments if glob]
        self._gone: dict[str, bool] = {}

    def owner(self, path: str) -> tuple[str | None, str]:
        """(skill, path relative to the skill's directory), or (None, path) when no skill owns it."""
        parts = path.split("/")
        for depth in self._depths:
            if len(parts) >= depth:
                name = self._dirs.get("/".join(parts[:depth]))
                if name is not None:
                    return name, "/".join(parts[depth:])
        return self._root_skill, path

    def under_deleted_skill(self, path: str) -> bool:
        """True when `path` lies in a directory the skill globs name that holds no skill any more.

        That is a directory that is gone, or one whose SKILL.md this very change touched; a directory
        that never had a SKILL.md is not a skill and is passed over, as everywhere else.
        """
        parts = path.split("/")
        for glob in self._globs:
            if len(parts) <= len(glob) or not _segments_match(parts[: len(glob)], glob):
                continue
            folder = "/".join(parts[: len(glob)])
            if parts[len(glob) - 1].startswith("."):
                continue
            if folder not in self._gone:
                self._gone[folder] = not (self._root / folder).is_dir()
            if self._gone[folder] or parts[len(glob):] == ["SKILL.md"]:
                return True
        return False


def _segments_match(parts: Sequence[str], glob: Sequence[str]) -> bool:
    return all(fnmatch.fnmatchcase(part, pattern) for part, pattern in zip(parts, glob, strict=True))


class InfraPaths:
    """--infra-paths: fnmatch globs over root-relative paths; a glob naming a directory covers its files."""

    def __init__(self, patterns: Iterable[str]):
        cleaned = [p.strip().replace("\\", "/").removeprefix("./").rstrip("/") for p in patterns]
        cleaned = [p for p in cleaned if p]
        self._regex = re.compile("|".join(fnmatch.translate(p) for p in cleaned)) if cleaned else None

    def touched(self, path: str) -> bool:
        if self._regex is None:
            return False
        candidate = path
        while True:
            if self._regex.match(candidate):
                return True
            cut = candidate.rfind("/")
            if cut <= 0:
                return False
            candidate = candidate[:cut]


def select_changed(paths: Sequence[str], repo: Repo, room: Sequence[str], options: PlanOptions) -> Selection:
    """The owners of the changed paths, or every skill with a dataset when an infra path changed.

    Routing runs only when a room member's SKILL.md or dataset changed (or infra did): a reference file
    or a script changes what the skill does once it fires, not whether it fires.
    """
    ownership, infra = Ownership(repo), InfraPaths(options.infra_paths)
    room_members = set(room)
    routing_inputs = set(ROUTING_INPUTS) | ({EXTENDED_ROUTING_INPUT} if options.extended else set())
    owners: dict[str, None] = {}
    unknown: list[str] = []
    infra_touched = routing_touched = False
    for path in paths:
        infra_touched = infra_touched or infra.touched(path)
        name, inner = ownership.owner(path)
        if name is None:
            if ownership.under_deleted_skill(path):
                unknown.append(path)
            continue
        owners[name] = None
        routing_touched = routing_touched or (name in room_members and inner in routing_inputs)
    if infra_touched:
        return Selection(skills=repo.with_dataset(), routing=bool(room), unknown=sorted(unknown))
    return Selection(skills=sorted(owners), routing=bool(room) and routing_touched, unknown=sorted(unknown))


def select_all(repo: Repo, room: Sequence[str]) -> Selection:
    return Selection(skills=repo.with_dataset(), routing=bool(room))


def select_names(names: Sequence[str], repo: Repo, room: Sequence[str], flag: str = "--names") -> Selection:
    """The named skills in listed order; a name that is not a skill with a dataset is an error."""
    with_dataset = set(repo.with_dataset())
    missing = [name for name in dict.fromkeys(names) if name not in with_dataset]
    if missing:
        absent = [name for name in missing if name not in repo.skill_dirs]
        bare = [name for name in missing if name in repo.skill_dirs]
        parts = []
        if absent:
            parts.append(f"no skill named {', '.join(absent)} under --skills-dir {','.join(repo.globs)}")
        if bare:
            parts.append(f"no eval dataset for {', '.join(bare)} (expected <skill>/evals/{dataset.EVALS})")
        raise UsageError(f"{flag}: {'; '.join(parts)}; skills with a dataset here: "
                         f"{name_list(repo.with_dataset())}.")
    return Selection(skills=list(dict.fromkeys(names)), routing=bool(room))


# --- what the plan needs to know of each selected skill --------------------------------------------------

@dataclass(frozen=True)
class SkillFacts:
    name: str
    has_behavior: bool  # some case asserts something beyond routing (extended cases count when on)
    version_pin: str | None  # skillscope_version in evals.json
    machine: MachinePlan
    machine_rel: str


def load_facts(repo: Repo, names: Iterable[str], extended: bool) -> dict[str, SkillFacts]:
    """Read just what legs depend on; `structural` is the one that validates datasets in full."""
    wanted = (dataset.EVALS, dataset.EXTENDED) if extended else (dataset.EVALS,)
    machines = MachineCache()
    facts = {}
    for name in names:
        folder = repo.skill_dirs[name]
        evals = folder / "evals"
        rel = f"{_relative(repo, folder)}/evals"
        present = _listing(evals)  # one directory read instead of a stat per file a skill may have
        has_behavior, pin = False, None
        for filename in wanted:
            if filename in present:
                behavior, version = _read_dataset(evals / filename, f"{rel}/{filename}")
                has_behavior = has_behavior or behavior
                pin = version if filename == dataset.EVALS else pin
        machine_rel = f"{rel}/{machine.FILENAME}"
        # A skill with no leg needs no machine, so its machine.yml cannot stop the plan.
        plan = (machines.load(evals / machine.FILENAME, machine_rel)
                if has_behavior and machine.FILENAME in present else MachinePlan())
        facts[name] = SkillFacts(name=name, has_behavior=has_behavior, version_pin=pin, machine=plan,
                                 machine_rel=machine_rel)
    return facts


class MachineCache:
    """machine.yml plans by content: catalogs repeat a few files (`os: [Linux]`) across many skills, and
    parsing plus schema validation is the costliest step of a plan. Only clean plans are shared, because a
    plan's findings name its own file."""

    def __init__(self) -> None:
        self._plans: dict[bytes, MachinePlan] = {}

    def load(self, path: Path, rel: str) -> MachinePlan:
        try:
            content = read_bytes(path, MAX_TEXT_BYTES)
        except UnreadableFile:
            return machine.load(path, rel)  # machine.load words the failure
        known = self._plans.get(content)
        if known is not None:
            return known
        plan = machine.load(path, rel)
        if not plan.problems:
            self._plans[content] = plan
        return plan


def _relative(repo: Repo, folder: Path) -> str:
    # Plain string slicing: pathlib's relative_to costs more than the rest of a skill's planning.
    text, root = str(folder), str(repo.root)
    if text.startswith(root + os.sep):
        return text[len(root) + 1:].replace(os.sep, "/")
    return repo.rel(folder)


def _listing(folder: Path) -> set[str]:
    try:
        return set(os.listdir(folder))
    except OSError:
        return set()


def _read_dataset(path: Path, rel: str) -> tuple[bool, str | None]:
    """(has a behavioral case, skillscope_version); no schema validation, which 1,000 skills can't afford."""
    try:
        data = json.loads(read_text(path))
    except UnreadableFile as exc:
        raise HarnessError(f"{rel} cannot be read: {exc.reason}.") from None
    except json.JSONDecodeError as exc:
        raise HarnessError(f"{rel}:{exc.lineno} is not valid JSON ({exc.msg}); fix it, then plan again "
                           "(`skillscope structural` checks every dataset).") from None
    except (ValueError, RecursionError):
        raise HarnessError(f"{rel} is not a valid dataset; `skillscope structural` says why.") from None
    if not isinstance(data, dict):
        raise HarnessError(f"{rel} must be a JSON object holding `evaluations`; `skillscope structural` "
                           "says why.")
    cases = data.get("evaluations")
    behavior = isinstance(cases, list) and any(_asserts_behavior(case) for case in cases)
    pin = data.get("skillscope_version")
    return behavior, pin.strip() if isinstance(pin, str) and pin.strip() else None


def _asserts_behavior(case: object) -> bool:
    # The same test as Case.has_behavior: some expectation list holds a string.
    return isinstance(case, dict) and any(
        isinstance(case.get(key), list) and any(isinstance(v, str) for v in case[key])
        for key in dataset.EXPECTATION_KEYS)


# --- legs and the plan ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Leg:
    skill: str
    os: str
    runner: str  # a JSON-encoded list of runs-on labels, ready for fromJSON
    gate: str | None
    version: str
    environment: str | None = None

    def to_dict(self) -> dict:
        data = {"skill": self.skill, "os": self.os, "runner": self.runner, "gate": self.gate,
                "version": self.version}
        if self.environment is not None:
            data["environment"] = self.environment
        return data


@dataclass(frozen=True)
class Skipped:
    skill: str
    os: str
    gate: str

    def to_dict(self) -> dict:
        return {"skill": self.skill, "os": self.os, "gate": self.gate}


@dataclass
class Plan:
    routing: bool
    extended: bool
    version: str
    default: list[Leg] = field(default_factory=list)  # legs without an environment: one matrix
    scoped: list[Leg] = field(default_factory=list)  # legs with one: a job whose credentials differ
    skipped: list[Skipped] = field(default_factory=list)
    gates: list[str] = field(default_factory=list)
    no_behavior: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"routing": self.routing, "extended": self.extended, "version": self.version,
                "default": [leg.to_dict() for leg in self.default],
                "scoped": [leg.to_dict() for leg in self.scoped],
                "skipped": [skip.to_dict() for skip in self.skipped],
                "gates": list(self.gates), "no_behavior": list(self.no_behavior),
                "unknown": list(self.unknown)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))


def legs_for(facts: SkillFacts, options: PlanOptions) -> list[Leg]:
    """One leg per platform, on the runner the skill's machine.yml asks for under the repo's policy."""
    plan = facts.machine
    if plan.problems:
        first = plan.problems[0]
        more = f" (and {len(plan.problems) - 1} more)" if len(plan.problems) > 1 else ""
        raise HarnessError(f"{first.location}: {first.message.rstrip('.')}{more}; fix the machine.yml "
                           "before planning (`skillscope structural` lists every problem).")
    kind = _named_type(facts, options)
    if kind is None and not plan.labels:
        kind = options.runner_types.get(DEFAULT_TYPE)
    if kind is not None:
        base, platforms = kind.labels or options.behavior_runner, _platforms(facts, kind, options)
        gate, environment = kind.gate, kind.environment
    elif plan.labels:
        base, platforms = options.scoped_runner or options.behavior_runner, plan.os or options.behavior_os
        gate, environment = options.scoped_gate, options.scoped_environment
    else:
        base, platforms = options.behavior_runner, plan.os or options.behavior_os
        gate, environment = None, None
    version = facts.version_pin or options.version
    return [Leg(skill=facts.name, os=os_name, gate=gate, version=version, environment=environment,
                runner=json.dumps(unique([*base, *plan.labels, os_name]), separators=(",", ":")))
            for os_name in unique(platforms)]


def _named_type(facts: SkillFacts, options: PlanOptions) -> RunnerType | None:
    """The type machine.yml names; `default` needs no definition (it means the everyday runners)."""
    name = facts.machine.runner_type
    if name is None or (name == DEFAULT_TYPE and name not in options.runner_types):
        return None
    kind = options.runner_types.get(name)
    if kind is None:
        defined = ", ".join(sorted(options.runner_types)) or "none"
        raise HarnessError(f"{facts.machine_rel} names runner_type '{name}', which --runner-types does not "
                           f"define (defined: {defined}); fix the name or add the type to --runner-types.")
    return kind


def _platforms(facts: SkillFacts, kind: RunnerType, options: PlanOptions) -> list[str]:
    asked = facts.machine.os
    if not kind.os:
        return list(asked or options.behavior_os)
    if not asked:
        return list(kind.os)
    offered = {os_name.lower(): os_name for os_name in kind.os}
    outside = [os_name for os_name in asked if os_name.lower() not in offered]
    if outside:
        raise HarnessError(f"{facts.machine_rel} asks for os {', '.join(outside)}, but runner_type "
                           f"'{kind.name}' runs only on {', '.join(kind.os)}; narrow `os` to those platforms "
                           "or pick another runner_type.")
    return [offered[os_name.lower()] for os_name in asked]


def unique(labels: Iterable[str]) -> list[str]:
    """Runs-on labels without repeats, first spelling and order kept (GitHub labels ignore case)."""
    seen: dict[str, str] = {}
    for label in labels:
        seen.setdefault(label.lower(), label)
    return list(seen.values())


def build(selection: Selection, facts: Mapping[str, SkillFacts], options: PlanOptions) -> Plan:
    plan = Plan(routing=selection.routing, extended=options.extended, version=options.version,
                unknown=list(selection.unknown))
    granted = {label.lower() for label in options.labels}
    for name in selection.skills:
        skill = facts[name]
        if not skill.has_behavior:
            plan.no_behavior.append(name)
            continue
        for leg in legs_for(skill, options):
            if leg.gate and not options.ignore_gates and leg.gate.lower() not in granted:
                plan.skipped.append(Skipped(skill=name, os=leg.os, gate=leg.gate))
            elif leg.environment is not None:
                plan.scoped.append(leg)
            else:
                plan.default.append(leg)
    plan.gates = sorted({skip.gate for skip in plan.skipped})
    return plan


def make_plan(selection: Selection, repo: Repo, options: PlanOptions) -> Plan:
    return build(selection, load_facts(repo, selection.skills, options.extended), options)
