"""The bad-input corpus: every hostile input gives its one finding or usage error, never exit 3, and
the report is still written when the run gets that far."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.printable import UNSAFE
from tests.support.helpers import run_cli

CORPUS = Path(__file__).parent / "corpus"
REPORTING = ("structural", "refs")
FOUR_MB = 2_000_000


def brackets_4mb(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with open(root / "bad" / "SKILL.md", "a", encoding="utf-8") as handle:
        handle.write("\n" + "[" * FOUR_MB + "]" * FOUR_MB + "\n")


def outside_git(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert subprocess.run(["git", "rev-parse"], cwd=root, capture_output=True).returncode != 0


def git_other_owner(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for args in (
        ["init", "-q"],
        ["add", "."],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"],
    ):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
    # git's own test switch for a repository owned by another user, as in a CI container
    monkeypatch.setenv("GIT_TEST_ASSUME_DIFFERENT_OWNER", "1")


DEEP = 50_000  # far past the interpreter's recursion limit, which the parsers recurse against


def writing(relative: str, text: str) -> Callable[[Path, pytest.MonkeyPatch], None]:
    """A builder writing `text` (too large to keep in git as it is) to `relative` under the repo."""

    def build(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")

    return build


def fifo_skillscope_toml(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    os.mkfifo(root / "skillscope.toml")  # nothing ever writes: a blocking read would wait forever


GENERATORS: dict[str, Callable[[Path, pytest.MonkeyPatch], None]] = {
    "brackets-4mb": brackets_4mb,
    "outside-git": outside_git,
    "git-other-owner": git_other_owner,
    "deep-skillscope-toml": writing("skillscope.toml", "skills-dir = " + "[" * DEEP + "]" * DEEP + "\n"),
    "deep-pyproject-toml": writing(
        "pyproject.toml", "[tool.skillscope]\nskills-dir = " + "[" * DEEP + "]" * DEEP + "\n"
    ),
    "fifo-skillscope-toml": fifo_skillscope_toml,
    "deep-baseline": writing(
        ".skillscope/baseline.json", '{"findings": ' + "[" * 2 * DEEP + "]" * 2 * DEEP + "}"
    ),
    "deep-quarantine": writing(
        ".skillscope/quarantine.json", '{"cases": ' + "[" * 2 * DEEP + "]" * 2 * DEEP + "}"
    ),
}


def names() -> list[str]:
    return sorted(p.name for p in CORPUS.iterdir() if (p / "expected.json").is_file())


def _key(finding: dict) -> tuple:
    return finding["rule"], finding["path"], finding["line"]


@pytest.mark.parametrize("name", names())
def test_a_bad_input_gives_its_finding_or_usage_error_never_a_crash(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = json.loads((CORPUS / name / "expected.json").read_text(encoding="utf-8"))
    root = CORPUS / name
    if "generate" in expected:
        root = tmp_path / "repo"
        shutil.copytree(CORPUS / name, root, symlinks=True)
        GENERATORS[expected["generate"]](root, monkeypatch)
    report = tmp_path / "report.json"
    args = [expected["command"], "--repo", str(root), *expected["args"]]
    if expected["command"] in REPORTING and expected["exit"] != 2:
        args += ["--output", str(report)]
    environ = {"SKILLSCOPE_VERSION": "v-corpus"}
    stdin = expected.get("stdin")
    run = (
        run_cli(args, cwd=root, environ=environ) if stdin is None else _with_stdin(args, root, environ, stdin)
    )

    shown = run.stdout + run.stderr
    assert run.code == expected["exit"], f"{name}: exit {run.code}\n{run.stderr}"
    assert "Traceback" not in shown and "internal error" not in shown
    assert not UNSAFE.search(shown.replace("\t", "")), f"{name}: a raw control character was printed"
    if "stderr_contains" in expected:
        assert expected["stderr_contains"] in run.stderr, run.stderr
    if "stdout_contains" in expected:
        assert expected["stdout_contains"] in run.stdout, run.stdout
    if expected["exit"] == 2:
        assert run.stderr.startswith("error: ") and run.stderr.count("\n") == 1, run.stderr
    if expected["command"] in REPORTING and expected["exit"] != 2:
        found = json.loads(report.read_text(encoding="utf-8"))["findings"]
        listing = "\n".join(f"  {f['rule']} {f['path']}:{f['line']} {f['message'][:120]}" for f in found)
        for want in expected["findings"]:
            matches = [f for f in found if _key(f) == _key(want)]
            assert matches, f"{name}: expected {_key(want)} among:\n{listing}"
            assert matches[0]["severity"] == want.get("severity", "error"), listing


def _with_stdin(args: list[str], root: Path, environ: dict, stdin: str):
    import io

    from harness.cli import main
    from harness.context import Context
    from tests.support.helpers import CliRun

    ctx = Context(
        environ=environ, cwd=root, stdin=io.StringIO(stdin), stdout=io.StringIO(), stderr=io.StringIO()
    )
    code = main(args, ctx)
    return CliRun(code=code, stdout=ctx.stdout.getvalue(), stderr=ctx.stderr.getvalue())


def test_the_corpus_holds_at_least_sixty_inputs_each_with_a_note_and_no_exit_3() -> None:
    entries = [json.loads((CORPUS / name / "expected.json").read_text()) for name in names()]
    assert len(entries) >= 60
    assert all(entry["note"] and entry["exit"] in (0, 1, 2) for entry in entries)
    assert all(entry.get("generate") in (None, *GENERATORS) for entry in entries)
