"""The one drive loop every agent CLI runs through: a throwaway home per run, its JSON lines read
into a Trace, the stop at the decision, the failure explained, and a one-word preflight.

Each runtime module (claude, copilot, codex, gemini, opencode) says only what is its own: the
command line, the environment and config that isolate it, where it reads skills, how its events
read, and (claude) how its CLI ends itself at the decision.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar
from urllib.parse import urlsplit, urlunsplit

from harness.cancel import Cancellation
from harness.deadline import Deadline
from harness.secrets import Redactor

from . import plugin_install
from .environment import agent_environment
from .events import EventReader
from .failures import explain, explain_preflight, unreadable_output
from .keyreach import reach
from .plant import plant_home, routed_through
from .plugin_install import Host, PluginRoom
from .probes import ProbeCache
from .process import Captured, Streamed, capture, stream
from .relay import SHOWN, Handover, relay, unproxied
from .spec import PROBE_TIMEOUT_S, AgentUnavailable, RetryRule, RunSpec, SandboxSupport, probe_timeout
from .trace import Trace
from .workspace import (
    AGENTS_SKILLS_SUBDIR,
    WorkspaceError,
    clean_temp_parent,
    installed_skills,
    stage_workspace,
)

if TYPE_CHECKING:
    from typing_extensions import Self  # typing's own from Python 3.11

    from harness.model.listing import ListingRule

PREFLIGHT_PROMPT = "Reply with the single word: ok"
# What a run's `home()` yields: a throwaway folder, or (claude without an env credential) None.
HomeT = TypeVar("HomeT", Path, Path | None)


def pins() -> dict[str, dict[str, str]]:
    """Each agent CLI's npm package, pinned version and executable, from harness/data/agents.json."""
    text = resources.files("harness").joinpath("data/agents.json").read_text(encoding="utf-8")
    pinned: dict[str, dict[str, str]] = json.loads(text)
    return pinned


def install_hint(runtime: str) -> str:
    pin = pins()[runtime]
    return (
        f"install it with `npm install -g {pin['package']}@{pin['version']}`, or pass --{runtime} PATH "
        f"(or set SKILLSCOPE_{runtime.upper()})"
    )


@dataclass(frozen=True)
class LocatedCLI:
    """A runtime's CLI as found and probed: its path, its version, and which of the optional flags
    the runtime asked about its `--help` shows."""

    path: str
    version: str
    optional_flags: frozenset[str] = frozenset()

    def supports(self, flag: str) -> bool:
        return flag in self.optional_flags


@dataclass(frozen=True)
class CliLookup:
    """Where a runtime's CLI would come from, found without running it (what a dry run says)."""

    runtime: str
    wanted: str  # the executable looked for: the pinned name, or what the flag or variable gave
    source: str  # "PATH", "--<runtime>" or "$SKILLSCOPE_<RUNTIME>"
    pinned: str  # the version skillscope is tested with
    path: str | None  # where it was found; None: not installed here

    def sentence(self) -> str:
        """One line naming the CLI a run would use, its pinned version, and whether it is here."""
        head = f"Agent CLI: {self.runtime} (`{self.wanted}` from {self.source}, pinned {self.pinned})"
        if self.path is None:
            return f"{head} is not installed here; a real run needs it: {install_hint(self.runtime)}."
        return f"{head} was found at {self.path}; a dry run does not start it, so its version is unchecked."


def find_cli(runtime: str, explicit: str | None, environ: Mapping[str, str]) -> CliLookup:
    """`runtime`'s CLI as `--<runtime> PATH`, else `$SKILLSCOPE_<RUNTIME>`, else the pinned
    executable's name on PATH names it; nothing is run."""
    variable = f"SKILLSCOPE_{runtime.upper()}"
    pin = pins()[runtime]
    wanted = explicit or environ.get(variable) or None
    source = f"--{runtime}" if explicit else f"${variable}" if wanted else "PATH"
    name = wanted or pin["bin"]
    path = shutil.which(name, path=environ.get("PATH")) if "/" not in name else name
    if path is not None and not Path(path).is_file():
        path = None
    return CliLookup(runtime, name, source, pin["version"], path)


def locate_cli(
    runtime: str,
    explicit: str | None,
    environ: Mapping[str, str],
    deadline: Deadline | None = None,
    cancel: Cancellation | None = None,
    probe_env: Mapping[str, str] | None = None,
    optional_flags: Sequence[str] = (),
) -> LocatedCLI:
    """`runtime`'s CLI: `--<runtime> PATH`, else `$SKILLSCOPE_<RUNTIME>`, else the pinned
    executable's name on PATH; its `--version` (and, to learn which `optional_flags` it has, its
    `--help`) probed in `probe_env` (default `environ`), within the command's time, once per machine
    and executable: the answers are kept in the user's cache (probes.py) until the file changes."""
    found = find_cli(runtime, explicit, environ)
    path = found.path
    if path is None:
        if found.source == "PATH":
            raise AgentUnavailable(f"{runtime} CLI not found on PATH: {install_hint(runtime)}")
        raise AgentUnavailable(
            f"{runtime} CLI not found at {found.wanted} (from {found.source}): {install_hint(runtime)}"
        )
    env = environ if probe_env is None else probe_env
    cache = ProbeCache.of(environ)
    kept = cache.get(path, "--version")
    if kept is None:
        done = probe(path, "--version", install_hint(runtime), env, deadline, cancel)
    said = kept if kept is not None else done.stdout + done.stderr
    match = re.search(r"\d+\.\d+\.\d+", said)
    if match is None:
        raise AgentUnavailable(
            f"{path} did not report a {runtime} version ({said.strip()[:200]!r}): {install_hint(runtime)}"
        )
    if kept is None:
        cache.put(path, "--version", said)  # only an answer that reads as a version is kept
    shown: set[str] = set()
    if optional_flags:
        help_text = cache.get(path, "--help")
        if help_text is None:
            help_text = probe(path, "--help", install_hint(runtime), env, deadline, cancel).stdout
            cache.put(path, "--help", help_text)
        shown = set(re.findall(r"(?<![\w-])--[a-zA-Z][\w-]*", help_text))
    return LocatedCLI(path, match.group(0), frozenset(f for f in optional_flags if f in shown))


def probe(
    path: str,
    flag: str,
    hint: str,
    env: Mapping[str, str],
    deadline: Deadline | None,
    cancel: Cancellation | None,
) -> Captured:
    """What `path flag` prints, or AgentUnavailable ending in `hint` (how to install it); a hang is
    bounded like every other phase and its group killed."""
    timeout = probe_timeout(deadline)
    try:
        done = capture([path, flag], env=env, timeout_s=timeout, cancel=cancel)
    except OSError as exc:
        raise AgentUnavailable(f"could not run `{path} {flag}` ({exc}): {hint}") from exc
    if done.stopped == "cancelled":
        raise AgentUnavailable(f"interrupted while `{path} {flag}` ran")
    if done.stopped == "timeout":
        if timeout < PROBE_TIMEOUT_S:
            why = " (the command's --timeout ran out)"
        else:
            why = "; it hangs rather than answering, so check that it runs from a shell"
        raise AgentUnavailable(f"`{path} {flag}` did not finish within {timeout:g} s{why}")
    if done.code != 0:
        detail = (done.stderr or done.stdout).strip()[:200]
        raise AgentUnavailable(f"`{path} {flag}` exited {done.code} ({detail}): {hint}")
    return done


# --- the agent ----------------------------------------------------------------------------


class CliAgent(ABC, Generic[HomeT]):
    """An agent CLI run with a throwaway home per run, through the one drive loop (`run`).

    Subclasses set `runtime`, `skills_folder`, `requests_to_decision` and the variables naming
    their credentials and endpoint, and implement `command`, `reader` and `isolation_facts`; the
    hooks below (`probe_env`, `check_ready`, `home`, `ends_itself_at`, `conclude`) default to
    what most runtimes need.
    """

    runtime = "cli"
    skills_folder = AGENTS_SKILLS_SUBDIR.as_posix()  # where Copilot, Codex, Gemini and OpenCode look
    requests_to_decision = 1.0
    heuristic_activation = False  # True where no skill tool exists and a command is read instead
    # The prompt goes on stdin, never on the command line: a judge's evidence can exceed the kernel's
    # limit on one argument (128 KiB). A runtime that cannot read stdin says False and takes argv.
    prompt_on_stdin = True
    optional_flags: tuple[str, ...] = ()  # flags used only when the CLI's --help shows them
    shown_home = "<fresh home>"  # how --dry-run shows the throwaway home of `home()`
    credential_vars: tuple[str, ...]  # where its API key comes from: a failed preflight names them
    endpoint_var: str  # the variable naming its API's address
    default_endpoint = "its provider's default API"  # where requests go when endpoint_var is unset
    default_endpoints: tuple[str, ...] = ()  # those addresses as URLs, kept off the tripwire's proxy
    # The variables choosing its model or endpoint besides the flags: part of a cached sample's key, so
    # never a credential (a key is a digest anyone can recompute from its parts).
    model_environment: tuple[str, ...] = ()
    # Further variables of the harness's environment its CLI reads (besides those every CLI needs to
    # start, see environment.py): with `model_environment`, the whole allowlist of the runtime.
    own_environment: tuple[str, ...] = ()
    # Its CLI's own failures that a fresh run (new workspace, new session) may not repeat: see `retry`.
    retry_on: tuple[RetryRule, ...] = ()

    def endpoint_line(self) -> str:
        """Where its requests would go, and so who bills them: what a dry run shows before money is spent.
        Credentials written into the URL are left out."""
        value = self.environ.get(self.endpoint_var, "").strip()
        if value:
            shown = value
            with contextlib.suppress(ValueError):  # a malformed port: shown as written
                parts = urlsplit(value)
                if parts.username or parts.password:
                    host = (parts.hostname or "") + ("" if parts.port is None else f":{parts.port}")
                    shown = urlunsplit(parts._replace(netloc=host))
            return f"Endpoint ({self.runtime}): {self.endpoint_var}={shown} (from the environment)"
        unset = f"the default ({self.endpoint_var} is not set)"
        return f"Endpoint ({self.runtime}): {self.default_endpoint}, {unset}"

    def __init__(
        self,
        cli: LocatedCLI,
        environ: Mapping[str, str],
        temp_parent: Path | None = None,
        pass_env: Sequence[str] = (),
    ):
        self.cli, self.path, self.version = cli, cli.path, cli.version
        # The harness's environment, read for the endpoint and credentials: never handed on whole.
        self.environ = dict(environ)
        self.temp_parent = temp_parent
        self.pass_env = tuple(pass_env)  # what the user named with --pass-env
        self.redactor = Redactor.of(environ)  # every secret of the harness's, kept out of what it keeps
        self.plugins: PluginRoom | None = None  # the room installed as plugins (--install plugin), while so

    def declared_environment(self) -> tuple[str, ...]:
        """The variables of the harness's environment this runtime's CLI reads."""
        return (*self.model_environment, *self.own_environment)

    def start_env(self) -> dict[str, str]:
        """The environment every run's CLI starts from: the allowlist (environment.py), never a copy
        of the harness's; `command` adds the run's own home and config."""
        return agent_environment(self.environ, self.declared_environment(), self.pass_env)

    def caps_run_spend(self) -> bool:
        return False  # most agent CLIs have no spend cap of their own

    @classmethod
    def connect(
        cls,
        explicit: str | None,
        environ: Mapping[str, str],
        temp_parent: Path | None = None,
        *,
        deadline: Deadline | None = None,
        cancel: Cancellation | None = None,
        pass_env: Sequence[str] = (),
    ) -> Self:
        """The runtime's CLI located (`--<runtime> PATH`, `$SKILLSCOPE_<RUNTIME>`, PATH) and probed,
        within the command's `deadline` and until `cancel`; its runs get `pass_env` besides its
        allowlist."""
        env = cls.probe_env(environ)
        cli = locate_cli(cls.runtime, explicit, environ, deadline, cancel, env, cls.optional_flags)
        return cls(cli, environ, temp_parent, pass_env)

    @classmethod
    def stand_in(
        cls,
        explicit: str | None,
        environ: Mapping[str, str],
        temp_parent: Path | None = None,
        pass_env: Sequence[str] = (),
    ) -> tuple[Self, CliLookup]:
        """For a dry run, which never starts the CLI: an agent as the pinned version would be, at
        the path where its CLI was found (else its bare name), with where that was."""
        found = find_cli(cls.runtime, explicit, environ)
        cli = LocatedCLI(found.path or found.wanted, found.pinned, frozenset(cls.optional_flags))
        return cls(cli, environ, temp_parent, pass_env), found

    # --- what a runtime says ------------------------------------------------------------

    @classmethod
    def probe_env(cls, environ: Mapping[str, str]) -> Mapping[str, str]:
        """The environment its CLI's probes (`--version`, `--help`) run in: what every CLI needs to
        start and the runtime's own variables."""
        return agent_environment(environ, (*cls.model_environment, *cls.own_environment))

    @abstractmethod
    def command(
        self, spec: RunSpec, home: HomeT, handover: Handover | None = None
    ) -> tuple[list[str], dict[str, str], list[str]]:
        """argv, environment and notes (options it could not honour) for one run, its state in `home`
        (see `home()`); with a `handover`, the CLI is given its address and stand-in token in place of
        the endpoint and key (relay.py)."""

    def model_endpoints(self) -> tuple[str, ...]:
        """The addresses its model requests go to, as the environment names them: never sent through the
        tripwire's proxy."""
        value = self.environ.get(self.endpoint_var, "").strip()
        return (value,) if value else self.default_endpoints

    def relayed_endpoint(self) -> tuple[str, str] | None:
        """(the endpoint's base URL, the API key) where the key comes from the environment and can go
        through the key relay; None where the runtime uses a login of its own."""
        return None

    def key_exposure(self) -> str | None:
        """Why the agent's tools could read its model credential here, in one sentence; None when the
        key stays in the relay and nothing else they can reach holds it (keyreach.py)."""
        endpoint = self.relayed_endpoint()
        if endpoint is None:
            return (
                f"{self.runtime} uses a login or credential of its own here (no API key from the "
                "environment for skillscope's key relay), which its CLI and so its tools can read"
            )
        why = reach([endpoint[1]])
        return f"{self.runtime}'s API key stays in skillscope's key relay, but {why}" if why else None

    @contextlib.contextmanager
    def relay(self) -> Iterator[Handover | None]:
        """The run's key relay, or None where the runtime has no key for one."""
        endpoint = self.relayed_endpoint()
        if endpoint is None:
            yield None
            return
        with relay(*endpoint) as handover:
            yield handover

    @abstractmethod
    def reader(self, installed: Mapping[str, Path]) -> EventReader:
        """A fresh reader of one run's events, knowing the skills installed for it."""

    @abstractmethod
    def isolation_facts(self) -> dict[str, str]:
        """What keeps the user's own skills, settings and traffic out, for the report."""

    def check_ready(self) -> None:
        """Raise AgentUnavailable when something the runtime needs is missing (before any run)."""
        return  # most runtimes need nothing beyond their CLI

    def home(self) -> AbstractContextManager[HomeT]:
        """A throwaway home for one run (config, state, sessions), outside the workspace; None where
        the runtime keeps the user's own."""
        return self.fresh_dir(self.runtime)

    def ends_itself_at(self, reason: str, spec: RunSpec, trace: Trace, event: dict[str, Any]) -> bool:
        """Whether the CLI ends this run by itself right after the stop `reason` its policy just
        gave: its own last event is then awaited (with its cost) instead of killing it now."""
        return False

    def conclude(self, spec: RunSpec, trace: Trace) -> None:
        """Read what only the finished run tells (e.g. whether its shell sandbox applied)."""
        return

    # --- the Agent protocol -------------------------------------------------------------

    def workspace(
        self, room: Mapping[str, Path], fixture: Path | None = None
    ) -> AbstractContextManager[Path]:
        if self.plugins is not None:  # the room's skills come from the plugins; only others are copied
            room = {name: path for name, path in room.items() if name not in self.plugins.staged}
        return stage_workspace(room, self.temp_parent, fixture, skills_subdir=Path(self.skills_folder))

    def with_plugins(self, installed: Mapping[str, Path]) -> dict[str, Path]:
        """The skills a run's reader credits: `installed`, and under --install plugin the room's, from
        their staged copies (a plugin's base directory names them)."""
        return dict(installed) if self.plugins is None else {**installed, **self.plugins.staged}

    def installed_as_plugins(
        self,
        repo: Path,
        room: Mapping[str, Path],
        *,
        deadline: Deadline | None = None,
        cancel: Cancellation | None = None,
    ) -> AbstractContextManager[None]:
        """The room installed through the host's own plugin mechanism (--install plugin); a runtime
        without one that works offline says so."""
        raise AgentUnavailable(f"--install plugin is not supported on {self.runtime}; use --install copy")

    def redact(self, text: str) -> str:
        return self.redactor(text)

    @property
    def listing(self) -> ListingRule:
        """How this runtime's CLI lists the room to its model (measured; see harness/data/listing.json)."""
        from harness.model.listing import listing_rule  # routing's room, not a behavioral run's

        return listing_rule(self.runtime)

    def describe(self) -> dict[str, str]:
        facts = {"runtime": self.runtime, "skills_folder": self.skills_folder, "home": "fresh"}
        facts.update(self.isolation_facts())
        exposure = self.key_exposure()
        if exposure:  # the report claims no more than holds
            facts["credentials"] = f"{exposure}: the agent's tools could read the key"
        return facts

    def run(self, spec: RunSpec) -> Trace:
        """Run one prompt to its last event, its stop policy, its timeout or `spec.cancel`. Never
        raises for the agent's failures: they are recorded on the Trace (`error`, `stop_reason`)."""
        installed = spec.installed
        if installed is None:
            installed = installed_skills(spec.workspace, Path(self.skills_folder))
        reader = self.reader(installed)
        with self.home() as home, self.relay() as handover:
            argv, env, notes = self.command(spec, home, handover)
            if spec.proxy is not None:
                env = routed_through(env, spec.proxy, self.model_endpoints())
            if handover is not None:
                env = unproxied(env)
            reader.trace.notes.extend(notes)
            unplanted = plant_home(env, spec.home_files, self.environ.get("HOME"))
            if unplanted is not None:
                reader.trace.notes.append(unplanted)
            trace = self.drive(argv, env, spec, reader)
        self.conclude(spec, trace)
        trace.retryable = next((rule.why for rule in self.retry_on if rule.matches(trace)), None)
        return trace

    def drive(self, argv: list[str], env: dict[str, str], spec: RunSpec, reader: EventReader) -> Trace:
        """The loop: each stdout line to the reader, then to the stop policy; the CLI's own end
        awaited where it makes one; the process group killed whatever happens."""
        trace = reader.trace
        if spec.cancel is not None and spec.cancel.is_set():
            trace.error = f"interrupted: skillscope was cancelled before {self.runtime} started"
            trace.stop_reason = "cancelled"
            return reader.finish()
        awaited: list[str] = []  # a stop reason whose run the CLI ends itself

        def on_line(text: str) -> str | None:
            event = reader.feed(text)
            if event is None:
                return None
            if reader.ends_run(event):
                trace.result_seen = True
                return awaited[0] if awaited else reader.result_reason()
            reason = spec.stop(trace) if spec.stop is not None else None
            if reason is not None and self.ends_itself_at(reason, spec, trace, event):
                awaited[:1] = [reason]
                return None
            return reason

        try:
            ran = stream(
                argv,
                cwd=Path(spec.workspace),
                env=env,
                stdin=spec.prompt.encode("utf-8") if self.prompt_on_stdin else b"",
                timeout_s=spec.timeout_s,
                cancel=spec.cancel,
                keep_log=spec.keep_log,
                redact=self.redactor,
                on_line=on_line,
                # After its last event the CLI ends by itself: give it a moment for a real exit code.
                ends_itself=lambda reason: reason in (None, "result", "budget") or trace.result_seen,
                on_start=lambda pgid: setattr(trace, "pid", pgid),
            )
        except OSError as exc:
            trace.error = f"could not start {self.runtime} ({exc})"
            trace.stop_reason = "completed"
            return reader.finish()
        return ended(self.runtime, reader, ran, spec.timeout_s)

    def invocation(self, spec: RunSpec) -> tuple[list[str], dict[str, str]]:
        """The command line a run of `spec` uses and the variables it sets or changes (for --dry-run);
        the throwaway home shows as `shown_home`."""
        with self.home() as home:
            argv, env, _ = self.command(spec, home, SHOWN if self.relayed_endpoint() else None)
        fresh = str(home) if home is not None else None

        def shown(text: str) -> str:
            return text.replace(fresh, self.shown_home) if fresh else text

        changed = {k: shown(v) for k, v in env.items() if self.environ.get(k) != v}
        return [shown(arg) for arg in argv], changed

    def preflight(
        self,
        model: str | None = None,
        *,
        deadline: Deadline | None = None,
        cancel: Cancellation | None = None,
    ) -> None:
        """One tiny prompt before any paid run, within the command's `deadline` and until `cancel`;
        it passes when the run did not fail, else raises AgentUnavailable saying what to fix."""
        self.check_ready()
        with self.workspace({}) as workspace:
            timeout = probe_timeout(deadline)
            spec = RunSpec(PREFLIGHT_PROMPT, workspace, model=model, timeout_s=timeout, cancel=cancel)
            trace = self.run(spec)
        if trace.failure is not None:
            raise AgentUnavailable(
                explain_preflight(self.runtime, self.credential_vars, self.endpoint_var, trace, timeout)
            )

    def probe_sandbox(
        self, *, deadline: Deadline | None = None, cancel: Cancellation | None = None
    ) -> SandboxSupport:
        """No shell sandbox skillscope can turn on for this runtime: the probe needs no run."""
        return SandboxSupport(False, f"skillscope cannot turn on a shell sandbox for {self.runtime}")

    @contextlib.contextmanager
    def fresh_dir(self, kind: str) -> Iterator[Path]:
        """A throwaway directory outside any workspace, removed on exit."""
        path = Path(tempfile.mkdtemp(prefix=f"skillscope-{kind}-", dir=clean_temp_parent(self.temp_parent)))
        try:
            yield path
        finally:
            shutil.rmtree(path, ignore_errors=True)


class PluginCliAgent(CliAgent[HomeT]):
    """A CLI whose host installs plugins offline from a local marketplace (--install plugin): the repo
    staged without answer keys, its marketplace added and each plugin installed in a throwaway home,
    every room skill checked listed before any case. A subclass says where and how its host lists."""

    plugin_host: Host

    @contextlib.contextmanager
    def installed_as_plugins(
        self,
        repo: Path,
        room: Mapping[str, Path],
        *,
        deadline: Deadline | None = None,
        cancel: Cancellation | None = None,
    ) -> Iterator[None]:
        """AgentUnavailable with one sentence when the install fails or a room skill is not listed."""
        host = self.plugin_host
        with self.fresh_dir("plugins") as under:
            try:
                catalog, staged = plugin_install.stage(repo, room, under)
            except WorkspaceError as exc:
                raise AgentUnavailable(str(exc)) from None
            config, env = self.plugin_install_env(under)
            ids = plugin_install.install(self.path, env, catalog, host)
            self.plugins = PluginRoom(config, ids, {}, staged)
            try:
                qualified, missing = self.plugin_names(self.listed_plugin_skills(deadline), list(room))
                if missing:
                    raise AgentUnavailable(plugin_install.missing_sentence(missing, host))
                self.plugins = PluginRoom(config, ids, qualified, staged)
                yield
            finally:
                self.plugins = None

    @abstractmethod
    def plugin_install_env(self, under: Path) -> tuple[Path, dict[str, str]]:
        """Where the plugins are installed under `under`, and the environment the host's plugin commands
        run in."""

    @abstractmethod
    def listed_plugin_skills(self, deadline: Deadline | None) -> list[str]:
        """The skill names the host lists with the plugins installed."""

    def plugin_names(self, listed: list[str], room: list[str]) -> tuple[dict[str, str], list[str]]:
        """Each listed `<plugin>:<skill>` name with the room skill it is, and the room skills not listed;
        a host that lists plugin skills by their bare name overrides this."""
        return plugin_install.qualified_names(listed, room)


def ended(runtime: str, reader: EventReader, ran: Streamed, timeout_s: float) -> Trace:
    """The reader's trace once the CLI's process has ended as `ran` tells: how, with what stderr,
    after how long, and (`Trace.error`) why the run failed."""
    trace = reader.finish()
    trace.exit_code, trace.stop_reason = ran.exit_code, ran.stop_reason
    trace.stderr_tail, trace.elapsed_s = ran.stderr_tail, ran.elapsed_s
    if ran.unreadable:
        trace.error = unreadable_output(runtime, ran.unreadable)
    else:
        trace.error = explain(runtime, trace, timeout_s)
    return trace


def writes_allowed(spec: RunSpec) -> bool:
    """The run may change its workspace (behavioral), rather than only decide (routing, judge)."""
    return bool(spec.permission_mode) and not spec.tools
