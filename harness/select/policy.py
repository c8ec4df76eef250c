"""The repo's runner policy: machine kinds (--runner-types) and the plan's options."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from harness import __version__
from harness.errors import UsageError
from harness.flagjson import json_value
from harness.model import dataset, skill_creator_evals
from harness.select.runners import DEFAULT_IMAGES

DEFAULT_RUNNER = ("ubuntu-latest",)
DEFAULT_OS = ("Linux",)
DEFAULT_TYPE = "default"  # the kind of machine a skill without runner_type gets, unless --runner-types says
RUNNER_TYPE_KEYS = ("labels", "os", "gate", "environment")
# A skill's files that decide routing: what the agent matches a prompt against, and the prompts.
# A skill's files that routing reads (relative to its folder), and what an addyosmani case file at the
# root's evals/cases/<skill>.json is to its skill: a dataset, which routing reads too.
CASE_FILE = "case file"
ROUTING_INPUTS = ("SKILL.md", f"evals/{dataset.EVALS}", f"evals/{skill_creator_evals.TRIGGER_SET}", CASE_FILE)
EXTENDED_ROUTING_INPUT = f"evals/{dataset.EXTENDED}"


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
    # The repo's settings files (root-relative), infra paths whatever --infra-paths says: a new
    # min-accuracy, room or quarantine can turn any skill's verdict.
    settings_files: tuple[str, ...] = ()
    negatives: tuple[str, ...] = ()  # the repo's shared negatives files (--negatives), routing inputs
    labels: tuple[str, ...] = ()
    ignore_gates: bool = False
    behavior_runner: tuple[str, ...] = DEFAULT_RUNNER
    behavior_os: tuple[str, ...] = DEFAULT_OS
    scoped_runner: tuple[str, ...] = ()  # empty: reuse behavior_runner
    scoped_gate: str | None = None
    scoped_environment: str | None = None
    runner_types: Mapping[str, RunnerType] = field(default_factory=dict)
    agents: tuple[str, ...] = ("claude",)  # routing runs on each; a leg per agent unless machine.yml narrows
    # --models as (the agent it is for, or None for every agent; the model id): a leg per agent x model.
    models: tuple[tuple[str | None, str], ...] = ()
    hosted_images: Mapping[str, str] = field(
        default_factory=lambda: dict(DEFAULT_IMAGES)
    )  # platform -> image


def runner_types_json(types: Mapping[str, RunnerType]) -> str:
    """`--runner-types` as JSON again, on one line: what parse_runner_types reads back."""
    data: dict[str, dict] = {}
    for name, kind in types.items():
        spec: dict[str, object] = {}
        if kind.labels:
            spec["labels"] = list(kind.labels)
        if kind.os:
            spec["os"] = list(kind.os)
        for key in ("gate", "environment"):
            if getattr(kind, key):
                spec[key] = getattr(kind, key)
        data[name] = spec
    return json.dumps(data, separators=(", ", ": "))


def parse_runner_types(text: str | None, flag: str = "--runner-types") -> dict[str, RunnerType]:
    """`{"name": {"labels": [...], "os": [...], "gate": "...", "environment": "..."}}`; blank means none."""
    if text is None or not text.strip():
        return {}
    example = '{"gpu": {"labels": ["self-hosted", "gpu"]}}'
    data = json_value(flag, text, f"pass an object mapping each type to its runner, such as {example}.")
    if not isinstance(data, dict):
        raise UsageError(
            f"{flag}: expected a JSON object mapping type names to runners, got {type(data).__name__}."
        )
    return {name: _parse_type(flag, name, spec) for name, spec in data.items()}


def _parse_type(flag: str, name: str, spec: object) -> RunnerType:
    where = f"{flag}: type '{name}'"
    if not name.strip():
        raise UsageError(f"{flag}: a type name must be a non-empty string.")
    if not isinstance(spec, dict):
        raise UsageError(f"{where} must be an object with any of {', '.join(RUNNER_TYPE_KEYS)}.")
    extra = sorted(set(spec) - set(RUNNER_TYPE_KEYS))
    if extra:
        raise UsageError(
            f"{where} has unknown key(s) {', '.join(extra)}; a runner type holds only "
            f"{', '.join(RUNNER_TYPE_KEYS)}."
        )
    lists: dict[str, tuple[str, ...]] = {}
    examples = {"labels": '["self-hosted", "gpu"]', "os": '["Linux"]'}
    for key in ("labels", "os"):
        value = spec.get(key)
        if value is None:
            lists[key] = ()
            continue
        if not (isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value)):
            raise UsageError(
                f"{where}: `{key}` must be a non-empty list of non-empty strings, such as {examples[key]}."
            )
        lists[key] = tuple(v.strip() for v in value)
    strings: dict[str, str | None] = {}
    for key in ("gate", "environment"):
        value = spec.get(key)
        if value is not None and not (isinstance(value, str) and value.strip()):
            raise UsageError(f"{where}: `{key}` must be a non-empty string or left out.")
        strings[key] = value.strip() if value else None
    return RunnerType(
        name=name,
        labels=lists["labels"],
        os=lists["os"],
        gate=strings["gate"],
        environment=strings["environment"],
    )
