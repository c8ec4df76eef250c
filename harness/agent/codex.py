"""Codex CLI (`codex exec --json`) as an Agent.

Codex has no skill tool: its model reads a listed `SKILL.md` with its shell tool. The decision is
therefore a heuristic, stated in every trace's notes: a command naming exactly one installed
`<name>/SKILL.md` (the `item.started` of a `command_execution`), confirmed by that command's
`item.completed` with exit code 0. A command naming several, or a skill read another way, is no
decision. The endpoint is `OPENAI_BASE_URL` + `OPENAI_API_KEY`, written into the throwaway
`CODEX_HOME/config.toml` as a provider.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness.deadline import Deadline
from harness.files import read_text
from harness.jsonfields import object_at
from harness.secrets import write_private
from harness.writer import make_folder

from . import plugin_install
from .events import EventReader, skill_read_by, status_in
from .relay import Handover
from .runtime import PluginCliAgent, writes_allowed
from .spec import AgentUnavailable, RunSpec, probe_timeout
from .trace import InitInfo

SHELL_TOOL = "exec_command"  # the name Codex's models call their shell tool
DEFAULT_BASE_URL = "https://api.openai.com/v1"
HEURISTIC_NOTE = (
    "codex has no skill tool: a skill counts as chosen when a shell command names exactly one "
    "installed <name>/SKILL.md, so these verdicts rest on that heuristic"
)
# The mode Codex documents for a host whose sandbox cannot start (a container, say).
UNSANDBOXED = "danger-full-access"
UNSANDBOXED_NOTE = (
    "codex ran without its shell sandbox (--sandbox danger-full-access): with bubblewrap on PATH it "
    "runs every command through it and cannot do so from a throwaway CODEX_HOME in the temporary "
    "folder; the throwaway HOME, CODEX_HOME and workspace were the run's only isolation"
)


def sandbox_mode(writes: bool, path: str) -> str:
    """Codex's `--sandbox` for a run with this PATH. A system `bwrap` there makes Codex wrap each
    command in it around a helper it sets up only outside the temporary folder, so every command of a
    throwaway CODEX_HOME would fail."""
    if shutil.which("bwrap", path=path):
        return UNSANDBOXED
    return "workspace-write" if writes else "read-only"


# --install plugin: `codex plugin marketplace add` and `codex plugin add` from this file. Codex lists
# a plugin's skills `<plugin>:<skill>` in its skills instructions, which `codex debug prompt-input`
# renders without sending anything.
PLUGIN_HOST = plugin_install.Host("codex", Path(".agents") / "plugins" / "marketplace.json", "add")
LISTED_SKILL = re.compile(r"^- ([^\s:]+(?::[^\s:]+)?): ", re.MULTILINE)
SKILLS_BLOCK = re.compile(r"<skills_instructions>(.*?)</skills_instructions>", re.DOTALL)


def listed_skills(prompt_input: str) -> list[str]:
    """The skill names of the skills instructions in `codex debug prompt-input`'s output."""
    names: list[str] = []
    for block in SKILLS_BLOCK.findall(prompt_input.replace("\\n", "\n")):
        available = block.partition("### Available skills")[2]
        names += LISTED_SKILL.findall(available)
    return names


# Commands that print a file given as their one operand (besides line counts and sed's range).
FILE_PRINTERS = frozenset({"cat", "head", "tail", "sed", "nl", "less", "more"})
NOT_A_FILE = re.compile(r"\d+(,\d+)?p?|\$?p")
SHELL_OPERATORS = frozenset({"|", "||", "&&", ";", "&", ">", ">>", "<"})


def file_read_by(command: str) -> str | None:
    """The one file a plain printing command shows (`cat f`, `sed -n 1,40p f`, also inside
    `bash -lc '…'`), else None: Codex reads files with its shell tool, never a read tool."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if len(words) == 3 and words[0].endswith("sh") and words[1] in ("-c", "-lc"):
        return file_read_by(words[2])
    if not words or words[0].rsplit("/", 1)[-1] not in FILE_PRINTERS or SHELL_OPERATORS & set(words):
        return None
    operands = [w for w in words[1:] if not w.startswith("-") and not NOT_A_FILE.fullmatch(w)]
    return operands[0] if len(operands) == 1 else None


class CodexEvents(EventReader):
    # Its shell runs each command through a helper of its own inside bubblewrap.
    environment_failures = (r"[^\n]*codex-linux-sandbox[^\n]*",)

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        item = object_at(event, "item")
        if kind == "thread.started":
            self.trace.init = InitInfo(
                [], [], None, None, None, None, str(event.get("thread_id") or ""), None
            )
        elif kind == "item.started" and item.get("type") == "command_execution":
            command = str(item.get("command") or "")
            made = self.call(
                str(item.get("id") or ""),
                SHELL_TOOL,
                {"command": command},
                skill=skill_read_by(command, self.installed),
                by_file=True,
            )
            made.command, made.read = command, file_read_by(command)
        elif kind == "item.completed" and item.get("type") == "command_execution":
            ok = item.get("exit_code") == 0
            self.answer(str(item.get("id") or ""), str(item.get("aggregated_output") or ""), ok=ok)
        elif kind == "item.completed" and item.get("type") == "agent_message":
            self.trace.final_message = str(item.get("text") or "")
        elif kind == "turn.completed":
            usage = object_at(event, "usage")
            self.add_usage(
                int(usage.get("input_tokens") or 0),
                int(usage.get("output_tokens") or 0),
                int(usage.get("cached_input_tokens") or 0),
            )
        elif kind == "turn.failed":
            error = object_at(event, "error")
            message = str(error.get("message") or "the turn failed")
            self.fail(message, status_in(message))

    def ends_run(self, event: dict[str, Any]) -> bool:
        return event.get("type") in ("turn.completed", "turn.failed")


class CodexAgent(PluginCliAgent[Path]):
    runtime = "codex"
    plugin_host = PLUGIN_HOST
    credential_vars = ("OPENAI_API_KEY",)
    endpoint_var = "OPENAI_BASE_URL"
    default_endpoints = ("https://api.openai.com", "https://chatgpt.com")
    default_endpoint = "https://api.openai.com/v1"
    model_environment = ("OPENAI_BASE_URL", "OPENAI_MODEL")
    requests_to_decision = 1.0  # the command naming SKILL.md arrives before the second request
    heuristic_activation = True

    def reader(self, installed: Mapping[str, Path]) -> EventReader:
        return CodexEvents(self.with_plugins(installed))

    def relayed_endpoint(self) -> tuple[str, str] | None:
        key = self.environ.get("OPENAI_API_KEY")
        return (self.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL, key) if key else None

    def command(
        self, spec: RunSpec, home: Path, handover: Handover | None = None
    ) -> tuple[list[str], dict[str, str], list[str]]:
        env = self.home_env(home, handover)
        sandbox = sandbox_mode(writes_allowed(spec), env.get("PATH", ""))
        argv = [
            self.path,
            "exec",
            "--json",
            "--strict-config",
            "--skip-git-repo-check",
            "--sandbox",
            sandbox,
            "-C",
            str(spec.workspace),
        ]
        if spec.model:
            argv += ["--model", spec.model]
        notes = [HEURISTIC_NOTE] + ([UNSANDBOXED_NOTE] if sandbox == UNSANDBOXED else [])
        if spec.effort:
            notes.append(f"codex --effort is not passed; effort {spec.effort} was not set")
        if spec.max_budget_usd:
            notes.append("codex has no spend cap; --max-budget-usd was not enforced")
        return [*argv, *spec.extra_args, "-"], env, notes  # `-`: the prompt is read from stdin

    def home_env(self, home: Path, handover: Handover | None = None) -> dict[str, str]:
        """The run's environment, its CODEX_HOME made under `home` (a copy of the installed plugins' one
        under --install plugin); the key is in the provider's config, never in the environment."""
        config = home / ".codex"
        if self.plugins is None:
            config.mkdir()
        else:
            shutil.copytree(self.plugins.config, config, symlinks=True)
        write_private(config / "config.toml", self.config_toml(handover))
        env = self.start_env()
        env.update(HOME=str(home), CODEX_HOME=str(config))
        return env

    def plugin_install_env(self, under: Path) -> tuple[Path, dict[str, str]]:
        config = make_folder(under / "codex", under)
        return config, {**self.start_env(), "HOME": str(under), "CODEX_HOME": str(config)}

    def listed_plugin_skills(self, deadline: Deadline | None) -> list[str]:
        """The skills Codex would list to its model with the plugins installed, from the prompt
        `codex debug prompt-input` renders in an empty workspace (nothing is sent)."""
        with self.home() as home, self.workspace({}) as workspace:
            done = plugin_install.host_command(
                [self.path, "debug", "prompt-input"],
                self.home_env(home),
                probe_timeout(deadline),
                "codex debug prompt-input",
                cwd=workspace,
            )
        if done.returncode:
            said = " ".join(done.stderr.split())[:300]
            raise AgentUnavailable(f"`codex debug prompt-input` could not list the plugins ({said})")
        return listed_skills(done.stdout)

    def config_toml(self, handover: Handover | None = None) -> str:
        """The throwaway config: with a `handover`, the provider is the key relay and its token the
        stand-in; the real key is written nowhere."""
        lines = []
        if self.environ.get("OPENAI_BASE_URL") or self.environ.get("OPENAI_API_KEY"):
            base_url = self.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
            if handover is not None:
                base_url = handover.base_url
            lines += [
                'model_provider = "skillscope"',
                "[model_providers.skillscope]",
                'name = "skillscope"',
                f"base_url = {json.dumps(base_url)}",
            ]
            if handover is not None:
                lines.append(f"experimental_bearer_token = {json.dumps(handover.token)}")
            lines += [
                'wire_api = "responses"',
                "request_max_retries = 0",  # fail fast: retries hide outages
                "stream_max_retries = 0",
            ]
        # Bundled skills out of the room; no plugin sync, analytics or feedback traffic. Under --install
        # plugin the installed ones are on, read from their local marketplace, and remote ones stay off.
        plugins = ["plugins = false"] if self.plugins is None else ["plugins = true", "remote_plugin = false"]
        lines += [
            "[skills.bundled]",
            "enabled = false",
            "[features]",
            *plugins,
            "[analytics]",
            "enabled = false",
            "[feedback]",
            "enabled = false",
        ]
        if self.plugins is not None:  # the marketplace and plugin tables `codex plugin` wrote
            lines.append(read_text(self.plugins.config / "config.toml"))
        return "\n".join(lines) + "\n"

    def isolation_facts(self) -> dict[str, str]:
        return {
            "built_in_skills": "disabled ([skills.bundled] enabled = false)",
            "network": "plugins, analytics and feedback off (model endpoint only)",
            "activation": "heuristic: a shell command naming exactly one installed <name>/SKILL.md",
            "credentials": "OPENAI_API_KEY kept in skillscope's key relay; the CLI holds a per-run "
            "stand-in token: the agent's tools inherit no API key"
            if self.relayed_endpoint()
            else "no OPENAI_API_KEY in the environment",
            "note": "a throwaway HOME and CODEX_HOME per run: the user's skills and config stay out; "
            "the room is read from .agents/skills",
        }


connect = CodexAgent.connect
