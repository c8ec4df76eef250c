"""GitHub Copilot CLI (`copilot -p … --output-format json`) as an Agent.

Its `skill` tool takes `{"skill": name}` like claude's; `tool.execution_start` is the decision and
`tool.execution_complete` (success, found) the confirmation. A model endpoint of the user's own
(BYOK: `COPILOT_PROVIDER_BASE_URL`, `COPILOT_PROVIDER_API_KEY`, `COPILOT_MODEL`,
`COPILOT_PROVIDER_TYPE`) needs no GitHub login and lets the CLI run offline.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness.deadline import Deadline
from harness.files import read_text
from harness.jsonfields import object_at
from harness.writer import make_folder

from . import plugin_install
from .events import EventReader
from .relay import Handover
from .runtime import PluginCliAgent, writes_allowed
from .spec import AgentUnavailable, RunSpec, probe_timeout
from .trace import InitInfo, normalise

SKILL_TOOL = "skill"
# --install plugin: `copilot plugin marketplace add` and `copilot plugin install` from this file; the
# installed plugin is read in place, and `copilot skill list --json` lists its skills offline.
PLUGIN_HOST = plugin_install.Host("copilot", Path(".github") / "plugin" / "marketplace.json")
BUILTIN_SKILLS = ("customize-cloud-agent", "github-pr-media")
PROVIDER_VARS = (
    "COPILOT_PROVIDER_BASE_URL",
    "COPILOT_PROVIDER_API_KEY",
    "COPILOT_PROVIDER_TYPE",
    "COPILOT_PROVIDER_WIRE_API",
    "COPILOT_MODEL",
)
# A GitHub sign-in, read from the environment only when no provider of the user's own is set.
SIGN_IN_VARS = ("COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN")
SHELL_TOOLS = {"bash": "command"}
WRITE_TOOLS = {"create": "path", "edit": "path"}
READ_TOOLS = {"view": "path", "grep": "paths", "glob": "paths"}


class CopilotEvents(EventReader):
    skill_file_decides = True  # its listing points the model at each SKILL.md

    def on_event(self, event: dict[str, Any]) -> None:
        kind, data = event.get("type"), object_at(event, "data")
        if kind == "session.skills_loaded":
            skills = [s for s in data.get("skills") or [] if isinstance(s, dict)]
            names = [str(s.get("name")) for s in skills if s.get("enabled", True)]
            self.trace.init = InitInfo(names, [], None, None, None, None, None, None)
        elif kind == "tool.execution_start":
            name, arguments = str(data.get("toolName") or ""), data.get("arguments")
            skill = arguments.get("skill") if name == SKILL_TOOL and isinstance(arguments, dict) else None
            made = self.call(
                str(data.get("toolCallId") or ""),
                name,
                arguments,
                skill=str(skill or "") if name == SKILL_TOOL else None,
            )
            normalise(made, SHELL_TOOLS, WRITE_TOOLS, READ_TOOLS)
        elif kind == "tool.execution_complete":
            self._complete(data)
        elif kind == "assistant.message" and data.get("content"):
            self.trace.final_message = str(data["content"])
            if self.trace.init is not None and data.get("model"):
                self.trace.init.model = str(data["model"])
        elif kind == "session.error":
            status = data.get("statusCode")
            self.fail(
                str(data.get("message") or "session error"), status if isinstance(status, int) else None
            )
        elif kind == "result":
            code = event.get("exitCode")
            if isinstance(code, int) and code != 0 and not self.trace.is_error:
                self.fail(f"copilot exited {code}")

    def _complete(self, data: dict[str, Any]) -> None:
        result = object_at(data, "result")
        error = object_at(data, "error")
        text = str(result.get("content") or error.get("message") or "")
        properties = (data.get("toolTelemetry") or {}).get("properties") or {}
        ok = data.get("success") is True and properties.get("found", "true") != "false"
        self.answer(str(data.get("toolCallId") or ""), text, ok=ok)

    def ends_run(self, event: dict[str, Any]) -> bool:
        return event.get("type") == "result"


class CopilotAgent(PluginCliAgent[Path]):
    runtime = "copilot"
    plugin_host = PLUGIN_HOST
    # Its follow-up turn starts about 10 ms after the confirming line, so the stop rarely beats it.
    requests_to_decision = 2.0
    credential_vars = ("COPILOT_PROVIDER_API_KEY",)
    endpoint_var = "COPILOT_PROVIDER_BASE_URL"
    default_endpoints = ("https://api.githubcopilot.com", "https://api.github.com")
    default_endpoint = "GitHub Copilot's own service"
    model_environment = (
        "COPILOT_MODEL",
        "COPILOT_PROVIDER_BASE_URL",
        "COPILOT_PROVIDER_TYPE",
        "COPILOT_PROVIDER_WIRE_API",
    )
    own_environment = ("COPILOT_CACHE_HOME",)

    def declared_environment(self) -> tuple[str, ...]:
        sign_in = () if self.byok else SIGN_IN_VARS  # with a provider of its own, no GitHub token
        return (*super().declared_environment(), *sign_in)

    def reader(self, installed: Mapping[str, Path]) -> EventReader:
        return CopilotEvents(self.with_plugins(installed))

    @property
    def byok(self) -> bool:
        return bool(self.environ.get("COPILOT_PROVIDER_BASE_URL"))

    def relayed_endpoint(self) -> tuple[str, str] | None:
        key = self.environ.get("COPILOT_PROVIDER_API_KEY")
        return (self.environ["COPILOT_PROVIDER_BASE_URL"], key) if self.byok and key else None

    def command(
        self, spec: RunSpec, home: Path, handover: Handover | None = None
    ) -> tuple[list[str], dict[str, str], list[str]]:
        env = self.home_env(home)
        if handover is not None:  # the key stays in the relay: the CLI gets its address and a stand-in
            env.update(COPILOT_PROVIDER_BASE_URL=handover.base_url, COPILOT_PROVIDER_API_KEY=handover.token)
        # No -p: a piped stdin is the prompt, run non-interactively.
        argv = [self.path, "--output-format", "json", "--no-auto-update", "--no-ask-user"]
        if self.byok:
            env["COPILOT_OFFLINE"] = "true"  # no GitHub auth, telemetry, web tools or update check
        if spec.model:
            if self.byok:
                env["COPILOT_MODEL"] = spec.model
            else:
                argv += ["--model", spec.model]
        if writes_allowed(spec):
            argv.append("--allow-all-tools")
        else:
            argv += ["--allow-tool", SKILL_TOOL]  # routing: the skill tool runs, nothing else does
        notes = [f"copilot has no --effort; effort {spec.effort} was not set"] if spec.effort else []
        if spec.max_budget_usd:
            notes.append("copilot has no spend cap; --max-budget-usd was not enforced")
        return [*argv, *spec.extra_args], env, notes

    def home_env(self, home: Path) -> dict[str, str]:
        """The run's environment, its COPILOT_HOME made under `home`: the built-in skills disabled, and
        under --install plugin the installed plugins' marketplace and enablement."""
        config = home / ".copilot"
        settings: dict[str, Any] = {}
        if self.plugins is None:
            config.mkdir()
        else:
            shutil.copytree(self.plugins.config, config, symlinks=True)
            settings = json.loads(read_text(config / "settings.json"))
        # Built-in skills stay out of the room the way `copilot skill disable` keeps them out.
        settings["disabledSkills"] = list(BUILTIN_SKILLS)
        (config / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        env = self.start_env()
        env.update(HOME=str(home), COPILOT_HOME=str(config), COPILOT_AUTO_UPDATE="false")
        env.setdefault("COPILOT_CACHE_HOME", self.cache_home(home))
        return env

    def cache_home(self, home: Path) -> str:
        """The unpacked CLI package is cached across runs; a throwaway cache costs a second per run."""
        return str(Path(self.environ.get("HOME") or home) / ".cache" / "copilot")

    def plugin_install_env(self, under: Path) -> tuple[Path, dict[str, str]]:
        config = make_folder(under / ".copilot", under)
        env = self.start_env()
        env.update(HOME=str(under), COPILOT_HOME=str(config), COPILOT_OFFLINE="true")
        env.update(COPILOT_AUTO_UPDATE="false")
        env.setdefault("COPILOT_CACHE_HOME", self.cache_home(under))
        return config, env

    def plugin_names(self, listed: list[str], room: list[str]) -> tuple[dict[str, str], list[str]]:
        """Copilot lists a plugin's skills by their bare names."""
        return {}, [name for name in room if name not in listed]

    def listed_plugin_skills(self, deadline: Deadline | None) -> list[str]:
        """The plugin skills `copilot skill list --json` lists with the plugins installed, in an empty
        workspace (offline: nothing is sent)."""
        with self.home() as home, self.workspace({}) as workspace:
            env = {**self.home_env(home), "COPILOT_OFFLINE": "true"}
            argv = [self.path, "skill", "list", "--json"]
            timeout = probe_timeout(deadline)
            done = plugin_install.host_command(argv, env, timeout, "copilot skill list", cwd=workspace)
        try:
            skills = json.loads(done.stdout) if done.returncode == 0 else None
        except ValueError:
            skills = None
        if not isinstance(skills, list):
            said = " ".join((done.stderr or done.stdout).split())[:300]
            raise AgentUnavailable(f"`copilot skill list --json` could not list the plugins ({said})")
        return [
            str(s.get("name"))
            for s in skills
            if isinstance(s, dict) and s.get("source") == "plugin" and s.get("enabled", True)
        ]

    def isolation_facts(self) -> dict[str, str]:
        return {
            "built_in_skills": "disabled (" + ", ".join(BUILTIN_SKILLS) + ")",
            "credentials": "COPILOT_PROVIDER_API_KEY kept in skillscope's key relay; the CLI holds a "
            "per-run stand-in token: the agent's tools inherit no API key"
            if self.byok
            else "GitHub sign-in from the environment (its tools inherit it)",
            "network": "COPILOT_OFFLINE (model endpoint only)"
            if self.byok
            else "GitHub sign-in from the environment",
            "note": "a throwaway HOME and COPILOT_HOME per run: the user's skills, settings and "
            "instructions stay out; the room is read from .agents/skills",
        }


connect = CopilotAgent.connect
