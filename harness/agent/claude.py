"""The `claude` CLI: find it, isolate it, run one prompt, turn its stream into a Trace.

This is the only module that knows the CLI's flags and environment variables.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from harness.cancel import Cancellation
from harness.deadline import Deadline
from harness.secrets import SECRET_VARS, Redactor, write_private

from .process import capture, stream
from .spec import PROBE_TIMEOUT_S, AgentUnavailable, RunSpec, SandboxSupport, probe_timeout
from .trace import Trace, TraceBuilder, unreadable_output
from .workspace import SKILLS_SUBDIR, clean_temp_parent, installed_skills, stage_workspace

CLAUDE_ENV = "SKILLSCOPE_CLAUDE"
PINNED_VERSION = "2.1.332"
INSTALL_HINT = (
    f"install it with `npm install -g @anthropic-ai/claude-code@{PINNED_VERSION}`, or pass --claude PATH "
    f"(or set {CLAUDE_ENV})"
)
# Flags older or newer CLIs may lack; each is used only when `--help` shows it.
OPTIONAL_FLAGS = (
    "--max-budget-usd",
    "--no-session-persistence",
    "--effort",
    "--max-turns",  # hidden in 2.1.x help: stays unsupported unless a CLI shows it
    "--setting-sources",
    "--settings",
    "--tools",
)
# The built-in plugin that adds a `plugin-authoring` skill even with bundled skills off.
PLUGIN_SKILLS_OFF = {"enabledPlugins": {"cc-plugin-plugin-authoring@builtin": False}}
# Routing's decision is known once a skill launches: this hook makes claude end the run right after
# the skill tool's result, before it asks the model again, and still print its result (with cost).
STOP_ANSWER = json.dumps({"continue": False, "stopReason": "skillscope: routing decision made"})
STOP_AFTER_SKILL_HOOKS = {
    "PostToolUse": [{"matcher": "Skill", "hooks": [{"type": "command", "command": f"echo '{STOP_ANSWER}'"}]}]
}
# claude's own shell sandbox (bubblewrap and socat on Linux, Seatbelt on macOS): every Bash command
# of the agent runs confined to its workspace for writes, and a command the sandbox stops may not
# be run again outside it. Where it cannot start, claude says so on stderr and runs unconfined.
SANDBOX_SETTINGS = {"sandbox": {"enabled": True, "allowUnsandboxedCommands": False}}
SANDBOX_OFF = re.compile(r"Sandbox disabled:\s*(.+)")
SANDBOX_REFUSED = re.compile(r"sandbox required but unavailable:\s*(.+)")
# The sandbox probe stops at the init event; its API address is a closed loopback port, so even a
# request sent before the stop reaches nothing and costs nothing.
NOWHERE = "http://127.0.0.1:9"
CREDENTIAL_VARS = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN")
# The credential reaches the CLI through a helper reading a file in the run's own config dir, never
# through its environment, which every Bash command of the agent inherits.
CREDENTIAL_FILE = "credential"
KEY_HELPER = f'cat "$CLAUDE_CONFIG_DIR/{CREDENTIAL_FILE}"'
# Set by a Claude Code session around its tools; a nested CLI would refuse to start.
NESTED_SESSION_VARS = ("CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT")
PREFLIGHT_PROMPT = "Reply with the single word: ok"
# A grader that may look at the workspace but never change it: only these built-in tools,
# and the writing ones refused as well, in case a CLI lacks --tools.
READ_ONLY_TOOLS = ("Read", "Glob", "Grep")
WRITING_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit", "Bash")
CANCELLED = "interrupted: skillscope was cancelled before claude finished"


# --- locating the CLI ------------------------------------------------------------------


@dataclass(frozen=True)
class ClaudeCLI:
    path: str
    version: str
    optional_flags: frozenset[str] = frozenset()

    def supports(self, flag: str) -> bool:
        return flag in self.optional_flags


def locate(
    explicit: str | None,
    environ: Mapping[str, str],
    *,
    deadline: Deadline | None = None,
    cancel: Cancellation | None = None,
) -> ClaudeCLI:
    """`--claude PATH`, else `$SKILLSCOPE_CLAUDE`, else `claude` on PATH; probed once, within the
    command's `deadline` and until `cancel`."""
    wanted = explicit or environ.get(CLAUDE_ENV) or None
    if wanted:
        path = shutil.which(wanted, path=environ.get("PATH")) if "/" not in wanted else wanted
        if path is None or not Path(path).is_file():
            source = "--claude" if explicit else f"${CLAUDE_ENV}"
            raise AgentUnavailable(f"claude CLI not found at {wanted} (from {source}): {INSTALL_HINT}")
    else:
        path = shutil.which("claude", path=environ.get("PATH"))
        if path is None:
            raise AgentUnavailable(f"claude CLI not found on PATH: {INSTALL_HINT}")
    version_text = _probe(path, "--version", environ, deadline, cancel)
    match = re.search(r"\d+\.\d+\.\d+", version_text)
    if match is None:
        raise AgentUnavailable(
            f"{path} did not report a claude version ({version_text.strip()[:200]!r}): {INSTALL_HINT}"
        )
    help_text = _probe(path, "--help", environ, deadline, cancel)
    shown = set(re.findall(r"(?<![\w-])--[a-zA-Z][\w-]*", help_text))
    return ClaudeCLI(path, match.group(0), frozenset(f for f in OPTIONAL_FLAGS if f in shown))


def _probe(
    path: str, flag: str, environ: Mapping[str, str], deadline: Deadline | None, cancel: Cancellation | None
) -> str:
    """What `path flag` prints; a hang is bounded like every other phase and its group killed."""
    timeout = probe_timeout(deadline)
    try:
        done = capture([path, flag], env=_base_env(environ), timeout_s=timeout, cancel=cancel)
    except OSError as exc:
        raise AgentUnavailable(f"could not run `{path} {flag}` ({exc}): {INSTALL_HINT}") from exc
    if done.stopped == "cancelled":
        raise AgentUnavailable(f"interrupted while `{path} {flag}` ran")
    if done.stopped == "timeout":
        raise AgentUnavailable(f"`{path} {flag}` did not finish within {timeout:g} s{_why_short(timeout)}")
    if done.code != 0:
        detail = (done.stderr or done.stdout).strip()[:200]
        raise AgentUnavailable(f"`{path} {flag}` exited {done.code} ({detail}): {INSTALL_HINT}")
    return done.stdout


def _why_short(timeout: float) -> str:
    if timeout < PROBE_TIMEOUT_S:
        return " (the command's --timeout ran out)"
    return "; it hangs rather than answering, so check that it runs from a shell"


def _base_env(environ: Mapping[str, str]) -> dict[str, str]:
    env = {k: v for k, v in environ.items() if k not in NESTED_SESSION_VARS and k not in SECRET_VARS}
    env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] = "1"  # no telemetry or update checks
    return env


# --- isolation -------------------------------------------------------------------------


@dataclass(frozen=True)
class Isolation:
    """What keeps the runner's own skills and settings out of the room."""

    fresh_config_dir: bool  # a throwaway CLAUDE_CONFIG_DIR per run
    temp_parent: Path | None = None  # where throwaway dirs go (None: a clean temp dir)
    credential: str | None = field(default=None, repr=False)  # the env credential, handed over by file

    def settings(self) -> dict:
        settings = dict(PLUGIN_SKILLS_OFF)
        if self.credential:
            settings["apiKeyHelper"] = KEY_HELPER
        return settings

    def argv(self, hooks: Mapping | None = None, sandbox: bool = False) -> list[str]:
        settings = {
            **self.settings(),
            **(SANDBOX_SETTINGS if sandbox else {}),
            **({"hooks": hooks} if hooks else {}),
        }
        return ["--setting-sources", "project", "--settings", json.dumps(settings)]

    def env(self, environ: Mapping[str, str], config_dir: Path | None) -> dict[str, str]:
        env = _base_env(environ)
        env["CLAUDE_CODE_DISABLE_BUNDLED_SKILLS"] = "1"
        env.setdefault("CLAUDE_CODE_MAX_RETRIES", "0")  # fail fast; retries hide outages
        if config_dir is not None:
            env["CLAUDE_CONFIG_DIR"] = str(config_dir)
        return env

    @contextlib.contextmanager
    def config_dir(self) -> Iterator[Path | None]:
        """A fresh config dir for one run (outside the workspace), or None to keep the user's."""
        if not self.fresh_config_dir:
            yield None
            return
        path = Path(tempfile.mkdtemp(prefix="skillscope-config-", dir=clean_temp_parent(self.temp_parent)))
        try:
            if self.credential:
                write_private(path / CREDENTIAL_FILE, self.credential)
            yield path
        finally:
            shutil.rmtree(path, ignore_errors=True)

    def describe(self) -> dict[str, str]:
        return {
            "config_dir": "fresh" if self.fresh_config_dir else "user",
            "setting_sources": "project",
            "bundled_skills": "disabled",
            "plugin_skills": "disabled",
            "credentials": (
                "from a key helper: the agent's tools inherit no API key"
                if self.credential
                else "the CLI's own login"
            ),
            "note": (
                "a throwaway CLAUDE_CONFIG_DIR per run (credentials come from the environment)"
                if self.fresh_config_dir
                else "no ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN set, so claude uses your own "
                "config dir for its login; your skills stay out via --setting-sources project"
            ),
        }


def isolation_for(environ: Mapping[str, str], temp_parent: Path | None = None) -> Isolation:
    # OAuth logins live in the user's config dir: only an env credential lets us replace it.
    credential = next((environ[v] for v in CREDENTIAL_VARS if environ.get(v)), None)
    return Isolation(credential is not None, temp_parent, credential)


# --- one run ---------------------------------------------------------------------------


def stops_itself(cli: ClaudeCLI, spec: RunSpec) -> bool:
    """Whether this run's CLI ends itself after a skill launches (its hook needs --settings)."""
    return spec.stop_after_skill and cli.supports("--settings")


def build_argv(cli: ClaudeCLI, spec: RunSpec, isolation: Isolation) -> tuple[list[str], list[str]]:
    """The command line, and notes about requested options this CLI cannot honour."""
    hooks = STOP_AFTER_SKILL_HOOKS if stops_itself(cli, spec) else None
    argv = [
        cli.path,
        "-p",
        "--output-format",
        "stream-json",
        "--verbose",
        *isolation.argv(hooks, spec.sandbox),
    ]
    notes: list[str] = []
    if spec.stop_after_skill and hooks is None:
        notes.append(
            f"claude {cli.version} has no --settings for a stop hook; runs were killed at the decision, "
            "after the CLI may already have asked the model again"
        )
    if spec.model:
        argv += ["--model", spec.model]
    if spec.effort:
        if cli.supports("--effort"):
            argv += ["--effort", spec.effort]
        else:
            notes.append(f"claude {cli.version} has no --effort; effort {spec.effort} was not set")
    if cli.supports("--no-session-persistence"):
        argv.append("--no-session-persistence")  # leave no transcripts behind
    if spec.max_budget_usd:
        if cli.supports("--max-budget-usd"):
            argv += ["--max-budget-usd", f"{spec.max_budget_usd:g}"]
        else:
            notes.append(f"claude {cli.version} has no --max-budget-usd; the budget was not enforced")
    if spec.permission_mode:
        argv += ["--permission-mode", spec.permission_mode]
    if spec.allowed_tools:
        argv += ["--allowedTools", *spec.allowed_tools]
    if spec.tools:
        if cli.supports("--tools"):
            argv += ["--tools", ",".join(spec.tools)]
        else:
            notes.append(f"claude {cli.version} has no --tools; only --disallowedTools limited the tools")
    if spec.disallowed_tools:
        argv += ["--disallowedTools", *spec.disallowed_tools]
    argv += list(spec.extra_args)
    return argv, notes


def run(cli: ClaudeCLI, spec: RunSpec, isolation: Isolation, environ: Mapping[str, str]) -> Trace:
    """Run one prompt to its end, its stop policy, or its timeout. Never raises for agent
    failures: they are recorded on the returned Trace (`error`, `stop_reason`)."""
    installed = spec.installed if spec.installed is not None else installed_skills(spec.workspace)
    builder = TraceBuilder(installed)
    argv, notes = build_argv(cli, spec, isolation)
    builder.trace.notes.extend(notes)
    with isolation.config_dir() as config_dir:
        trace = _drive(
            argv,
            spec,
            isolation.env(environ, config_dir),
            builder,
            Redactor.of(environ),
            stops_itself(cli, spec),
        )
    if spec.sandbox:
        trace.sandbox_applied = trace.init.sandbox_enabled if trace.init else None
        trace.sandbox_reason = sandbox_refusal(trace.stderr_tail)
    return trace


def sandbox_refusal(stderr: str) -> str | None:
    """Why claude ran without its sandbox, in its own words, when it said so on stderr."""
    for pattern in (SANDBOX_OFF, SANDBOX_REFUSED):
        found = pattern.search(stderr)
        if found:
            return " ".join(found.group(1).split()).removesuffix(".")
    return None


def probe_sandbox(
    cli: ClaudeCLI,
    isolation: Isolation,
    environ: Mapping[str, str],
    *,
    deadline: Deadline | None = None,
    cancel: Cancellation | None = None,
) -> SandboxSupport:
    """Start claude with its sandbox on and read its init event, then stop it there: no model request
    is answered (the API address is a closed loopback port), so the probe costs nothing."""
    if not cli.supports("--settings"):
        return SandboxSupport(False, f"claude {cli.version} has no --settings to turn its sandbox on")
    with stage_workspace({}, isolation.temp_parent) as workspace:
        spec = RunSpec(
            "sandbox probe",
            workspace,
            sandbox=True,
            timeout_s=probe_timeout(deadline),
            cancel=cancel,
            stop=lambda trace: "probed" if trace.init is not None else None,
        )
        trace = run(cli, spec, isolation, {**environ, "ANTHROPIC_BASE_URL": NOWHERE})
    if trace.sandbox_applied:
        return SandboxSupport(True)
    if trace.sandbox_applied is None:
        if trace.init is None:
            why = trace.error or trace.stderr_tail.strip()[:200] or "no init event"
            return SandboxSupport(None, f"claude did not start for the sandbox probe ({why})")
        return SandboxSupport(None, f"claude {cli.version} does not report whether its sandbox is on")
    return SandboxSupport(False, trace.sandbox_reason or "claude reported its sandbox off and gave no reason")


def _drive(
    argv: list[str],
    spec: RunSpec,
    env: dict[str, str],
    builder: TraceBuilder,
    redact: Redactor,
    cli_stops: bool = False,
) -> Trace:
    if spec.cancel is not None and spec.cancel.is_set():
        return builder.finish(
            exit_code=None, stop_reason="cancelled", stderr_tail="", elapsed_s=0.0, error=CANCELLED
        )
    try:
        ran = stream(
            argv,
            cwd=Path(spec.workspace),
            env=env,
            stdin=spec.prompt.encode(),
            timeout_s=spec.timeout_s,
            cancel=spec.cancel,
            keep_log=spec.keep_log,
            redact=redact,
            on_line=_stop_policy(spec, builder, cli_stops),
            # The CLI ends by itself after a result or EOF; give it a moment for a real exit code.
            ends_itself=lambda reason: reason in (None, "result", "budget") or builder.trace.result_seen,
            on_start=lambda pgid: setattr(builder.trace, "pid", pgid),
        )
    except OSError as exc:
        return builder.finish(
            exit_code=None,
            stop_reason="completed",
            stderr_tail="",
            elapsed_s=0.0,
            error=f"could not start claude ({exc})",
        )
    error = None
    if ran.unreadable is not None:
        error = unreadable_output("claude", ran.unreadable)
    elif ran.stop_reason == "timeout":
        error = f"timed out after {spec.timeout_s:g} s before claude finished"
    elif ran.stop_reason == "cancelled":
        error = CANCELLED
    return builder.finish(
        exit_code=ran.exit_code,
        stop_reason=ran.stop_reason,
        stderr_tail=ran.stderr_tail,
        elapsed_s=ran.elapsed_s,
        error=error,
    )


def _stop_policy(spec: RunSpec, builder: TraceBuilder, cli_stops: bool) -> Callable[[str], str | None]:
    """Each stdout line fed to the builder; the reason to stop after it, if any.

    When the CLI ends itself at the decision (`cli_stops`), its result is awaited so the run's cost
    is known; a CLI that starts another turn instead is stopped there, as without the hook."""
    awaited: list[str] = []  # the decision, made; the CLI's own result still to come

    def after(text: str) -> str | None:
        event = builder.feed(text)
        if event is None:
            return None
        if builder.ends_run(event):
            return (awaited[0] if awaited else None) or _result_stop(builder.trace)
        reason = spec.stop(builder.trace) if spec.stop is not None else None
        if reason == "activation" and cli_stops and _launched(builder.trace, event):
            awaited[:1] = [reason]
            return None
        return reason

    return after


def _launched(trace: Trace, event: dict) -> bool:
    """The decision is a skill that launched, and the CLI has not started another turn: its hook
    ends the run next. (It does not fire for a launch that failed, such as an unknown name.)"""
    decision = trace.decision
    return decision is not None and decision.confirmed and event.get("type") != "assistant"


def _result_stop(trace: Trace) -> str:
    return "budget" if trace.result_subtype == "error_max_budget_usd" else "result"


def read_only_spec(prompt: str, workspace: Path, **fields) -> RunSpec:
    """A run that may read `workspace` but not write, edit or run anything (e.g. a judge)."""
    return RunSpec(
        prompt,
        workspace,
        tools=READ_ONLY_TOOLS,
        disallowed_tools=WRITING_TOOLS,
        permission_mode=None,
        **fields,
    )


# --- the session ----------------------------------------------------------------------


@dataclass(frozen=True)
class ClaudeAgent:
    """The `claude` CLI as an Agent: located once, isolated the same way for every run."""

    cli: ClaudeCLI
    isolation: Isolation
    environ: Mapping[str, str]
    runtime: str = "claude"
    skills_folder: str = SKILLS_SUBDIR.as_posix()
    # The stop hook ends the run on the deciding turn, before a second model request.
    requests_to_decision: ClassVar[float] = 1.0

    @property
    def version(self) -> str:
        return self.cli.version

    @property
    def path(self) -> str:
        return self.cli.path

    @property
    def temp_parent(self) -> Path | None:
        return self.isolation.temp_parent

    def workspace(self, room: Mapping[str, Path], fixture: Path | None = None):
        """A throwaway workspace with `room` installed where claude reads project skills."""
        return stage_workspace(room, self.isolation.temp_parent, fixture)

    def run(self, spec: RunSpec) -> Trace:
        return run(self.cli, spec, self.isolation, self.environ)

    def preflight(
        self,
        model: str | None = None,
        *,
        deadline: Deadline | None = None,
        cancel: Cancellation | None = None,
    ) -> None:
        preflight(self.cli, self.isolation, self.environ, model, deadline=deadline, cancel=cancel)

    def invocation(self, spec: RunSpec) -> tuple[list[str], dict[str, str]]:
        """The exact command line a run of `spec` uses, and the variables it sets or changes in the
        environment (a throwaway config dir shows as `<fresh config dir>`)."""
        argv, _ = build_argv(self.cli, spec, self.isolation)
        fresh = Path("<fresh config dir>") if self.isolation.fresh_config_dir else None
        env = self.isolation.env(self.environ, fresh)
        return argv, {k: v for k, v in env.items() if self.environ.get(k) != v}

    def probe_sandbox(
        self, *, deadline: Deadline | None = None, cancel: Cancellation | None = None
    ) -> SandboxSupport:
        """Whether claude's shell sandbox starts here (a free probe: see `probe_sandbox`)."""
        return probe_sandbox(self.cli, self.isolation, self.environ, deadline=deadline, cancel=cancel)

    def describe(self) -> dict[str, str]:
        hooked = self.cli.supports("--settings")
        stop = "a PostToolUse hook on Skill ends the run" if hooked else "the CLI is stopped at the event"
        return {**self.isolation.describe(), "decision_stop": stop}

    def redact(self, text: str) -> str:
        return Redactor.of(self.environ)(text)


def connect(
    explicit: str | None,
    environ: Mapping[str, str],
    temp_parent: Path | None = None,
    *,
    deadline: Deadline | None = None,
    cancel: Cancellation | None = None,
) -> ClaudeAgent:
    """The claude CLI located (`--claude`, `$SKILLSCOPE_CLAUDE`, PATH) with its isolation chosen;
    its probes end with the command's `deadline` or `cancel`."""
    cli = locate(explicit, environ, deadline=deadline, cancel=cancel)
    return ClaudeAgent(cli, isolation_for(environ, temp_parent), environ)


# --- preflight -------------------------------------------------------------------------


def preflight(
    cli: ClaudeCLI,
    isolation: Isolation,
    environ: Mapping[str, str],
    model: str | None = None,
    *,
    deadline: Deadline | None = None,
    cancel: Cancellation | None = None,
) -> None:
    """One tiny prompt before any paid run, within the command's `deadline` and until `cancel`;
    raises AgentUnavailable saying what to fix."""
    if not cli.supports("--setting-sources"):
        raise AgentUnavailable(
            f"claude {cli.version} cannot isolate skills (no --setting-sources): {INSTALL_HINT}"
        )
    with stage_workspace({}, isolation.temp_parent) as workspace:
        timeout = probe_timeout(deadline)
        spec = RunSpec(PREFLIGHT_PROMPT, workspace, model=model, timeout_s=timeout, cancel=cancel)
        trace = run(cli, spec, isolation, environ)
    if trace.result_seen and not trace.is_error and trace.error is None:
        return
    raise AgentUnavailable(explain_preflight(trace, timeout))


def explain_preflight(trace: Trace, timeout_s: float = PROBE_TIMEOUT_S) -> str:
    said = " ".join(f"{trace.final_message or ''} {trace.stderr_tail}".split())
    if "not logged in" in said.lower():
        return (
            "claude is not logged in: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), "
            "or run `claude` once and log in"
        )
    if trace.api_error_status in (401, 403):
        return (
            f"the API rejected the credentials ({trace.error}): check ANTHROPIC_API_KEY "
            "or ANTHROPIC_AUTH_TOKEN"
        )
    if trace.stop_reason == "cancelled":
        return "interrupted during the preflight prompt"
    if trace.stop_reason == "timeout":
        if timeout_s < PROBE_TIMEOUT_S:
            return f"the command's --timeout ran out during the preflight prompt (after {timeout_s:g} s)"
        return (
            f"claude did not answer a one-word prompt within {PROBE_TIMEOUT_S} s: "
            "check the network and ANTHROPIC_BASE_URL"
        )
    if trace.api_error_status is not None:
        return f"the API is not usable right now ({trace.error}): try again later"
    if any(s in said.lower() for s in ("connection", "econnrefused", "unable to connect", "fetch failed")):
        return f"claude cannot reach the API ({said[:200]}): check the network and ANTHROPIC_BASE_URL"
    return f"claude failed a one-word preflight prompt ({trace.error or said[:200] or 'no detail'})"
