"""What the plan needs to know of each selected skill: behavioral cases, version pin, machine.yml."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from harness import jsonsafe
from harness.errors import HarnessError
from harness.files import MAX_TEXT_BYTES, UnreadableFile, read_bytes, read_text
from harness.model import dataset, machine
from harness.model.machine import MachinePlan
from harness.model.repo import Repo


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
        rel = f"{repo.rel(folder)}/evals"
        present = _listing(evals)  # one directory read instead of a stat per file a skill may have
        has_behavior, pin, foreign = False, None, dataset.EVALS not in present
        for filename in wanted:
            if filename in present:
                read = _read_dataset(evals / filename, f"{rel}/{filename}")
                if read is None:
                    foreign = True
                    continue
                has_behavior = has_behavior or read[0]
                pin = read[1] if filename == dataset.EVALS else pin
        if foreign and not has_behavior:
            has_behavior = _foreign_behavior(repo, name, extended)
        machine_rel = f"{rel}/{machine.FILENAME}"
        # A skill with no leg needs no machine, so its machine.yml cannot stop the plan.
        plan = (
            machines.load(evals / machine.FILENAME, machine_rel)
            if has_behavior and machine.FILENAME in present
            else MachinePlan()
        )
        facts[name] = SkillFacts(
            name=name, has_behavior=has_behavior, version_pin=pin, machine=plan, machine_rel=machine_rel
        )
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


def _listing(folder: Path) -> set[str]:
    try:
        return set(os.listdir(folder))
    except OSError:
        return set()


def _foreign_behavior(repo: Repo, name: str, extended: bool) -> bool:
    """Whether a skill whose cases are in another tool's files (skill-creator's evals shape, an
    addyosmani case file, a plugin eval suite) has a behavioral case, as `behavioral` reads them: by
    the same readers, so a plan never skips the legs that command would run."""
    from harness.model import catalog  # the readers only for a skill that needs them

    loaded = catalog.load(repo, [name], catalog.Negatives(builtin=False))
    return any(
        case.has_behavior
        for data in loaded.datasets.get(name, [])
        if extended or not data.extended
        for case in data.cases
    )


def _read_dataset(path: Path, rel: str) -> tuple[bool, str | None] | None:
    """(has a behavioral case, skillscope_version); no schema validation, which 1,000 skills can't afford.
    None for a file without our `evaluations` (skill-creator's shape, read by its own reader)."""
    try:
        data = jsonsafe.loads(read_text(path), rel)
    except UnreadableFile as exc:
        raise HarnessError(f"{rel} cannot be read: {exc.reason}.") from None
    except jsonsafe.JsonProblem as exc:
        raise HarnessError(
            f"{exc}; fix it, then plan again (`skillscope structural` checks every dataset)."
        ) from None
    except (ValueError, RecursionError):
        raise HarnessError(f"{rel} is not a valid dataset; `skillscope structural` says why.") from None
    if not isinstance(data, dict):
        raise HarnessError(
            f"{rel} must be a JSON object holding `evaluations`; `skillscope structural` says why."
        )
    if "evaluations" not in data:
        return None
    cases = data.get("evaluations")
    behavior = isinstance(cases, list) and any(_asserts_behavior(case) for case in cases)
    pin = data.get("skillscope_version")
    return behavior, pin.strip() if isinstance(pin, str) and pin.strip() else None


def _asserts_behavior(case: object) -> bool:
    # The same test as Case.has_behavior: some expectation list holds a string.
    return isinstance(case, dict) and any(
        isinstance(case.get(key), list) and any(isinstance(v, str) for v in case[key])
        for key in dataset.EXPECTATION_KEYS
    )
