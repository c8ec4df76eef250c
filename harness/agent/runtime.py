"""What the agent CLIs other than claude share: locating one, a throwaway home per run, its JSON
lines read into a Trace, the stop at the decision, and a one-word preflight.

Each runtime module (copilot, codex, gemini, opencode) says only what is its own: the command
line, the environment and config that isolate it, and how its events read.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from harness import nesting
from harness.cancel import Cancellation
from harness.deadline import Deadline
from harness.secrets import Redactor

from .process import capture, stream
from .spec import AgentUnavailable, RunSpec, SandboxSupport, probe_timeout
from .trace import (
    MAX_EVENT_DEPTH,
    RESULT_TEXT_KEEP,
    Activation,
    ToolCall,
    Trace,
    Usage,
    bounded_input,
    clip_depth,
    cut,
    one_line,
    unreadable_output,
)
from .workspace import AGENTS_SKILLS_SUBDIR, clean_temp_parent, installed_skills, stage_workspace

PREFLIGHT_PROMPT = "Reply with the single word: ok"


def pins() -> dict[str, dict[str, str]]:
    """Each agent CLI's npm package, pinned version and executable, from harness/data/agents.json."""
    text = resources.files("harness").joinpath("data/agents.json").read_text(encoding="utf-8")
    return json.loads(text)


def install_hint(runtime: str) -> str:
    pin = pins()[runtime]
    return (
        f"install it with `npm install -g {pin['package']}@{pin['version']}`, or pass --{runtime} PATH "
        f"(or set SKILLSCOPE_{runtime.upper()})"
    )


def locate_cli(
    runtime: str,
    explicit: str | None,
    environ: Mapping[str, str],
    deadline: Deadline | None = None,
    cancel: Cancellation | None = None,
) -> tuple[str, str]:
    """(path, version) of `runtime`'s CLI: `--<runtime> PATH`, else `$SKILLSCOPE_<RUNTIME>`, else
    the pinned executable's name on PATH; its `--version` probed once, within the command's time."""
    variable = f"SKILLSCOPE_{runtime.upper()}"
    binary = pins()[runtime]["bin"]
    wanted = explicit or environ.get(variable) or None
    if wanted:
        path = shutil.which(wanted, path=environ.get("PATH")) if "/" not in wanted else wanted
        if path is None or not Path(path).is_file():
            source = f"--{runtime}" if explicit else f"${variable}"
            raise AgentUnavailable(
                f"{runtime} CLI not found at {wanted} (from {source}): {install_hint(runtime)}"
            )
    else:
        path = shutil.which(binary, path=environ.get("PATH"))
        if path is None:
            raise AgentUnavailable(f"{runtime} CLI not found on PATH: {install_hint(runtime)}")
    try:
        done = capture([path, "--version"], env=environ, timeout_s=probe_timeout(deadline), cancel=cancel)
    except OSError as exc:
        raise AgentUnavailable(f"could not run `{path} --version` ({exc}): {install_hint(runtime)}") from exc
    if done.stopped is not None:
        why = "interrupted" if done.stopped == "cancelled" else "timed out"
        raise AgentUnavailable(f"`{path} --version` {why}: {install_hint(runtime)}")
    match = re.search(r"\d+\.\d+\.\d+", done.stdout + done.stderr)
    if done.code != 0 or match is None:
        said = (done.stderr or done.stdout).strip()[:200]
        raise AgentUnavailable(
            f"{path} did not report a {runtime} version ({said!r}): {install_hint(runtime)}"
        )
    return path, match.group(0)


# --- reading events -----------------------------------------------------------------------


class EventReader(ABC):
    """Feed one runtime's JSON lines in order; read `.trace` at any time.

    Subclasses map their events onto `call`, `answer`, `decide` and the Trace's fields; the
    exact-name rule and the confirmation of an activation live here, once for every runtime.
    """

    def __init__(self, installed: Mapping[str, Path | str]):
        self.trace = Trace()
        self.installed = set(installed)
        self.pending: dict[str, ToolCall] = {}
        self.activation_by_call: dict[str, Activation] = {}

    def feed(self, line: str) -> dict[str, Any] | None:
        stripped = line.strip()
        if not stripped:
            return None
        try:
            event = json.loads(stripped)
        except (ValueError, RecursionError):  # RecursionError: nested past what json can read
            event = None
        if isinstance(event, dict) and nesting.deeper_than(event, MAX_EVENT_DEPTH):
            event = clip_depth(event, MAX_EVENT_DEPTH)
        if not isinstance(event, dict):
            self.trace.non_json_lines += 1
            if len(self.trace.non_json_sample) < 2048:
                self.trace.non_json_sample += stripped[:2048] + "\n"
            return None
        self.trace.event_count += 1
        self.on_event(event)
        return event

    @abstractmethod
    def on_event(self, event: dict[str, Any]) -> None:
        """Record one event of the runtime's stream on the trace."""

    def ends_run(self, event: dict[str, Any]) -> bool:
        """This event is the runtime's last word: the run is over."""
        return False

    # --- what subclasses record -------------------------------------------------------

    def call(self, call_id: str, name: str, input: Any, *, skill: str | None = None) -> ToolCall:
        """A tool call; `skill` is the name it asks the skill tool for, when it is one."""
        trace = self.trace
        made = ToolCall(id=call_id, name=name, input=bounded_input(input), skill_call=skill is not None)
        self.pending[call_id] = made
        if made.is_skill_inspection:
            trace.inspection_calls += 1
        elif made.counts_against_budget:
            trace.budget_tool_calls += 1
        trace.tool_calls.append(made)
        if skill is not None:
            self.decide(call_id, skill)
        return made

    def decide(self, call_id: str, raw_name: str) -> Activation:
        """The model picked a skill by name: installed names match exactly, anything else is other:."""
        name = raw_name.strip().removeprefix("/")
        activation = Activation(
            name=name if name in self.installed else f"other:{name}", raw_input_name=name, tool_use_id=call_id
        )
        self.trace.activations.append(activation)
        self.activation_by_call[call_id] = activation
        return activation

    def answer(self, call_id: str, text: str, *, ok: bool) -> None:
        """A tool call's result; for a skill call it confirms (or refutes) the activation."""
        made = self.pending.pop(call_id, None)
        if made is not None:
            made.result_text = cut(text, RESULT_TEXT_KEEP)
            made.is_error = not ok
            made.answered = True
        activation = self.activation_by_call.pop(call_id, None)
        if activation is not None:
            activation.confirmed = ok and activation.installed
            activation.error_text = None if ok else cut(text, 500)
            activation.settled = True

    def add_usage(self, input_tokens: int = 0, output_tokens: int = 0, cache_read: int = 0) -> None:
        self.trace.usage = self.trace.usage.plus(
            Usage(input_tokens=input_tokens, output_tokens=output_tokens, cache_read_input_tokens=cache_read)
        )

    def fail(self, message: str, status: int | None = None) -> None:
        """The runtime reported an error (usually the model API's)."""
        trace = self.trace
        trace.is_error = True
        trace.result_errors.append(one_line(message))
        if status is not None and trace.api_error_status is None:
            trace.api_error_status = status


def status_in(text: str) -> int | None:
    """An HTTP status an error message carries (`"code": 429`, `status 503`), if any."""
    match = re.search(r"(?:\"code\"|status(?:Code)?)\W{0,3}([45]\d\d)\b", text)
    return int(match.group(1)) if match else None


# --- the agent ----------------------------------------------------------------------------


class CliAgent(ABC):
    """An agent CLI that reads `.agents/skills/`, run with a throwaway home per run.

    Subclasses set `runtime` and implement `command`, `reader` and `isolation_facts`.
    """

    runtime = "cli"
    skills_folder = AGENTS_SKILLS_SUBDIR.as_posix()
    heuristic_activation = False  # True where no skill tool exists and a command is read instead
    # The prompt goes on stdin, never on the command line: a judge's evidence can exceed the kernel's
    # limit on one argument (128 KiB). A runtime that cannot read stdin says False and takes argv.
    prompt_on_stdin = True

    def __init__(self, path: str, version: str, environ: Mapping[str, str], temp_parent: Path | None = None):
        self.path, self.version = path, version
        self.environ = dict(environ)
        self.temp_parent = temp_parent

    @classmethod
    def connect(
        cls,
        explicit: str | None,
        environ: Mapping[str, str],
        temp_parent: Path | None = None,
        *,
        deadline: Deadline | None = None,
        cancel: Cancellation | None = None,
    ) -> CliAgent:
        """The runtime's CLI located (`--<runtime> PATH`, `$SKILLSCOPE_<RUNTIME>`, PATH) and probed."""
        path, version = locate_cli(cls.runtime, explicit, environ, deadline, cancel)
        return cls(path, version, environ, temp_parent)

    # --- what a runtime says ------------------------------------------------------------

    @abstractmethod
    def command(self, spec: RunSpec, home: Path) -> tuple[list[str], dict[str, str], list[str]]:
        """argv, environment and notes (options it could not honour) for one run, its state in `home`."""

    @abstractmethod
    def reader(self, installed: Mapping[str, Path]) -> EventReader:
        """A fresh reader of one run's events, knowing the skills installed for it."""

    @abstractmethod
    def isolation_facts(self) -> dict[str, str]:
        """What keeps the user's own skills, settings and traffic out, for the report."""

    def check_ready(self) -> None:
        """Raise AgentUnavailable when something the runtime needs is missing (before any run)."""
        return  # most runtimes need nothing beyond their CLI

    # --- the Agent protocol -------------------------------------------------------------

    def workspace(self, room: Mapping[str, Path], fixture: Path | None = None):
        return stage_workspace(room, self.temp_parent, fixture, skills_subdir=AGENTS_SKILLS_SUBDIR)

    def redact(self, text: str) -> str:
        return Redactor.of(self.environ)(text)

    def describe(self) -> dict[str, str]:
        facts = {"runtime": self.runtime, "skills_folder": self.skills_folder, "home": "fresh"}
        facts.update(self.isolation_facts())
        return facts

    def run(self, spec: RunSpec) -> Trace:
        installed = (
            spec.installed
            if spec.installed is not None
            else installed_skills(spec.workspace, AGENTS_SKILLS_SUBDIR)
        )
        reader = self.reader(installed)
        with self.home() as home:
            argv, env, notes = self.command(spec, home)
            reader.trace.notes.extend(notes)
            stdin = spec.prompt.encode("utf-8") if self.prompt_on_stdin else b""
            return drive(self.runtime, argv, env, spec, reader, Redactor.of(self.environ), stdin)

    def invocation(self, spec: RunSpec) -> tuple[list[str], dict[str, str]]:
        """The command line a run of `spec` uses and the variables it sets or changes (for --dry-run);
        the throwaway home shows as `<fresh home>`."""
        with self.home() as home:
            argv, env, _ = self.command(spec, home)
        fresh = str(home)
        shown = [arg.replace(fresh, "<fresh home>") for arg in argv]
        changed = {k: v.replace(fresh, "<fresh home>") for k, v in env.items() if self.environ.get(k) != v}
        return shown, changed

    def preflight(
        self,
        model: str | None = None,
        *,
        deadline: Deadline | None = None,
        cancel: Cancellation | None = None,
    ) -> None:
        self.check_ready()
        with self.workspace({}) as workspace:
            timeout = probe_timeout(deadline)
            spec = RunSpec(PREFLIGHT_PROMPT, workspace, model=model, timeout_s=timeout, cancel=cancel)
            trace = self.run(spec)
        if trace.failure is None:
            return
        if trace.stop_reason == "cancelled":
            raise AgentUnavailable(f"interrupted during the {self.runtime} preflight prompt")
        raise AgentUnavailable(f"{self.runtime} failed a one-word preflight prompt: {trace.failure}")

    def probe_sandbox(
        self, *, deadline: Deadline | None = None, cancel: Cancellation | None = None
    ) -> SandboxSupport:
        """No shell sandbox skillscope can turn on for this runtime: the probe needs no run."""
        return SandboxSupport(False, f"skillscope cannot turn on a shell sandbox for {self.runtime}")

    @contextlib.contextmanager
    def home(self) -> Iterator[Path]:
        """A throwaway home for one run (config, state, sessions), outside the workspace."""
        path = Path(
            tempfile.mkdtemp(prefix=f"skillscope-{self.runtime}-", dir=clean_temp_parent(self.temp_parent))
        )
        try:
            yield path
        finally:
            shutil.rmtree(path, ignore_errors=True)


def writes_allowed(spec: RunSpec) -> bool:
    """The run may change its workspace (behavioral), rather than only decide (routing, judge)."""
    return bool(spec.permission_mode) and not spec.tools


def drive(
    runtime: str,
    argv: list[str],
    env: dict[str, str],
    spec: RunSpec,
    reader: EventReader,
    redact: Redactor,
    stdin: bytes = b"",
) -> Trace:
    """Run one CLI to its last event, its stop policy, or its timeout; never raises for its failures."""
    trace = reader.trace
    if spec.cancel is not None and spec.cancel.is_set():
        trace.error, trace.stop_reason = (
            f"interrupted: skillscope was cancelled before {runtime} started",
            "cancelled",
        )
        return trace

    def on_line(text: str) -> str | None:
        event = reader.feed(text)
        if event is None:
            return None
        if reader.ends_run(event):
            trace.result_seen = True
            return "result"
        return spec.stop(trace) if spec.stop is not None else None

    try:
        ran = stream(
            argv,
            cwd=Path(spec.workspace),
            env=env,
            stdin=stdin,
            timeout_s=spec.timeout_s,
            cancel=spec.cancel,
            keep_log=spec.keep_log,
            redact=redact,
            on_line=on_line,
            ends_itself=lambda reason: reason in (None, "result"),
            on_start=lambda pgid: setattr(trace, "pid", pgid),
        )
    except OSError as exc:
        trace.error = f"could not start {runtime} ({exc})"
        trace.stop_reason = "completed"
        return trace
    trace.exit_code, trace.stop_reason = ran.exit_code, ran.stop_reason
    trace.stderr_tail, trace.elapsed_s = ran.stderr_tail, ran.elapsed_s
    trace.error = (
        unreadable_output(runtime, ran.unreadable) if ran.unreadable else explain(runtime, trace, spec)
    )
    return trace


def reported_error(runtime: str, trace: Trace) -> str:
    """The error a runtime's own stream reported, in one sentence (the run's, or a kept log's)."""
    status = f"the API answered {trace.api_error_status}: " if trace.api_error_status else ""
    return f"{runtime} reported an error: {status}{'; '.join(trace.result_errors) or 'no detail'}"


def explain(runtime: str, trace: Trace, spec: RunSpec) -> str | None:
    """One sentence saying why the run failed, or None when it did not."""
    if trace.stop_reason == "cancelled":
        return f"interrupted: skillscope was cancelled before {runtime} finished"
    if trace.stop_reason == "timeout":
        return f"timed out after {spec.timeout_s:g} s before {runtime} finished"
    if trace.is_error:
        return reported_error(runtime, trace)
    if trace.result_seen or trace.stop_reason not in ("completed", "killed"):
        return None
    stderr = one_line(trace.stderr_tail, tail=True)
    if trace.event_count == 0:
        return f"{runtime} exited {trace.exit_code} without any JSON output: {stderr or 'no stderr'}"
    how = "was killed" if trace.stop_reason == "killed" else f"exited {trace.exit_code}"
    return f"{runtime} {how} before finishing its turn" + (f": {stderr}" if stderr else "")
