"""A scripted stand-in for the agent runtimes, for tests of what the harness alone decides around agent
runs: the result cache, scheduling, the spend cap, gating, progress, the reports' fields, tune's search,
choice and gates, the confirmation.

Each runtime is its own class (workspace, skills folder, isolation, listing rule, cache identity, the
command a dry run shows) built as a dry run builds it (`agent.stand_in_runtime`), so no CLI is ever
started; only its runs are answered in-process, by a script: a function of the run (its prompt, model,
runtime and the descriptions installed in its workspace), or a table keyed like `CaseRouter`'s (a case
id or a prompt substring). A run scripted to hang (`HANGS`) is the one that starts a process: a silent
one, which the runtime's own drive loop waits on and kills at the harness's timeout or cancellation, as
it would a hung CLI. A run's tool calls (`calls`) enter its trace through claude's own event reader,
normalised and counted as a real run's are; a `Write` among them writes its file into the run's
workspace (`{{cwd}}` in a call stands for it, as in tests/fakeapi's replies), as the agent's would. A
run asked to keep its log (`--keep-logs`) keeps the lines claude's stream-json would have printed for
it, written as the drive loop writes a CLI's. The canary's planted skill fires as a real model's would
unless the script says otherwise. What the CLIs themselves do (listing the room, calling the skill,
stopping at the decision, failing) is proven against the real CLIs against tests/fakeapi; a test on
this stand-in asserts only what holds whatever runtime answered.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from harness import agent
from harness.agent import Activation, InitInfo, RunSpec, SandboxSupport, Trace, Usage
from harness.agent.claude_events import BASE_DIR_PREFIX, ClaudeEvents
from harness.model import skill as skills
from harness.routing import canary
from harness.writer import growing
from tests.support.routing import prompt_of, routing_env

MODEL = "claude-fake-1"
COST_USD = 0.0005  # what every scripted run spends unless its answer says otherwise
TOKENS = Usage(input_tokens=300, output_tokens=40)
# A hanging run's process prints nothing and sleeps far past any timeout a test sets; it ends by itself
# only so that a harness whose timeout is broken fails the test (a run with no result) instead of
# stalling it.
HANG_S = 60
SILENT = [sys.executable, "-I", "-S", "-c", f"import time; time.sleep({HANG_S})"]


@dataclass(frozen=True)
class Ran:
    """One run the stand-in was asked for: its runtime, its spec, and the skills its workspace held
    (each installed skill's description, as the workspace holds it)."""

    runtime: str
    spec: RunSpec
    listing: Mapping[str, str]

    @property
    def prompt(self) -> str:
        return self.spec.prompt

    @property
    def model(self) -> str | None:
        return self.spec.model

    @property
    def installed(self) -> list[str]:
        return sorted(self.listing)

    @property
    def canary(self) -> bool:
        return self.prompt == canary.PROMPT


@dataclass(frozen=True)
class Answer:
    """What one scripted run does: activate `skill`, finish without one saying `text` (a proposal call's
    answer, say), fail with `error` (`by_cli`: an error the CLI's own stream reported, which its
    runtime's RetryRules read), or hang (`hangs`) until the harness's timeout or cancellation ends it;
    a run that does not hang first makes the tool `calls` (see `called`)."""

    skill: str | None = None
    error: str | None = None
    cost_usd: float = COST_USD
    text: str = "No skill needed."
    by_cli: bool = False
    hangs: bool = False
    calls: tuple[tuple[str, dict[str, Any], str], ...] = ()

    def trace(self, ran: Ran, version: str) -> Trace:
        made = Trace(
            init=init_of(ran, version),
            usage=TOKENS,
            cost_usd=self.cost_usd,
            elapsed_s=0.1,
            turns=1,
            exit_code=0,
        )
        if self.calls:
            read = called(self.calls, ran.listing)
            made.tool_calls, made.budget_tool_calls = read.tool_calls, read.budget_tool_calls
            made.inspection_calls = read.inspection_calls
        if self.error is not None:
            made.error, made.stop_reason = self.error, "result"
            made.result_errors = [self.error] if self.by_cli else []
        elif self.skill is not None:
            name = self.skill if self.skill in ran.listing else f"other:{self.skill}"
            made.activations.append(Activation(name, self.skill, "toolu_1", confirmed=True, settled=True))
            made.stop_reason = "activation"
        else:
            made.final_message, made.stop_reason, made.result_seen = self.text, "result", True
        return made


def called(calls: Sequence[tuple[str, dict[str, Any], str]], listing: Mapping[str, str]) -> Trace:
    """Tool calls `(tool, input, result)` as claude's own event reader records them from its stream (the
    stand-in's agent has claude's tools whatever its runtime): normalised, counted against the budgets
    and answered, as the graders read a real run's."""
    reader = ClaudeEvents(dict.fromkeys(listing, Path()))
    for event in call_events(calls):
        reader.feed(json.dumps(event))
    return reader.trace


def call_events(calls: Sequence[tuple[str, dict[str, Any], str]]) -> list[dict[str, Any]]:
    """The assistant's tool use and the tool's answer, in claude's stream, for each call in turn."""
    events: list[dict[str, Any]] = []
    for number, (tool, given, result) in enumerate(calls, start=1):
        use = {"type": "tool_use", "id": f"toolu_c{number}", "name": tool, "input": given}
        answer = {"type": "tool_result", "tool_use_id": use["id"], "content": result}
        events.append({"type": "assistant", "message": {"content": [use]}})
        events.append({"type": "user", "message": {"content": [answer]}})
    return events


def placed(calls: Sequence[tuple[str, dict[str, Any], str]], workspace: Path) -> tuple:
    """`calls` with `{{cwd}}` in their inputs standing for the run's workspace; each `Write` done there,
    as the agent's tool would do it (never outside the workspace)."""
    made = []
    for tool, given, result in calls:
        given = json.loads(json.dumps(given).replace("{{cwd}}", str(workspace)))
        if tool == "Write":
            target = Path(given["file_path"])
            assert target.resolve().is_relative_to(Path(workspace).resolve()), target
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(given["content"], encoding="utf-8")
        made.append((tool, given, result))
    return tuple(made)


def stream(answer: Answer, ran: Ran, version: str, folder: Path | None) -> list[str]:
    """The lines claude's stream-json prints for `answer`'s run (its calls already placed): the init
    event, the calls, then the skill's launch and the base directory it injects (the skill's `folder`),
    or the result event; what a kept log of the run holds."""
    init = dataclasses.asdict(init_of(ran, version))
    init["permissionMode"], init["apiKeySource"] = init.pop("permission_mode"), init.pop("api_key_source")
    events: list[dict[str, Any]] = [{"type": "system", "subtype": "init", **init}, *call_events(answer.calls)]
    if answer.error is None and answer.skill is not None:
        launch = {"type": "tool_use", "id": "toolu_1", "name": "Skill", "input": {"skill": answer.skill}}
        launched = {
            "type": "tool_result",
            "tool_use_id": "toolu_1",
            "content": f"Launching skill: {answer.skill}",
        }
        events.append({"type": "assistant", "message": {"content": [launch]}})
        events.append(
            {"type": "user", "message": {"content": [launched]}, "tool_use_result": {"success": True}}
        )
        if folder is not None:
            base = {"type": "text", "text": f"{BASE_DIR_PREFIX} {folder}"}
            events.append({"type": "user", "message": {"content": [base]}})
    else:
        failed = answer.error is not None
        result = {"result": answer.error if failed else answer.text, "is_error": failed, "num_turns": 1}
        usage = {"input_tokens": TOKENS.input_tokens, "output_tokens": TOKENS.output_tokens}
        subtype = "error_during_execution" if failed else "success"
        events.append(
            {
                "type": "result",
                "subtype": subtype,
                **result,
                "total_cost_usd": answer.cost_usd,
                "usage": usage,
            }
        )
    return [json.dumps(event) for event in events]


def init_of(ran: Ran, version: str) -> InitInfo:
    """The init event a CLI prints before its first request, for the run `ran`."""
    return InitInfo(
        skills=ran.installed,
        tools=["Skill", "Bash", "Read"],
        model=ran.model or MODEL,
        claude_code_version=version,
        permission_mode="default",
        api_key_source="ANTHROPIC_API_KEY",
        session_id="scripted",
        cwd=str(ran.spec.workspace),
    )


def fires(skill: str, cost_usd: float = COST_USD) -> Answer:
    return Answer(skill=skill, cost_usd=cost_usd)


NO_SKILL = Answer()


def says(text: str) -> Answer:
    return Answer(text=text)


def calls(*made: tuple[str, dict[str, Any], str], then: Answer = NO_SKILL) -> Answer:
    """`then`, after the agent made the tool calls `made`, each `(tool, input, its result)`."""
    return dataclasses.replace(then, calls=tuple(made))


# The run's agent listed its skills, sent its request, and never heard back.
HANGS = Answer(hangs=True)


def fails(error: str) -> Answer:
    return Answer(error=error)


def cli_fails(error: str) -> Answer:
    """The run's CLI gave up on its own, saying `error` in its stream."""
    return Answer(error=error, by_cli=True)


Script = Callable[[Ran], Answer]
# A table's value: an Answer, a list answering successive runs of its prompt in turn (for --repeat), or a
# function of the run (its model, say).
Scripting = Answer | list[Answer] | Script


class Scripted:
    """The stand-in a test scripts (`script`), then runs a command with `env` (claude's, pointing
    nowhere) or its own; `runs` are the runs it was asked for, the canary's among them (`case_runs`
    leaves those out)."""

    def __init__(self, home: Path):
        self.env = routing_env("http://127.0.0.1:9", "claude", home)  # nothing is ever sent there
        self.runs: list[Ran] = []
        self.lock = threading.Lock()
        self.script({})

    def script(
        self,
        answers: Mapping[str, Scripting] | Script,
        default: Answer | Script = NO_SKILL,
        *,
        canary_fires: bool = True,
    ) -> None:
        """Script every later run: a table answers by case id (`alpha-pos-1`) or prompt substring, first
        match in order; a function answers every run, as `default` answers those no key matches. The
        canary's run fires its planted skill, as a real model's would, unless a key matches it or
        `canary_fires` is off (then it is answered like any other run)."""
        if callable(answers):
            answers, default = {}, answers
        with self.lock:
            self.table = {prompt_of(key): value for key, value in answers.items()}
            self.default, self.canary_fires = default, canary_fires
            self.counts: dict[str, int] = {}

    def answer(self, ran: Ran) -> Answer:
        for key, value in self.table.items():
            if key in ran.prompt:
                if callable(value):
                    return value(ran)
                if not isinstance(value, list):
                    return value
                with self.lock:
                    count = self.counts[key] = self.counts.get(key, 0) + 1
                return value[(count - 1) % len(value)]
        if ran.canary and self.canary_fires:
            return fires(canary.NAME)
        return self.default(ran) if callable(self.default) else self.default

    def case_runs(self) -> list[Ran]:
        with self.lock:
            return [ran for ran in self.runs if not ran.canary]

    def canary_runs(self) -> list[Ran]:
        with self.lock:
            return [ran for ran in self.runs if ran.canary]

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
        """Stands in for `agent.connect_runtime`: the runtime as a dry run builds it, its runs scripted."""
        ready, _found = agent.stand_in_runtime(runtime, explicit, environ, temp_parent, pass_env)
        ready.run = lambda spec: self.run(ready, spec)  # type: ignore[method-assign]
        ready.preflight = no_preflight  # type: ignore[method-assign]
        ready.probe_sandbox = no_sandbox  # type: ignore[method-assign]
        return ready

    def run(self, ready: agent.Agent, spec: RunSpec) -> Trace:
        installed = agent.installed_skills(spec.workspace, Path(ready.skills_folder))
        listing = {name: skills.load(name, folder).description for name, folder in installed.items()}
        ran = Ran(ready.runtime, spec, listing)
        with self.lock:
            self.runs.append(ran)
        answer = self.answer(ran)
        if answer.hangs:
            trace = hang(ready, ran, installed)
        else:
            answer = dataclasses.replace(answer, calls=placed(answer.calls, spec.workspace))
            trace = answer.trace(ran, ready.version)
            if spec.keep_log is not None:
                with growing(spec.keep_log, spec.keep_log.parent, private=True) as log:
                    lines = stream(answer, ran, ready.version, installed.get(answer.skill or ""))
                    log.writelines(f"{line}\n".encode() for line in lines)
        # As the runtime's own run does: a failure it declares its own is worth one fresh retry.
        trace.retryable = next((rule.why for rule in ready.retry_on if rule.matches(trace)), None)
        return trace


def hang(ready: Any, ran: Ran, installed: Mapping[str, Path]) -> Trace:
    """`ran` on a process that prints nothing after the init event and does not end: the runtime's own
    drive loop (harness/agent/runtime.py) waits on it, ends it at `spec.timeout_s` or `spec.cancel` and
    kills its group, and says why, as for a hung CLI; the answer does not depend on how long that took."""
    reader = ready.reader(installed)
    reader.trace.init = init_of(ran, ready.version)
    return ready.drive(list(SILENT), dict(ready.environ), ran.spec, reader)


def no_preflight(model: str | None = None, **_: Any) -> None:
    return None  # nothing to reach: the script answers every run


def no_sandbox(**_: Any) -> SandboxSupport:
    return SandboxSupport(False, "the scripted stand-in has no shell")


@pytest.fixture
def scripted(monkeypatch, tmp_path) -> Scripted:
    """Every agent a command connects to in this test, whatever its runtime, is the scripted stand-in."""
    made = Scripted(tmp_path / "home")
    monkeypatch.setattr(agent, "connect_runtime", made.connect)
    return made
