"""Run the real `claude` CLI against a FakeAPI with a hermetic environment."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.hermetic import GIT_ISOLATION

CLAUDE_ENV = "SKILLSCOPE_TEST_CLAUDE"
# Only these survive from the caller's environment: nothing of the developer's
# Claude setup (ANTHROPIC_*, CLAUDE_*) may reach a test run.
_PASSTHROUGH = ("PATH", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT", *GIT_ISOLATION)


def find_claude(environ: Mapping[str, str] = os.environ) -> str | None:
    """`$SKILLSCOPE_TEST_CLAUDE`, else `claude` on PATH, else None."""
    explicit = environ.get(CLAUDE_ENV)
    if explicit:
        return explicit if Path(explicit).is_file() else None
    return shutil.which("claude", path=environ.get("PATH"))


def hermetic_env(
    base_url: str, scratch: Path, extra: Mapping[str, str] | None = None, *, config_dir: bool = True
) -> dict[str, str]:
    """A fresh HOME (and CLAUDE_CONFIG_DIR) under `scratch`, pointed at the fake API."""
    home = scratch / "home"
    home.mkdir(parents=True, exist_ok=True)
    env = {k: os.environ[k] for k in _PASSTHROUGH if k in os.environ}
    env.update(
        HOME=str(home),
        ANTHROPIC_BASE_URL=base_url,
        ANTHROPIC_API_KEY="test-key",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        CLAUDE_CODE_MAX_RETRIES="0",
    )
    if config_dir:
        config = scratch / "config"
        config.mkdir(exist_ok=True)
        env["CLAUDE_CONFIG_DIR"] = str(config)
    env.update(extra or {})
    return env


@dataclass
class CliRun:
    returncode: int
    stdout: str
    stderr: str
    env: dict[str, str]

    @property
    def events(self) -> list[dict[str, Any]]:
        found = []
        for line in self.stdout.splitlines():
            try:
                found.append(json.loads(line))
            except ValueError:
                continue
        return found

    def of_type(self, kind: str, subtype: str | None = None) -> list[dict[str, Any]]:
        return [
            e
            for e in self.events
            if e.get("type") == kind and (subtype is None or e.get("subtype") == subtype)
        ]

    @property
    def result(self) -> dict[str, Any] | None:
        results = self.of_type("result")
        return results[-1] if results else None

    def tool_uses(self, name: str | None = None) -> list[dict[str, Any]]:
        return [
            block
            for event in self.of_type("assistant")
            for block in event["message"].get("content", [])
            if block.get("type") == "tool_use" and (name is None or block.get("name") == name)
        ]


def run_claude(
    claude: str,
    base_url: str,
    prompt: str,
    cwd: Path | None = None,
    extra_args: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    *,
    timeout: float = 120,
) -> CliRun:
    """One `claude -p` stream-json run; the prompt goes over stdin, which is then closed."""
    scratch = Path(tempfile.mkdtemp(prefix="fakeapi-cli-"))
    try:
        workdir = cwd or scratch / "workspace"
        workdir.mkdir(parents=True, exist_ok=True)
        full_env = hermetic_env(base_url, scratch, env)
        argv = [claude, "-p", "--output-format", "stream-json", "--verbose", *extra_args]
        done = subprocess.run(
            argv,
            input=prompt,
            cwd=workdir,
            env=full_env,
            capture_output=True,
            text=True,
            timeout=timeout,
            start_new_session=True,
        )
        return CliRun(done.returncode, done.stdout, done.stderr, full_env)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def write_skill(
    root: Path,
    dirname: str,
    description: str,
    body: str = "",
    *,
    name: str | None = None,
    extra_files: Mapping[str, str] | None = None,
) -> Path:
    """Create `<root>/<dirname>/SKILL.md` (frontmatter `name` defaults to the dir name)."""
    skill_dir = root / dirname
    skill_dir.mkdir(parents=True, exist_ok=True)
    front = f"---\nname: {name or dirname}\ndescription: {description}\n---\n"
    (skill_dir / "SKILL.md").write_text(front + (body or f"# {dirname}\n"))
    for rel, content in (extra_files or {}).items():
        target = skill_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content)
    return skill_dir
