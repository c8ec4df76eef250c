"""The `claude` CLI as a runtime of the one drive loop: find it, isolate it, build its command
line, and end it at the decision with its own stop hook (its events read in claude_events.py).

This is the only module that knows the CLI's flags and environment variables.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import shutil
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import jsonsafe
from harness.cancel import Cancellation
from harness.deadline import Deadline
from harness.writer import make_folder, write_text

from . import claude_sockets, plugin_install
from .claude_events import ClaudeEvents
from .environment import agent_environment
from .events import EventReader
from .probes import ProbeCache, sandbox_context
from .relay import Handover
from .runtime import CliAgent, LocatedCLI, install_hint, locate_cli
from .spec import AgentUnavailable, RunSpec, SandboxSupport, probe_timeout
from .trace import Trace
from .workspace import SKILLS_SUBDIR, WorkspaceError, clean_temp_parent

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
# It confines writes, not reads. Measured on 2.1.332 with bwrap: `sandbox.filesystem.denyRead` mounts
# each folder empty for Bash (`cat`, `find /` see nothing), and a `Read(//abs/**)` deny rule refuses
# Read, Grep and Glob there and a Bash command naming the path; without bwrap only the rules hold
# (`cat $(find / ...)` reads), so the report says the sandbox did not apply.
# What claude looks up on its PATH to start the sandbox on Linux (measured on 2.1.332: bwrap and socat
# by name; macOS's Seatbelt comes with the system, which the kernel release in the probe's key names).
SANDBOX_PROGRAMS = ("bwrap", "socat")
SANDBOX_OFF = re.compile(r"Sandbox disabled:\s*(.+)")
SANDBOX_REFUSED = re.compile(r"sandbox required but unavailable:\s*(.+)")
# The sandbox probe stops at the init event; its API address is a closed loopback port, so even a
# request sent before the stop reaches nothing and costs nothing.
NOWHERE = "http://127.0.0.1:9"
CREDENTIAL_VARS = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN")
# --install plugin: `claude plugin marketplace add` and `claude plugin install` from this file.
PLUGIN_HOST = plugin_install.Host("claude", Path(".claude-plugin") / "marketplace.json")
DEFAULT_BASE_URL = "https://api.anthropic.com"
# Models on a cloud's own platform, signed in with that cloud's credentials: no key to relay.
CLOUD_SWITCHES = ("CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX")
# The variables through which claude chooses its model or endpoint, or changes what a run may do,
# besides the flags: the result cache keys on them (never on a credential).
MODEL_ENVIRONMENT = (
    "ANTHROPIC_MODEL",
    "ANTHROPIC_SMALL_FAST_MODEL",
    "ANTHROPIC_DEFAULT_OPUS_MODEL",
    "ANTHROPIC_DEFAULT_SONNET_MODEL",
    "ANTHROPIC_DEFAULT_HAIKU_MODEL",
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_BEDROCK_BASE_URL",
    "ANTHROPIC_VERTEX_BASE_URL",
    "CLAUDE_CODE_USE_BEDROCK",
    "CLAUDE_CODE_USE_VERTEX",
    "CLAUDE_CODE_MAX_OUTPUT_TOKENS",
    "CLAUDE_CODE_MAX_TURNS",
    "CLAUDE_CODE_SIMPLE",
    "CLAUDE_CODE_SAFE_MODE",
)
# What else of the harness's environment claude reads: its timeouts and retries.
OWN_ENVIRONMENT = ("API_TIMEOUT_MS", "CLAUDE_CODE_MAX_RETRIES")
# Where a claude login lives, kept only when the run uses it (no env credential, no fresh config dir).
LOGIN_ENVIRONMENT = ("HOME", "CLAUDE_CONFIG_DIR")
# A grader that may look at the workspace but never change it: only these built-in tools,
# and the writing ones refused as well, in case a CLI lacks --tools.
READ_ONLY_TOOLS = ("Read", "Glob", "Grep")
WRITING_TOOLS = ("Write", "Edit", "MultiEdit", "NotebookEdit", "Bash")


# --- locating the CLI ------------------------------------------------------------------


def locate(
    explicit: str | None,
    environ: Mapping[str, str],
    *,
    deadline: Deadline | None = None,
    cancel: Cancellation | None = None,
) -> LocatedCLI:
    """`--claude PATH`, else `$SKILLSCOPE_CLAUDE`, else `claude` on PATH; probed once (its version
    and the optional flags its --help shows), within the command's `deadline` and until `cancel`."""
    return locate_cli(
        "claude", explicit, environ, deadline, cancel, probe_environment(environ), OPTIONAL_FLAGS
    )


def probe_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """What claude's `--version` and `--help` run in: the allowlist, and no start-up traffic."""
    env = agent_environment(environ, (*MODEL_ENVIRONMENT, *OWN_ENVIRONMENT, *LOGIN_ENVIRONMENT))
    env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] = "1"
    return env


# --- isolation -------------------------------------------------------------------------


@dataclass(frozen=True)
class Isolation:
    """What keeps the runner's own skills and settings out of the room."""

    fresh_config_dir: bool  # a throwaway CLAUDE_CONFIG_DIR per run
    temp_parent: Path | None = None  # where throwaway dirs go (None: a clean temp dir)
    credential: str | None = field(default=None, repr=False)  # the env credential, kept in the relay
    credential_var: str | None = None  # the variable it came from, which the stand-in token takes

    def settings(self) -> dict[str, Any]:
        return dict(PLUGIN_SKILLS_OFF)

    def argv(
        self,
        hooks: Mapping[str, Any] | None = None,
        sandbox: bool = False,
        unreadable: Sequence[Path] = (),
        plugins: Sequence[str] = (),
    ) -> list[str]:
        # --setting-sources project leaves out the user settings where `claude plugin install` enabled
        # the room's plugins (--install plugin): they are enabled here instead.
        enabled = {**PLUGIN_SKILLS_OFF["enabledPlugins"], **dict.fromkeys(plugins, True)}
        settings = {
            **self.settings(),
            "enabledPlugins": enabled,
            **(sandbox_settings(unreadable) if sandbox else {}),
            **({"hooks": hooks} if hooks else {}),
        }
        return ["--setting-sources", "project", "--settings", json.dumps(settings)]

    def environment(self) -> tuple[str, ...]:
        """The variables of the harness's environment claude reads in a run of this isolation."""
        login = () if self.fresh_config_dir else LOGIN_ENVIRONMENT
        return (*MODEL_ENVIRONMENT, *OWN_ENVIRONMENT, *login)

    def env(self, start: Mapping[str, str], config_dir: Path | None) -> dict[str, str]:
        """The run's environment from `start` (the allowlisted variables)."""
        env = dict(start)
        env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] = "1"  # no telemetry or update checks
        env["CLAUDE_CODE_DISABLE_BUNDLED_SKILLS"] = "1"
        env.setdefault("CLAUDE_CODE_MAX_RETRIES", "0")  # fail fast; retries hide outages
        if config_dir is not None:
            env["CLAUDE_CONFIG_DIR"] = str(config_dir)
            # A throwaway HOME too: the agent's tools find no dotfile of the user's there.
            env["HOME"] = str(make_folder(config_dir / "home", config_dir))
        return env

    @contextlib.contextmanager
    def config_dir(self) -> Iterator[Path | None]:
        """A fresh config dir for one run (outside the workspace), or None to keep the user's."""
        if not self.fresh_config_dir:
            yield None
            return
        path = Path(tempfile.mkdtemp(prefix="skillscope-config-", dir=clean_temp_parent(self.temp_parent)))
        try:
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
                f"{self.credential_var} kept in skillscope's key relay; the CLI holds a per-run "
                "stand-in token: the agent's tools inherit no API key"
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


def sandbox_settings(unreadable: Sequence[Path] = ()) -> dict[str, Any]:
    """The sandbox on, and each of `unreadable` (absolute folders or files) denied to Bash and to the
    file tools."""
    if not unreadable:
        return SANDBOX_SETTINGS
    folders = [str(folder) for folder in unreadable]
    sandbox = {**SANDBOX_SETTINGS["sandbox"], "filesystem": {"denyRead": folders}}
    # `//` starts an absolute path in a permission rule (one `/` is relative to the settings file).
    rules = [f"Read(/{path})" if path.is_file() else f"Read(/{path}/**)" for path in unreadable]
    return {"sandbox": sandbox, "permissions": {"deny": rules}}


def isolation_for(environ: Mapping[str, str], temp_parent: Path | None = None) -> Isolation:
    # OAuth logins live in the user's config dir: only an env credential lets us replace it.
    var = next((v for v in CREDENTIAL_VARS if environ.get(v)), None)
    return Isolation(var is not None, temp_parent, environ[var] if var else None, var)


# --- the usage record ------------------------------------------------------------------

CONFIG_FILE = ".claude.json"  # claude's own state in its config dir, where it counts each skill's uses
DAY_MS = 86_400_000


def record_usage(
    home: Path | None, usage: Sequence[tuple[str, int, float]], now: float | None = None
) -> list[str]:
    """Write the skill usage the run is given into its fresh config dir, as claude records a skill's
    uses (count and time of the last), so its listing ranks as that install's would; a note when the
    run keeps the user's own config dir, which is never written."""
    if home is None:
        return [
            "the usage profile was not applied: claude keeps your own config dir (no ANTHROPIC_API_KEY "
            "or ANTHROPIC_AUTH_TOKEN set), which skillscope never writes"
        ]
    path = home / CONFIG_FILE
    stamp = int((time.time() if now is None else now) * 1000)
    state = jsonsafe.load(path) if path.is_file() else {}
    state["skillUsage"] = {
        name: {"usageCount": count, "lastUsedAt": stamp - round(days * DAY_MS)} for name, count, days in usage
    }
    write_text(path, json.dumps(state), home, private=True)
    return []


# --- one run ---------------------------------------------------------------------------


def stops_itself(cli: LocatedCLI, spec: RunSpec) -> bool:
    """Whether this run's CLI ends itself after a skill launches (its hook needs --settings)."""
    return spec.stop_after_skill and cli.supports("--settings")


def build_argv(
    cli: LocatedCLI, spec: RunSpec, isolation: Isolation, plugins: plugin_install.PluginRoom | None = None
) -> tuple[list[str], list[str]]:
    """The command line, and notes about requested options this CLI cannot honour; `plugins`: the room
    as installed plugins (--install plugin)."""
    hooks = STOP_AFTER_SKILL_HOOKS if stops_itself(cli, spec) else None
    argv = [
        cli.path,
        "-p",
        "--output-format",
        "stream-json",
        "--verbose",
        *isolation.argv(hooks, spec.sandbox, unreadable_folders(spec), plugins.enabled if plugins else ()),
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
    # A skill whose frontmatter lists allowed-tools asks before it runs ("Execute skill: x"): a user
    # approves it, a -p run refuses it. The room's skills are approved here, as a user would.
    called = [*room_names(spec), *(plugins.qualified if plugins else ())]
    approved = [*spec.allowed_tools, *(f"Skill({name})" for name in called)]
    if approved:
        argv += ["--allowedTools", *approved]
    if spec.tools:
        if cli.supports("--tools"):
            argv += ["--tools", ",".join(spec.tools)]
        else:
            notes.append(f"claude {cli.version} has no --tools; only --disallowedTools limited the tools")
    if spec.disallowed_tools:
        argv += ["--disallowedTools", *spec.disallowed_tools]
    argv += list(spec.extra_args)
    return argv, notes


def unreadable_folders(spec: RunSpec) -> list[Path]:
    """The run's unreadable folders less any holding its workspace, which the agent must read."""
    return [folder for folder in spec.unreadable if not spec.workspace.is_relative_to(folder)]


def room_names(spec: RunSpec) -> list[str]:
    """The skills installed for this run: the spec's, else the workspace's skills folder."""
    if spec.installed is not None:
        return sorted(spec.installed)
    folder = spec.workspace / SKILLS_SUBDIR
    try:
        return sorted(entry.name for entry in folder.iterdir() if (entry / "SKILL.md").is_file())
    except OSError:
        return []


def sandbox_refusal(stderr: str) -> str | None:
    """Why claude ran without its sandbox, in its own words, when it said so on stderr."""
    for pattern in (SANDBOX_OFF, SANDBOX_REFUSED):
        found = pattern.search(stderr)
        if found:
            return " ".join(found.group(1).split()).removesuffix(".")
    return None


def _launched(trace: Trace, event: dict[str, Any]) -> bool:
    """The decision is a skill that launched, and the CLI has not started another turn: its hook
    ends the run next. (It does not fire for a launch that failed, such as an unknown name.)"""
    decision = trace.decision
    return decision is not None and decision.confirmed and event.get("type") != "assistant"


def read_only_spec(prompt: str, workspace: Path, **fields: Any) -> RunSpec:
    """A run that may read `workspace` but not write, edit or run anything (e.g. a judge)."""
    return RunSpec(
        prompt,
        workspace,
        tools=READ_ONLY_TOOLS,
        disallowed_tools=WRITING_TOOLS,
        permission_mode=None,
        **fields,
    )


# --- the agent ------------------------------------------------------------------------


class ClaudeAgent(CliAgent[Path | None]):
    """The `claude` CLI as an Agent: located once, isolated the same way for every run, and ended
    at the decision by its own stop hook (killing its process group stays the fallback)."""

    runtime = "claude"
    skills_folder = SKILLS_SUBDIR.as_posix()
    # The stop hook ends the run on the deciding turn, before a second model request.
    requests_to_decision = 1.0
    shown_home = "<fresh config dir>"
    optional_flags = OPTIONAL_FLAGS
    credential_vars = CREDENTIAL_VARS
    endpoint_var = "ANTHROPIC_BASE_URL"
    default_endpoints = ("https://api.anthropic.com",)
    default_endpoint = "https://api.anthropic.com"
    # The variables through which claude chooses its model or endpoint, or changes what a run may do,
    # besides the flags: the result cache keys on them (never on a credential).
    model_environment = MODEL_ENVIRONMENT
    own_environment = OWN_ENVIRONMENT

    def __init__(
        self,
        cli: LocatedCLI,
        environ: Mapping[str, str],
        temp_parent: Path | None = None,
        pass_env: Sequence[str] = (),
        isolation: Isolation | None = None,
        plugins: plugin_install.PluginRoom | None = None,
    ):
        super().__init__(cli, environ, temp_parent, pass_env)
        self.isolation = isolation or isolation_for(environ, temp_parent)
        self.temp_parent = self.isolation.temp_parent
        self.plugins = plugins  # the room installed as plugins (--install plugin), while installed

    def declared_environment(self) -> tuple[str, ...]:
        return self.isolation.environment()

    def moved(self, **changed: str) -> ClaudeAgent:
        """This agent with some of the harness's variables changed (a probe's endpoint, a TMPDIR)."""
        environ = {**self.environ, **changed}
        return ClaudeAgent(
            self.cli, environ, pass_env=self.pass_env, isolation=self.isolation, plugins=self.plugins
        )

    @classmethod
    def probe_env(cls, environ: Mapping[str, str]) -> Mapping[str, str]:
        return probe_environment(environ)

    def command(
        self, spec: RunSpec, home: Path | None, handover: Handover | None = None
    ) -> tuple[list[str], dict[str, str], list[str]]:
        argv, notes = build_argv(self.cli, spec, self.isolation, self.plugins)
        env = self.isolation.env(self.start_env(), home)
        if spec.skill_usage:
            notes += record_usage(home, spec.skill_usage)
        if handover is not None and self.isolation.credential_var:
            env["ANTHROPIC_BASE_URL"] = handover.base_url
            env[self.isolation.credential_var] = handover.token
        return argv, env, notes

    def relayed_endpoint(self) -> tuple[str, str] | None:
        if not self.isolation.credential or any(self.environ.get(v) for v in CLOUD_SWITCHES):
            return None
        return self.environ.get("ANTHROPIC_BASE_URL") or DEFAULT_BASE_URL, self.isolation.credential

    def caps_run_spend(self) -> bool:
        return self.cli.supports("--max-budget-usd")

    def reader(self, installed: Mapping[str, Path]) -> EventReader:
        if self.plugins is None:
            return ClaudeEvents(installed)
        # the room's skills come from the plugins (run from the staged copy, which their base dir names),
        # the rest (a canary's) from the workspace
        return ClaudeEvents({**installed, **self.plugins.staged}, self.plugins.qualified)

    def home(self) -> AbstractContextManager[Path | None]:
        """The run's own config dir (a copy of the installed plugins' one under --install plugin), or
        None when claude's login lives in the user's."""
        if self.plugins is None:
            return self.isolation.config_dir()
        return self.plugin_home(self.plugins.config)

    @contextlib.contextmanager
    def plugin_home(self, installed: Path) -> Iterator[Path | None]:
        with self.isolation.config_dir() as config:
            if config is not None:
                shutil.copytree(installed, config, symlinks=True, dirs_exist_ok=True)
            yield config

    @contextlib.contextmanager
    def installed_as_plugins(
        self,
        repo: Path,
        room: Mapping[str, Path],
        *,
        deadline: Deadline | None = None,
        cancel: Cancellation | None = None,
    ) -> Iterator[None]:
        """The room installed through `claude plugin` from the repo's marketplace into a throwaway
        config dir, every skill of it checked listed by claude before any case; AgentUnavailable
        with one sentence when one is not."""
        if not self.isolation.fresh_config_dir:
            raise AgentUnavailable(
                "--install plugin installs into a throwaway config dir, which needs the API key in the "
                f"environment ({' or '.join(CREDENTIAL_VARS)}); set it, or use --install copy"
            )
        with self.fresh_dir("plugins") as under:
            try:
                catalog, staged = plugin_install.stage(repo, room, under)
            except WorkspaceError as exc:
                raise AgentUnavailable(str(exc)) from None
            config = make_folder(under / "config", under)
            ids = plugin_install.install(
                self.cli.path, self.isolation.env(self.start_env(), config), catalog, PLUGIN_HOST
            )
            self.plugins = plugin_install.PluginRoom(config, ids)
            try:
                listed = self.listed_skills(deadline, cancel)
                qualified, missing = plugin_install.qualified_names(listed, list(room))
                if missing:
                    raise AgentUnavailable(plugin_install.missing_sentence(missing, PLUGIN_HOST))
                self.plugins = plugin_install.PluginRoom(config, ids, qualified, staged)
                yield
            finally:
                self.plugins = None

    def listed_skills(self, deadline: Deadline | None, cancel: Cancellation | None) -> list[str]:
        """The skills claude's init event lists with the plugins installed, read from a run stopped at
        that event (its API address a closed port, so nothing is spent)."""
        nowhere = self.moved(ANTHROPIC_BASE_URL=NOWHERE)
        with nowhere.workspace({}) as workspace:
            spec = RunSpec(
                "plugin listing probe",
                workspace,
                installed={},
                timeout_s=probe_timeout(deadline),
                cancel=cancel,
                stop=lambda trace: "probed" if trace.init is not None else None,
            )
            trace = nowhere.run(spec)
        if trace.init is None:
            why = trace.error or trace.stderr_tail.strip()[:200] or "no init event"
            raise AgentUnavailable(f"claude did not start to list the installed plugins ({why})")
        return trace.init.skills_without_builtins

    def check_ready(self) -> None:
        if not self.cli.supports("--setting-sources"):
            hint = install_hint("claude")
            raise AgentUnavailable(
                f"claude {self.version} cannot isolate skills (no --setting-sources): {hint}"
            )

    def ends_itself_at(self, reason: str, spec: RunSpec, trace: Trace, event: dict[str, Any]) -> bool:
        """At a launched skill the stop hook ends the run once the CLI has printed its result (and
        cost); a CLI that starts another turn instead is stopped there, as without the hook."""
        return reason == "activation" and stops_itself(self.cli, spec) and _launched(trace, event)

    def run(self, spec: RunSpec) -> Trace:
        """One run; with the sandbox on and a TMPDIR too long for its sockets, claude gets a short
        private one instead (claude_sockets.py says why)."""
        if not spec.sandbox:
            return super().run(spec)
        with claude_sockets.short_temp_dir(self.environ) as short:
            if short is None:
                return super().run(spec)
            return self.moved(TMPDIR=short).run(spec)

    def conclude(self, spec: RunSpec, trace: Trace) -> None:
        if spec.sandbox:
            trace.sandbox_applied = trace.init.sandbox_enabled if trace.init else None
            trace.sandbox_reason = sandbox_refusal(trace.stderr_tail)
            broken = claude_sockets.broken_sandbox(trace, self.environ)
            if broken:  # its init said on, but it gave up at the first command
                trace.sandbox_applied, trace.sandbox_reason = False, broken

    def isolation_facts(self) -> dict[str, str]:
        return self.isolation.describe()

    def describe(self) -> dict[str, str]:
        hooked = self.cli.supports("--settings")
        stop = "a PostToolUse hook on Skill ends the run" if hooked else "the CLI is stopped at the event"
        facts = {**self.isolation_facts(), "decision_stop": stop}
        exposure = self.key_exposure()
        if exposure and self.isolation.credential:  # the report claims no more than holds
            facts["credentials"] = f"{exposure}: the agent's tools could read the key"
        return facts

    def probe_sandbox(
        self, *, deadline: Deadline | None = None, cancel: Cancellation | None = None
    ) -> SandboxSupport:
        """Whether claude's sandbox starts here: kept from an earlier run on this machine while nothing
        it depends on has changed (probes.py), else found by `started_sandbox`."""
        if not self.cli.supports("--settings"):
            return SandboxSupport(False, f"claude {self.version} has no --settings to turn its sandbox on")
        started = functools.partial(self.started_sandbox, deadline, cancel)  # run only on a miss
        return ProbeCache.of(self.environ).sandbox(self.cli.path, self.sandbox_context(), started)

    def sandbox_context(self) -> dict[str, Any]:
        """What the sandbox probe's verdict depends on besides the CLI. The probe passes the sandbox
        settings alone: a run's unreadable folders are mounts made per command, so they never decide
        whether the sandbox starts (a run they break says so itself)."""
        return sandbox_context(SANDBOX_PROGRAMS, self.environ.get("PATH"), sandbox_settings())

    def started_sandbox(self, deadline: Deadline | None, cancel: Cancellation | None) -> SandboxSupport:
        """Start claude with its sandbox on and read its init event, then stop it there: no model
        request is answered (the API address is a closed loopback port), so the probe costs nothing."""
        nowhere = self.moved(ANTHROPIC_BASE_URL=NOWHERE)
        with self.workspace({}) as workspace:
            spec = RunSpec(
                "sandbox probe",
                workspace,
                sandbox=True,
                timeout_s=probe_timeout(deadline),
                cancel=cancel,
                stop=lambda trace: "probed" if trace.init is not None else None,
            )
            trace = nowhere.run(spec)
        if trace.sandbox_applied:
            return SandboxSupport(True)
        if trace.sandbox_applied is None:
            if trace.init is None:
                why = trace.error or trace.stderr_tail.strip()[:200] or "no init event"
                return SandboxSupport(None, f"claude did not start for the sandbox probe ({why})")
            return SandboxSupport(None, f"claude {self.version} does not report whether its sandbox is on")
        reason = trace.sandbox_reason or "claude reported its sandbox off and gave no reason"
        return SandboxSupport(False, reason)


connect = ClaudeAgent.connect
