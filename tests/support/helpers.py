"""Builders shared by the tests: skill repos in tmp_path and in-process CLI runs.

Not a conftest: tests import what they use, so every helper is visible at its call site.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from harness.cli import main
from harness.context import Context

DEFAULT_BODY = "# Instructions\n\nDo the job step by step.\n"
KEEP = object()  # "write the default" marker, so None can mean "leave the file out"


def frontmatter_text(fields: Mapping[str, object]) -> str:
    """A `---` block from plain values; JSON encoding keeps strings valid YAML."""
    lines = ["---"]
    for key, value in fields.items():
        lines.append(f"{key}: {json.dumps(value)}")
    lines.append("---")
    return "\n".join(lines) + "\n"


def evals_for(name: str, positives: int = 3, negatives: int = 2, behavior: bool = True) -> dict:
    """A dataset for `name` that clears Tier 0 with the defaults; ids are prefixed by the skill name."""
    cases: list[dict] = []
    for index in range(positives):
        case: dict = {
            "id": f"{name}-pos-{index + 1}",
            "skill_should_trigger": True,
            "prompt": f"Please do the {name} job, variant {index + 1}.",
        }
        if behavior and index == 0:
            case["expected_behavior"] = ["Does the job the way the skill describes"]
        cases.append(case)
    for index in range(negatives):
        cases.append(
            {
                "id": f"{name}-neg-{index + 1}",
                "skill_should_trigger": False,
                "prompt": f"Something near {name} that it should not answer, variant {index + 1}.",
            }
        )
    return {"evaluations": cases}


def make_skill(
    root: Path,
    name: str,
    *,
    frontmatter: Mapping[str, object] | None = None,
    skill_md: str | bytes | None | object = KEEP,
    body: str = DEFAULT_BODY,
    evals: dict | str | bytes | None | object = KEEP,
    extended: dict | str | None = None,
    machine: str | None = None,
    files: Mapping[str, str | bytes] | None = None,
) -> Path:
    """Write one skill folder under `root` and return it.

    `skill_md` (text or bytes) replaces the whole SKILL.md; None leaves it out. `evals` is a dict
    (dumped as JSON), raw text/bytes, or None for no dataset; the default clears Tier 0.
    """
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    if skill_md is KEEP:
        fields = {"name": name, "description": f"Does the {name} job. Use when asked to {name}."}
        skill_md = frontmatter_text(frontmatter if frontmatter is not None else fields) + body
    if skill_md is not None:
        _write(folder / "SKILL.md", skill_md)
    if evals is KEEP:
        evals = evals_for(name)
    if evals is not None:
        _write(folder / "evals" / "evals.json", evals)
    if extended is not None:
        _write(folder / "evals" / "extended_evals.json", extended)
    if machine is not None:
        _write(folder / "evals" / "machine.yml", machine)
    for rel, content in (files or {}).items():
        _write(folder / rel, content)
    return folder


def _write(path: Path, content: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_text(json.dumps(content, indent=2) + "\n", encoding="utf-8")


@dataclass
class CliRun:
    code: int
    stdout: str
    stderr: str

    @property
    def lines(self) -> list[str]:
        return self.stdout.splitlines()


def run_cli(args: Sequence[str], *, cwd: Path, environ: Mapping[str, str] | None = None) -> CliRun:
    """harness.cli.main in-process with captured streams and a clean environment."""
    ctx = Context(
        environ=dict(environ or {}), cwd=cwd, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
    )
    code = main(list(args), ctx)
    return CliRun(code=code, stdout=ctx.stdout.getvalue(), stderr=ctx.stderr.getvalue())


def structural(
    root: Path, *extra: str, tmp: Path | None = None, environ: Mapping[str, str] | None = None
) -> tuple[CliRun, dict]:
    """`skillscope structural` on `root` with the JSON report written to a file and the markdown report on
    stdout (a later --format in `extra` wins); returns (run, report)."""
    output = (tmp or root.parent) / "structural-report.json"
    output.unlink(missing_ok=True)
    argv = ["structural", "--repo", str(root), "--output", str(output), "--format", "markdown", *extra]
    run = run_cli(argv, cwd=root, environ=environ)
    report = json.loads(output.read_text(encoding="utf-8")) if output.exists() else {}
    return run, report


def rules(report: dict, severity: str | None = None) -> list[str]:
    return [f["rule"] for f in report.get("findings", []) if severity in (None, f["severity"])]
