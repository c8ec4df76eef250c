"""A scripted agent runtime for tests of the harness's own logic: the search, the choice, the gates,
the confirmation, where a real CLI would prove nothing more than it already does elsewhere.

Each runtime is its own class (workspace, skills folder, isolation, cache identity), located as a dry
run locates it, so no CLI is ever started; a run is answered by a function of the prompt and of the
descriptions installed in the run's workspace. The canary's planted skill fires as a real model's would.
Every behaviour these tests cover keeps an end-to-end case on the real CLI against tests/fakeapi.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness import agent
from harness.agent import Activation, InitInfo, RunSpec, Trace, Usage
from harness.model import skill as skills
from harness.routing import canary

COST_USD = 0.002  # what each scripted run reports spending, so spend and budgets add up


@dataclass(frozen=True)
class Asked:
    """One run the scripted runtime answered."""

    runtime: str
    prompt: str
    listing: Mapping[str, str]  # installed skill -> its description, as the workspace holds it
    model: str | None

    @property
    def canary(self) -> bool:
        return self.prompt == canary.PROMPT


# (the run) -> the installed skill it fires, or None for an answer without a skill.
Answer = Callable[[Asked], "str | None"]


class ScriptedRuntimes:
    """Stands in for `harness.agent.connect_runtime` (see `scripted_runtimes`)."""

    def __init__(self, answer: Answer):
        self.answer = answer
        self.answers_canary = True
        self.asked: list[Asked] = []
        self.lock = threading.Lock()

    def connect(
        self,
        runtime: str,
        explicit: str | None,
        environ: Mapping[str, str],
        temp_parent: Path | None = None,
        *,
        deadline: object = None,
        cancel: object = None,
        pass_env: Sequence[str] = (),
    ) -> agent.Agent:
        ready, _ = agent.stand_in_runtime(runtime, explicit, environ, temp_parent, pass_env)
        ready.run = lambda spec: self.run(ready, spec)  # type: ignore[method-assign]
        return ready

    def run(self, ready: agent.Agent, spec: RunSpec) -> Trace:
        installed = agent.installed_skills(spec.workspace, Path(ready.skills_folder))
        listing = {name: skills.load(name, folder).description for name, folder in installed.items()}
        asked = Asked(ready.runtime, spec.prompt, listing, spec.model)
        with self.lock:
            self.asked.append(asked)
        canary_fires = canary.NAME if self.answers_canary else None
        fired = canary_fires if asked.canary else self.answer(asked)
        trace = Trace(
            init=InitInfo(
                skills=sorted(listing),
                tools=["Skill"],
                model=spec.model or "scripted-model",
                claude_code_version=ready.version,
                permission_mode="default",
                api_key_source="ANTHROPIC_API_KEY",
                session_id="scripted",
                cwd=str(spec.workspace),
            ),
            usage=Usage(input_tokens=300, output_tokens=20),
            cost_usd=COST_USD,
            turns=1,
            exit_code=0,
            stop_reason="activation" if fired else "result",
            final_message=None if fired else "I can answer that myself.",
        )
        if fired:
            trace.activations.append(Activation(fired, fired, "toolu_scripted", confirmed=True, settled=True))
        return trace

    def runs(self, *, canary: bool = False) -> list[Asked]:
        """The case runs answered so far (the canary's too with `canary`)."""
        with self.lock:
            return [a for a in self.asked if canary or not a.canary]

    def canary_runs(self) -> list[Asked]:
        return [a for a in self.runs(canary=True) if a.canary]


@pytest.fixture
def scripted_runtimes(monkeypatch) -> Iterator[Callable[[Answer], ScriptedRuntimes]]:
    """`scripted_runtimes(answer)`: every agent a command connects to, for this test, is scripted by
    `answer`; the returned object records what each run was asked."""

    def install(answer: Answer) -> ScriptedRuntimes:
        scripted = ScriptedRuntimes(answer)
        monkeypatch.setattr(agent, "connect_runtime", scripted.connect)
        return scripted

    yield install
