"""Running `skillscope routing` in-process with the real claude CLI against the fake API.

Not a conftest: the tests import what they use, so each helper is visible at its call site.
"""

from __future__ import annotations

import io
import json
import os
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness import schemas
from harness.agent.probes import PROBES
from harness.cli import main
from harness.context import Context
from harness.memo import user_cache
from tests.fakeapi import RecordedRequest, Reply, replies
from tests.support.helpers import make_skill
from tests.support.hermetic import GIT_ISOLATION
from tests.support.kept_probes import copy_missing

NO_SKILL_TEXT = "I can answer that directly."
_PASSTHROUGH = ("PATH", "LANG", "LC_ALL", *GIT_ISOLATION)
_PROGRESS = re.compile(r"^\[\d+/\d+\] \[(?:PASS|FAIL|ERROR|NOT-RUN)\] ([^:]+): ")
_DEFAULT_ID = re.compile(r"^(.+)-(pos|neg)-(\d+)$")


def skills_repo(root: Path, *names: str) -> Path:
    """A repo with one skill per name, each with the default dataset: `<name>-pos-1..3` true cases
    ("Please do the <name> job, variant N.") and `<name>-neg-1..2` false ones."""
    for name in names:
        make_skill(root, name)
    return root


def prompt_of(key: str) -> str:
    """A text unique to one case's prompt: for a default-dataset id (`pdf-pos-2`) the tail of its
    prompt ("the pdf job, variant 2."); any other key is taken as a prompt substring already."""
    match = _DEFAULT_ID.match(key)
    if match is None:
        return key
    name, kind, number = match.groups()
    if kind == "pos":
        return f"the {name} job, variant {number}."
    return f"near {name} that it should not answer, variant {number}."


def routing_env(
    api_url: str, claude: str, home: Path, *, probes: Path | None = None, **extra: str
) -> dict[str, str]:
    """The environment of a routing run in `home`; with `probes` (the `kept_probes` fixture), the agent
    CLIs' answers to `--version` and `--help` probed once for the test run are in its cache already."""
    home.mkdir(parents=True, exist_ok=True)
    env = {k: os.environ[k] for k in _PASSTHROUGH if k in os.environ}
    env.update(
        ANTHROPIC_BASE_URL=api_url, ANTHROPIC_API_KEY="test-key", HOME=str(home), SKILLSCOPE_CLAUDE=claude
    )
    env.update(extra)
    if probes is not None:
        share_probes(env, probes)
    return env


def share_probes(env: Mapping[str, str], probes: Path) -> None:
    """Copy the probe answers in `probes` into the user cache `env` names (each is keyed on the
    executable's file, so a stand-in script elsewhere is still probed itself)."""
    copy_missing(probes, user_cache(env) / PROBES)


@dataclass
class Routed:
    code: int
    stdout: str
    stderr: str
    output: Path

    @property
    def report(self) -> dict[str, Any]:
        return json.loads(self.output.read_text(encoding="utf-8"))

    def case(self, case_id: str) -> dict[str, Any]:
        return next(c for c in self.report["cases"] if c["id"] == case_id)

    def verdicts(self) -> dict[str, str]:
        return {c["id"]: c["verdict"] for c in self.report["cases"]}

    @property
    def progress(self) -> dict[str, str]:
        """Case id -> its progress line (`[2/5] [PASS] id: expected x -> got y (verdict, stop, 1.4s)
        (3s elapsed, ETA 4s)`)."""
        found = {}
        for line in self.stderr.splitlines():
            match = _PROGRESS.match(line.strip())
            if match:
                found[match.group(1)] = line.strip()
        return found


def route(repo: Path, env: Mapping[str, str], *args: str, output: Path | None = None) -> Routed:
    """`skillscope routing --repo <repo> --output <file> --format markdown <args>` in-process: the tests
    read the markdown report from stdout (a later --format in `args` wins)."""
    output = output or repo.parent / "routing-report.json"
    output.unlink(missing_ok=True)
    ctx = Context(
        environ=dict(env), cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
    )
    argv = ["routing", "--repo", str(repo), "--output", str(output), "--format", "markdown", *args]
    code = main(argv, ctx)
    return Routed(code, ctx.stdout.getvalue(), ctx.stderr.getvalue(), output)


def shown(report: Path, fmt: str, env: Mapping[str, str]) -> str:
    """`skillscope show <report> --format <fmt>` in-process: a saved report in another format, through
    the renderer a run's own --format uses, so one run's report can be read in every format."""
    ctx = Context(
        environ=dict(env), cwd=report.parent, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
    )
    code = main(["show", str(report), "--format", fmt], ctx)
    assert code == 0, ctx.stderr.getvalue()
    return ctx.stdout.getvalue()


class CaseRouter:
    """A fake model that decides by case: `{case id or prompt substring: reply or replies}`.

    Only a run's first model turn is routed; later turns (after a tool result) just finish. A list
    gives one reply per run of that case, in order (for --repeat). Unlisted prompts get plain text.
    """

    def __init__(self, table: Mapping[str, Any], default: Any = NO_SKILL_TEXT, *, later: Any = "done."):
        self._table = {prompt_of(case_id): value for case_id, value in table.items()}
        self._default, self._later = default, later
        self._lock = threading.Lock()
        self.first_turns: dict[str, int] = {}

    def __call__(self, request: RecordedRequest) -> Reply | str | dict | None:
        if request.tool_results:
            return _answer(self._later, request)
        prompt = request.prompt
        for key, value in self._table.items():
            if key in prompt:
                with self._lock:
                    count = self.first_turns.get(key, 0)
                    self.first_turns[key] = count + 1
                if isinstance(value, list):
                    return _answer(value[count % len(value)], request)
                return _answer(value, request)
        return _answer(self._default, request)


def _answer(value: Any, request: RecordedRequest) -> Any:
    """A reply, or a function of the request giving one."""
    return value(request) if callable(value) else value


def bash_forever(request: RecordedRequest) -> Reply:
    """A model that never decides: one more shell command every turn."""
    return replies.tool_use("Bash", {"command": "echo still looking"})


def live_processes_under(path: Path) -> list[str]:
    """Processes whose cwd or command line lies under `path` (none may outlive a run)."""
    found = []
    marker = str(path)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cwd = os.readlink(entry / "cwd")
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and (cwd.startswith(marker) or marker in cmdline):
            found.append(f"{entry.name}: {cmdline[:200]}")
    return found


def valid(report: dict) -> list[str]:
    """The routing report schema's complaints about `report`: none for a valid one."""
    return [e.message for e in schemas.validator("routing-report").iter_errors(report)]
