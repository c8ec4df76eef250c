"""The other agent CLIs (Copilot, Codex, Gemini, OpenCode) run raw against a FakeAPI.

These commands prove the fake speaks each CLI's wire protocol; the harness's own
isolation lives in harness/agent and is tested there. Each setting here keeps a
run hermetic: a throwaway home and config, start-up network lookups off, only
the fake as the model.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.agent.codex import sandbox_mode
from tests.support.hermetic import GIT_ISOLATION

# Test runs find each CLI through these, as they find claude through SKILLSCOPE_TEST_CLAUDE.
TEST_ENV = {
    "copilot": "SKILLSCOPE_TEST_COPILOT",
    "codex": "SKILLSCOPE_TEST_CODEX",
    "gemini": "SKILLSCOPE_TEST_GEMINI",
    "opencode": "SKILLSCOPE_TEST_OPENCODE",
}
API_KEY = "fake-test-key-0123"  # long: Copilot masks every occurrence of its key in output
MODEL = "fake-model"
GEMINI_MODEL = "gemini-2.5-flash"  # a pinned model skips Gemini CLI's routing classifier call
_PASSTHROUGH = ("PATH", "LANG", "LC_ALL", "TMPDIR", *GIT_ISOLATION)


def endpoint_env(name: str, base_url: str) -> dict[str, str]:
    """The environment a user sets to point `name` at a model server: here, the fake."""
    if name == "copilot":
        return {
            "COPILOT_PROVIDER_BASE_URL": base_url,
            "COPILOT_PROVIDER_TYPE": "anthropic",
            "COPILOT_PROVIDER_API_KEY": API_KEY,
            "COPILOT_MODEL": MODEL,
        }
    if name == "gemini":
        return {"GOOGLE_GEMINI_BASE_URL": base_url, "GEMINI_API_KEY": API_KEY}
    return {"OPENAI_BASE_URL": f"{base_url}/v1", "OPENAI_API_KEY": API_KEY}


def agent_of(request) -> str:
    """Which agent CLI sent a recorded request, from its wire and the tools it offers."""
    wire = request.wire.name
    if wire == "anthropic":
        return "claude" if "Skill" in request.tool_names else "copilot"
    return {"responses": "codex", "gemini": "gemini", "chat": "opencode"}[wire]


def find_runtime(name: str, environ: Mapping[str, str] = os.environ) -> str | None:
    """`$SKILLSCOPE_TEST_<NAME>`, else `<name>` on PATH, else None."""
    explicit = environ.get(TEST_ENV[name])
    if explicit:
        return explicit if Path(explicit).is_file() else None
    return shutil.which(name, path=environ.get("PATH"))


@dataclass
class RuntimeRun:
    returncode: int
    stdout: str
    stderr: str

    @property
    def events(self) -> list[dict[str, Any]]:
        found = []
        for line in self.stdout.splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict):
                found.append(event)
        return found


def run_runtime(
    name: str,
    binary: str,
    base_url: str,
    workspace: Path,
    scratch: Path,
    prompt: str,
    *,
    extra_args: Sequence[str] = (),
    extra_env: Mapping[str, str] | None = None,
    timeout: float = 300,
) -> RuntimeRun:
    """One headless run of `name` in `workspace`, its state under `scratch`."""
    home = scratch / "home"
    home.mkdir(parents=True, exist_ok=True)
    env = {k: os.environ[k] for k in _PASSTHROUGH if k in os.environ}
    env["HOME"] = str(home)
    argv = [*SETUPS[name](binary, base_url, workspace, home, env, prompt), *extra_args]
    env.update(extra_env or {})
    done = subprocess.run(
        argv,
        cwd=workspace,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        start_new_session=True,
    )
    return RuntimeRun(done.returncode, done.stdout, done.stderr)


def _copilot(binary: str, base_url: str, workspace: Path, home: Path, env: dict, prompt: str) -> list[str]:
    config = home / ".copilot"
    config.mkdir()
    disabled = {"disabledSkills": ["customize-cloud-agent", "github-pr-media"]}
    (config / "settings.json").write_text(json.dumps(disabled))
    env.update(
        COPILOT_HOME=str(config),
        COPILOT_PROVIDER_BASE_URL=base_url,
        COPILOT_PROVIDER_TYPE="anthropic",
        COPILOT_PROVIDER_API_KEY=API_KEY,
        COPILOT_MODEL=MODEL,
        COPILOT_OFFLINE="true",
        COPILOT_AUTO_UPDATE="false",
    )
    return [binary, "-p", prompt, "--output-format", "json", "--allow-all-tools", "--no-auto-update"]


def _codex(binary: str, base_url: str, workspace: Path, home: Path, env: dict, prompt: str) -> list[str]:
    config = home / ".codex"
    config.mkdir()
    (config / "config.toml").write_text(
        f'model = "{MODEL}"\nmodel_provider = "fake"\n'
        f'[model_providers.fake]\nname = "fake"\nbase_url = "{base_url}/v1"\nenv_key = "FAKE_API_KEY"\n'
        'wire_api = "responses"\nrequest_max_retries = 0\nstream_max_retries = 0\n'
        "[skills.bundled]\nenabled = false\n[features]\nplugins = false\n"
        "[analytics]\nenabled = false\n[feedback]\nenabled = false\n"
    )
    env.update(CODEX_HOME=str(config), FAKE_API_KEY=API_KEY)
    return [
        binary,
        "exec",
        "--json",
        "--strict-config",
        "--skip-git-repo-check",
        "--sandbox",
        sandbox_mode(False, env.get("PATH", "")),  # read-only, unless a system bwrap keeps it from starting
        "-C",
        str(workspace),
        prompt,
    ]


def _gemini(binary: str, base_url: str, workspace: Path, home: Path, env: dict, prompt: str) -> list[str]:
    config = home / ".gemini"
    config.mkdir()
    settings = {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
        "skills": {"disabled": ["skill-creator", "antigravity-support"]},
    }
    (config / "settings.json").write_text(json.dumps(settings))
    env.update(
        GEMINI_CLI_HOME=str(home),
        GEMINI_API_KEY=API_KEY,
        GOOGLE_GEMINI_BASE_URL=base_url,
        GEMINI_CLI_TRUST_WORKSPACE="true",
    )
    return [
        binary,
        "-m",
        GEMINI_MODEL,
        "--allowed-tools",
        "activate_skill",
        "--output-format",
        "stream-json",
        "-p",
        prompt,
    ]


def _opencode(binary: str, base_url: str, workspace: Path, home: Path, env: dict, prompt: str) -> list[str]:
    for name in ("config", "data", "cache", "state"):
        (home / name).mkdir()
        env[f"XDG_{name.upper()}_HOME"] = str(home / name)
    provider = {
        "npm": "@ai-sdk/openai-compatible",
        "name": "Fake",
        "options": {"baseURL": f"{base_url}/v1", "apiKey": API_KEY},
        "models": {MODEL: {"name": "Fake", "tool_call": True, "limit": {"context": 200000, "output": 8192}}},
    }
    config = {
        "model": f"fake/{MODEL}",
        "small_model": f"fake/{MODEL}",
        "autoupdate": False,
        "share": "disabled",
        "permission": {"skill": {"*": "allow", "customize-opencode": "deny"}},
        "provider": {"fake": provider},
    }
    (home / "opencode.json").write_text(json.dumps(config))
    env.update(
        OPENCODE_CONFIG=str(home / "opencode.json"),
        OPENCODE_DISABLE_AUTOUPDATE="1",
        OPENCODE_DISABLE_MODELS_FETCH="1",
        OPENCODE_DISABLE_LSP_DOWNLOAD="1",
        OPENCODE_DISABLE_SHARE="1",
        OPENCODE_DISABLE_DEFAULT_PLUGINS="1",
        # Its start-up package install must fail fast instead of reaching a registry.
        npm_config_registry="http://127.0.0.1:9/",
    )
    return [binary, "run", "--pure", "--format", "json", "--dir", str(workspace), prompt]


SETUPS = {"copilot": _copilot, "codex": _codex, "gemini": _gemini, "opencode": _opencode}
