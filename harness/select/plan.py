"""The CI plan for a change: whether routing runs, and which behavioral legs run on which runners.

Three steps, each testable alone: a `Selection` (which skills a change touches, whether it can move a
routing decision), the `SkillFacts` of those skills (behavioral cases, version pin, machine.yml), and
`build`, which turns both into a `Plan` under the repo's runner policy (`PlanOptions`).
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from harness.errors import HarnessError
from harness.model.machine import MachinePlan
from harness.model.repo import Repo
from harness.paid.legs import plan_legs
from harness.select.facts import SkillFacts, load_facts
from harness.select.policy import DEFAULT_TYPE, PlanOptions, RunnerType, runner_types_json
from harness.select.runners import runs_on, unique
from harness.select.selection import Selection


@dataclass(frozen=True)
class Leg:
    skill: str
    os: str
    runner: str  # a JSON-encoded list of runs-on labels, ready for fromJSON
    gate: str | None
    version: str
    environment: str | None = None
    agent: str = "claude"
    model: str | None = None  # None: the agent CLI's own

    def to_dict(self) -> dict:
        data = {
            "skill": self.skill,
            "os": self.os,
            "runner": self.runner,
            "gate": self.gate,
            "version": self.version,
            "agent": self.agent,
            "model": self.model,
            # The model as a name part (artifacts, caches, report files): blank for the CLI's own.
            "model_key": re.sub(r"[^A-Za-z0-9._-]+", "-", self.model or "").strip("-"),
        }
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
    agents: list[str] = field(default_factory=lambda: ["claude"])  # the routing job's --agent
    models: list[str] = field(default_factory=list)  # the routing job's --model entries (empty: none)
    default: list[Leg] = field(default_factory=list)  # legs without an environment: one matrix
    scoped: list[Leg] = field(default_factory=list)  # legs with one: a job whose credentials differ
    skipped: list[Skipped] = field(default_factory=list)
    gates: list[str] = field(default_factory=list)
    no_behavior: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "routing": self.routing,
            "extended": self.extended,
            "version": self.version,
            "agents": list(self.agents),
            "models": list(self.models),
            "model": ",".join(self.models),
            "default": [leg.to_dict() for leg in self.default],
            "scoped": [leg.to_dict() for leg in self.scoped],
            "skipped": [skip.to_dict() for skip in self.skipped],
            "gates": list(self.gates),
            "no_behavior": list(self.no_behavior),
            "unknown": list(self.unknown),
        }


def legs_for(facts: SkillFacts, options: PlanOptions) -> list[Leg]:
    """One leg per platform, on the runner the skill's machine.yml asks for under the repo's policy."""
    plan = facts.machine
    if plan.problems:
        first = plan.problems[0]
        more = f" (and {len(plan.problems) - 1} more)" if len(plan.problems) > 1 else ""
        raise HarnessError(
            f"{first.location}: {first.message.rstrip('.')}{more}; fix the machine.yml "
            "before planning (`skillscope structural` lists every problem)."
        )
    kind = _named_type(facts, options)
    if kind is None and not plan.labels:
        kind = options.runner_types.get(DEFAULT_TYPE)
    base: Sequence[str]  # tuples from the policy, or the lists of machine.yml
    platforms: Sequence[str]
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
    where = facts.machine_rel if plan != MachinePlan() else f"skill '{facts.name}'"
    return [
        Leg(
            skill=facts.name,
            os=os_name,
            gate=gate,
            version=version,
            environment=environment,
            runner=json.dumps(
                runs_on([*base, *plan.labels], os_name, options.hosted_images, where), separators=(",", ":")
            ),
            agent=leg.agent,
            model=leg.model,
        )
        for os_name in unique(platforms)
        for leg in plan_legs(plan.agents or options.agents, options.models)
    ]


def _named_type(facts: SkillFacts, options: PlanOptions) -> RunnerType | None:
    """The type machine.yml names; `default` needs no definition (it means the everyday runners)."""
    name = facts.machine.runner_type
    if name is None or (name == DEFAULT_TYPE and name not in options.runner_types):
        return None
    kind = options.runner_types.get(name)
    if kind is None:
        raise undefined_types({name: [facts.machine_rel]}, options)
    return kind


def check_types_defined(skills: Sequence[SkillFacts], options: PlanOptions) -> None:
    """Every runner type the planned skills' machine.yml files name, defined: else one error naming
    each file and the whole --runner-types value that defines them all."""
    named: dict[str, list[str]] = {}
    for facts in skills:
        name = facts.machine.runner_type
        if facts.machine.problems or name is None or name == DEFAULT_TYPE or name in options.runner_types:
            continue
        named.setdefault(name, []).append(facts.machine_rel)
    if named:
        raise undefined_types(named, options)


def undefined_types(named: Mapping[str, Sequence[str]], options: PlanOptions) -> HarnessError:
    """The error for runner types no --runner-types entry defines, with the exact value to pass: the
    types already defined plus a guess for each new one (self-hosted, labelled with its name)."""
    files = sorted({rel for rels in named.values() for rel in rels})
    types = ", ".join(f"'{name}'" for name in sorted(named))
    defined = ", ".join(sorted(options.runner_types)) or "none"
    guessed = {name: RunnerType(name, labels=("self-hosted", name)) for name in sorted(named)}
    value = runner_types_json({**options.runner_types, **guessed})
    return HarnessError(
        f"{', '.join(files)} name{'s' if len(files) == 1 else ''} runner_type {types}, which "
        f"--runner-types does not define (defined: {defined}); pass --runner-types {shlex.quote(value)} "
        "with your runners' labels, or set runner-types to that value in skillscope.toml "
        "(docs/commands/select.md#runner-types)."
    )


def _platforms(facts: SkillFacts, kind: RunnerType, options: PlanOptions) -> list[str]:
    asked = facts.machine.os
    if not kind.os:
        return list(asked or options.behavior_os)
    if not asked:
        return list(kind.os)
    offered = {os_name.lower(): os_name for os_name in kind.os}
    outside = [os_name for os_name in asked if os_name.lower() not in offered]
    if outside:
        raise HarnessError(
            f"{facts.machine_rel} asks for os {', '.join(outside)}, but runner_type "
            f"'{kind.name}' runs only on {', '.join(kind.os)}; narrow `os` to those platforms "
            "or pick another runner_type."
        )
    return [offered[os_name.lower()] for os_name in asked]


def build(selection: Selection, facts: Mapping[str, SkillFacts], options: PlanOptions) -> Plan:
    plan = Plan(
        routing=selection.routing,
        extended=options.extended,
        version=options.version,
        agents=list(options.agents),
        models=[f"{agent}={model}" if agent else model for agent, model in options.models],
        unknown=list(selection.unknown),
    )
    granted = {label.lower() for label in options.labels}
    check_types_defined([facts[name] for name in selection.skills if facts[name].has_behavior], options)
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
