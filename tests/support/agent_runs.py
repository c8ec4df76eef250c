"""The agent-layer tests' shared runs: per runtime, one agent connected to its own scripted fake API for
the whole session, and a few scripted runs, each made once and read by every test that asserts a fact
of it (a start of these CLIs costs seconds of CPU, OpenCode's most)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.agent import Agent, RunSpec, Trace, stop_at_decision
from tests.fakeapi import FakeAPI, write_skill
from tests.fakeapi import replies as R
from tests.fakeapi.recorded import RecordedRequest
from tests.fakeapi.runtimes import MODEL
from tests.support.agents import connect_fake
from tests.support.procs import group_members

PROMPT = "please convert my pdf"
# One argument holds at most 128 KiB on Linux: a judge's evidence can be longer than a command argument.
PADDING = "evidence " * 25_000
DIRECT = "I can answer that directly."
FINAL = "All converted.\nNothing else to do."


def model_for(runtime: str) -> str | None:
    return None if runtime == "gemini" else MODEL


def write_room(source: Path) -> dict[str, Path]:
    """`pdf-tools` (with an answer key that must stay out of the workspace) and `csv-report`."""
    return {
        "pdf-tools": write_skill(
            source,
            "pdf-tools",
            "Work with PDF files.",
            "# PDF\nSay PDF-ACTIVE.\n",
            extra_files={"evals/evals.json": '{"answer": "key"}'},
        ),
        "csv-report": write_skill(source, "csv-report", "Summarize CSV files."),
    }


def scripts(runtime: str) -> dict[str, tuple[Any, str, dict[str, Any]]]:
    """Each run's name -> (script, prompt, RunSpec fields)."""
    # The fake answers at once, so a CLI may load csv-report too before the stop lands (seen under
    # load); a later activation must not change the decision. The third turn never gets an answer:
    # however fast or slow the machine, a run not stopped at the decision would wait out its limit.
    picked = [R.skill_for(runtime, "pdf-tools"), R.skill_for(runtime, "csv-report"), R.hang()]
    # An invented name, then the neighbour, then a two-line answer: a whole run, never stopped.
    invented = [R.skill_for(runtime, "ghost-skill"), R.skill_for(runtime, "csv-report"), FINAL]
    return {
        "picked": ({PROMPT: picked}, PROMPT, {"stop": stop_at_decision(4, 8)}),
        "invented": ({PROMPT: invented}, PROMPT, {}),
        # Every request answered, a retry too: the long prompt is also a run the model answers directly.
        "long": (lambda request: DIRECT, f"{PROMPT}\n{PADDING}", {}),
        "direct": ({PROMPT: [DIRECT]}, PROMPT, {}),
    }


@dataclass
class Run:
    trace: Trace
    requests: list[RecordedRequest]
    turns: list[RecordedRequest]
    log: Path  # the raw log the run kept


class SharedAgents:
    """`agent(runtime)`, `api(runtime)` and `run(runtime, name)`, each made on first use. The runs are
    kept for the session; `release()` stops the servers (threads of the test process) and forgets the
    agents bound to them, so a later test of the worker may fork a single-threaded process."""

    def __init__(self, connect: Callable[[str, str, Path], Agent], scratch: Path):
        self._connect, self._scratch = connect, scratch
        self._stack = contextlib.ExitStack()
        self._apis: dict[str, FakeAPI] = {}
        self._agents: dict[str, Agent] = {}
        self._runs: dict[tuple[str, str], Run] = {}
        self._connections = 0

    def release(self) -> None:
        self._stack.close()
        self._apis.clear()
        self._agents.clear()

    def api(self, runtime: str) -> FakeAPI:
        if runtime not in self._apis:
            self._apis[runtime] = self._stack.enter_context(FakeAPI())
        return self._apis[runtime]

    def agent(self, runtime: str) -> Agent:
        if runtime not in self._agents:
            # A fresh home per connection: release() forgets the agent, and a later module connects again.
            self._connections += 1
            folder = self._scratch / runtime / f"connection-{self._connections}"
            self._agents[runtime] = self._connect(runtime, self.api(runtime).base_url, folder)
        return self._agents[runtime]

    def run(self, runtime: str, name: str) -> Run:
        if (runtime, name) not in self._runs:
            script, prompt, fields = scripts(runtime)[name]
            agent, api = self.agent(runtime), self.api(runtime)
            api.forget()
            api.script(script)
            log = self._scratch / runtime / "logs" / f"{name}.jsonl"
            room = write_room(self._scratch / runtime / f"room-{name}")
            with agent.workspace(room) as workspace:
                assert not (workspace / agent.skills_folder / "pdf-tools" / "evals").exists()
                spec = RunSpec(
                    prompt, workspace, model=model_for(runtime), timeout_s=300, keep_log=log, **fields
                )
                trace = agent.run(spec)
            assert trace.pid is not None and group_members(trace.pid) == []  # nothing of it outlives it
            self._runs[runtime, name] = Run(trace, list(api.requests), api.agent_turns(), log)
        return self._runs[runtime, name]


def shared_agents(claude_bin: str, copilot_cache: str, scratch: Path) -> SharedAgents:
    def connect(runtime: str, base_url: str, folder: Path) -> Agent:
        return connect_fake(runtime, base_url, claude_bin, folder, copilot_cache)

    return SharedAgents(connect, scratch)
