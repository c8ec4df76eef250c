"""Gemini CLI (`gemini -p … --output-format stream-json`) as an Agent.

Its `activate_skill` tool takes `{"name": name}` (checked against the listed names); `tool_use` is
the decision and the `tool_result` with the same id and status success the confirmation. Skills
load only in a trusted folder, the tool is offered headless only when allowed, and a model must be
named (the default `auto` first asks a routing classifier). Endpoint: `GOOGLE_GEMINI_BASE_URL` +
`GEMINI_API_KEY`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness.jsonfields import object_at

from .events import EventReader, status_in
from .relay import Handover
from .runtime import CliAgent, writes_allowed
from .spec import RetryRule, RunSpec
from .trace import InitInfo, normalise

SKILL_TOOL = "activate_skill"
BUILTIN_SKILLS = ("skill-creator", "antigravity-support")
KEY_VARS = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
DEFAULT_MODEL = "gemini-2.5-flash"
SHELL_TOOLS = {"run_shell_command": "command"}
WRITE_TOOLS = {"write_file": "file_path", "replace": "file_path"}
READ_TOOLS = {
    "read_file": "file_path",
    "list_directory": "dir_path",
    "grep_search": "dir_path",
    "glob": "dir_path",
}


class GeminiEvents(EventReader):
    skill_file_decides = True  # its listing points the model at each SKILL.md

    def __init__(self, installed: Mapping[str, Path | str]):
        super().__init__(installed)
        self.text = ""  # the assistant's current message, streamed in pieces

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "init":
            model = event.get("model")
            session = event.get("session_id")
            self.trace.init = InitInfo([], [], model, None, None, None, session, None)
        elif kind == "tool_use":
            name, parameters = str(event.get("tool_name") or ""), event.get("parameters")
            skill = parameters.get("name") if isinstance(parameters, dict) else None
            made = self.call(
                str(event.get("tool_id") or ""),
                name,
                parameters,
                skill=str(skill or "") if name == SKILL_TOOL else None,
            )
            normalise(made, SHELL_TOOLS, WRITE_TOOLS, READ_TOOLS)
            self.text = ""
        elif kind == "tool_result":
            error = object_at(event, "error")
            text = str(event.get("output") or error.get("message") or "")
            self.answer(str(event.get("tool_id") or ""), text, ok=event.get("status") == "success")
        elif kind == "message" and event.get("role") == "assistant":
            piece = str(event.get("content") or "")
            self.text = self.text + piece if event.get("delta") else piece
            self.trace.final_message = self.text
        elif kind == "error" and event.get("severity") == "error":
            # The CLI's own failure, said before its error result (which then carries no message).
            message = str(event.get("message") or "gemini reported an error")
            self.fail(message, status_in(message))
        elif kind == "result":
            stats = object_at(event, "stats")
            self.add_usage(
                int(stats.get("input_tokens") or 0),
                int(stats.get("output_tokens") or 0),
                int(stats.get("cached") or 0),
            )
            if event.get("status") != "success":
                error = object_at(event, "error")
                if error or not self.trace.result_errors:
                    message = str(error.get("message") or "the run failed")
                    self.fail(message, status_in(message))

    def ends_run(self, event: dict[str, Any]) -> bool:
        return event.get("type") == "result"


class GeminiAgent(CliAgent[Path]):
    runtime = "gemini"
    requests_to_decision = 2.0  # the follow-up request is already sent when the confirming line appears
    credential_vars = ("GEMINI_API_KEY",)
    endpoint_var = "GOOGLE_GEMINI_BASE_URL"
    default_endpoints = ("https://generativelanguage.googleapis.com", "https://oauth2.googleapis.com")
    default_endpoint = "https://generativelanguage.googleapis.com"
    # Under load on large prompts its model stream was seen to end early; the CLI retries that itself
    # a few times, then gives up with this error: a fresh run usually goes through.
    retry_on = (
        RetryRule(
            r"Model stream ended (?:without a finish reason|with an? (?:empty|invalid))",
            "gemini's model stream ended early (its CLI gave up on it)",
        ),
    )
    model_environment = ("GEMINI_MODEL", "GOOGLE_GEMINI_BASE_URL")
    default_base_url = "https://generativelanguage.googleapis.com"

    def reader(self, installed: Mapping[str, Path]) -> EventReader:
        return GeminiEvents(installed)

    def relayed_endpoint(self) -> tuple[str, str] | None:
        key = next((self.environ[v] for v in KEY_VARS if self.environ.get(v)), None)
        base_url = self.environ.get("GOOGLE_GEMINI_BASE_URL") or self.default_base_url
        return (base_url, key) if key else None

    def command(
        self, spec: RunSpec, home: Path, handover: Handover | None = None
    ) -> tuple[list[str], dict[str, str], list[str]]:
        config = home / ".gemini"
        config.mkdir()
        settings = {
            # The CLI reads its key only from the environment; redaction keeps it out of its tools'.
            "security": {
                "auth": {"selectedType": "gemini-api-key"},
                "environmentVariableRedaction": {"enabled": True, "blocked": list(KEY_VARS)},
            },
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
            "skills": {"disabled": list(BUILTIN_SKILLS)},
        }
        (config / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        env = self.start_env()
        # Workspace skills load only in a trusted folder; the throwaway home holds ~/.gemini and ~/.agents.
        env.update(HOME=str(home), GEMINI_CLI_HOME=str(home), GEMINI_CLI_TRUST_WORKSPACE="true")
        if handover is not None:  # the CLI reads its key only from the environment: a stand-in there
            env.update(GOOGLE_GEMINI_BASE_URL=handover.base_url, GEMINI_API_KEY=handover.token)
        argv = [self.path, "-m", spec.model or DEFAULT_MODEL, "--output-format", "stream-json"]
        if writes_allowed(spec):
            argv += ["--approval-mode", "yolo"]
        else:
            argv += ["--allowed-tools", SKILL_TOOL]  # headless, the skill tool is offered only when allowed
        notes = [] if spec.model else [f"gemini needs a model; {DEFAULT_MODEL} was used (pass --model)"]
        if spec.effort:
            notes.append(f"gemini has no --effort; effort {spec.effort} was not set")
        if spec.max_budget_usd:
            notes.append("gemini has no spend cap; --max-budget-usd was not enforced")
        # Headless mode needs -p; its text is appended to what stdin holds, the prompt itself.
        return [*argv, *spec.extra_args, "-p", " "], env, notes

    def isolation_facts(self) -> dict[str, str]:
        return {
            "built_in_skills": "disabled (" + ", ".join(BUILTIN_SKILLS) + ")",
            "credentials": "GEMINI_API_KEY kept in skillscope's key relay; the CLI holds a per-run "
            "stand-in token: the agent's tools inherit no API key"
            if self.relayed_endpoint()
            else "no GEMINI_API_KEY in the environment",
            "network": "usage statistics, telemetry and auto-update off (model endpoint only)",
            "note": "a throwaway HOME and GEMINI_CLI_HOME per run: the user's skills and settings stay out; "
            "the workspace is trusted so its .agents/skills load",
        }


connect = GeminiAgent.connect
