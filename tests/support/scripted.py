"""A scripted stand-in for the claude CLI, for tests of what the harness does around agent runs: the
result cache, scheduling, the spend cap, gating, progress and the reports' fields.

It is the real ClaudeAgent (workspace, isolation, listing rule, the command a dry run shows) as a dry
run builds it, without starting anything; only its runs are answered in-process, from a script keyed
like `CaseRouter`'s (a case id or a prompt substring). What the CLIs themselves do (listing the room,
calling the skill, stopping at the decision, failing) is proven against the real CLIs in the same
folders; a test on this stand-in asserts only what holds whatever runtime answered.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from harness import agent
from harness.agent import Activation, ClaudeAgent, InitInfo, RunSpec, SandboxSupport, Trace, Usage
from harness.routing import canary
from tests.support.routing import prompt_of, routing_env

MODEL = "claude-fake-1"
COST_USD = 0.0005  # what every scripted run spends unless its answer says otherwise
TOKENS = Usage(input_tokens=300, output_tokens=40)


@dataclass(frozen=True)
class Answer:
    """What one scripted run does: activate `skill`, finish without one, or fail with `error`."""

    skill: str | None = None
    error: str | None = None
    cost_usd: float = COST_USD

    def trace(self, spec: RunSpec, installed: list[str], version: str) -> Trace:
        made = Trace(
            init=InitInfo(
                skills=installed,
                tools=["Skill", "Bash", "Read"],
                model=spec.model or MODEL,
                claude_code_version=version,
                permission_mode="default",
                api_key_source="ANTHROPIC_API_KEY",
                session_id="scripted",
                cwd=str(spec.workspace),
            ),
            usage=TOKENS,
            cost_usd=self.cost_usd,
            elapsed_s=0.1,
            turns=1,
        )
        if self.error is not None:
            made.error, made.stop_reason = self.error, "result"
        elif self.skill is not None:
            name = self.skill if self.skill in installed else f"other:{self.skill}"
            made.activations.append(Activation(name, self.skill, "toolu_1", confirmed=True, settled=True))
            made.stop_reason = "activation"
        else:
            made.final_message, made.stop_reason, made.result_seen = "No skill needed.", "result", True
        return made


def fires(skill: str, cost_usd: float = COST_USD) -> Answer:
    return Answer(skill=skill, cost_usd=cost_usd)


NO_SKILL = Answer()


def fails(error: str) -> Answer:
    return Answer(error=error)


Scripting = Answer | list[Answer] | Callable[[RunSpec], Answer]


@dataclass(frozen=True)
class Ran:
    """One run the stand-in was asked for: its spec, and the skills its workspace held."""

    spec: RunSpec
    installed: list[str]

    @property
    def prompt(self) -> str:
        return self.spec.prompt


class ScriptedClaude(ClaudeAgent):
    """ClaudeAgent whose runs are answered by `script` (spec -> Answer); `runs` records each one."""

    script: Callable[[RunSpec], Answer]
    runs: list[Ran]
    lock: threading.Lock

    def run(self, spec: RunSpec) -> Trace:
        installed = sorted(agent.installed_skills(spec.workspace, Path(self.skills_folder)))
        with self.lock:
            self.runs.append(Ran(spec, installed))
        return self.script(spec).trace(spec, installed, self.version)

    def preflight(self, model=None, *, deadline=None, cancel=None) -> None:
        return None  # nothing to reach: the script answers every run

    def probe_sandbox(self, *, deadline=None, cancel=None) -> SandboxSupport:
        return SandboxSupport(False, "the scripted stand-in has no shell")


class Scripted:
    """The stand-in a test scripts: `script({case id or prompt text: answer or [answers]})`, then runs
    `skillscope routing` with `env` as usual; `runs` are the specs it was asked to run, the canary's
    among them (`case_runs` leaves those out)."""

    def __init__(self, home: Path):
        self.env = routing_env("http://127.0.0.1:9", "claude", home)  # nothing is ever sent there
        self._table: dict[str, Any] = {}
        self._default: Answer = NO_SKILL
        self._counts: dict[str, int] = {}
        self.runs: list[Ran] = []
        self.lock = threading.Lock()

    def script(self, table: Mapping[str, Scripting], default: Answer = NO_SKILL) -> None:
        """Answers by case id (`alpha-pos-1`) or prompt substring: an Answer, a list answering successive
        runs of that prompt in turn (for --repeat), or a function of the run's spec (its model, say).
        The canary activates unless `canary.PROMPT` is a key."""
        with self.lock:
            self._table = {prompt_of(key): value for key, value in table.items()}
            self._default, self._counts = default, {}

    def answer(self, spec: RunSpec) -> Answer:
        for key, value in self._table.items():
            if key in spec.prompt:
                if callable(value):
                    return value(spec)
                if not isinstance(value, list):
                    return value
                with self.lock:
                    count = self._counts[key] = self._counts.get(key, 0) + 1
                return value[(count - 1) % len(value)]
        if spec.prompt == canary.PROMPT:
            return fires(canary.NAME)
        return self._default

    def case_runs(self) -> list[Ran]:
        return [ran for ran in self.runs if ran.prompt != canary.PROMPT]

    def canary_runs(self) -> list[Ran]:
        return [ran for ran in self.runs if ran.prompt == canary.PROMPT]

    def connect(self, runtime: str, explicit: str | None, environ: Mapping[str, str], temp_parent=None, **_):
        assert runtime == "claude", f"the scripted stand-in is claude only, not {runtime}"
        stand_in, _found = ScriptedClaude.stand_in(explicit, environ, temp_parent)
        stand_in.script, stand_in.runs, stand_in.lock = self.answer, self.runs, self.lock
        return stand_in


@pytest.fixture
def scripted(monkeypatch, tmp_path) -> Scripted:
    """Every agent a command connects to in this test is the scripted claude stand-in."""
    made = Scripted(tmp_path / "home")
    monkeypatch.setattr(agent, "connect_runtime", made.connect)
    return made
