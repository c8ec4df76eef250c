"""A stand-in catalog runner for the behavioral peer benchmark (see ../README.md).

    python eval/run_evals.py --mode behavior --skill NAME [--only IDS] [--model M] [--effort E]
        [--output PATH] [--skip-preflight]

Per run: one `claude -p` to check the API (unless --skip-preflight); per case that asserts something,
the skill copied into a fresh workspace (with the case's seed files), one `claude -p` stream-json run
there, its transcript searched for `logs_contain`, the workspace for `files_exist`, and one `claude -p`
per expected or unexpected statement asking for {"pass": bool}. Writes {"totals": {"cases", "passed"}}
to --output and exits 0 when every case passed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CATALOG = Path(__file__).resolve().parent.parent
ASSERTIONS = ("logs_contain", "files_exist", "expected_behavior", "unexpected_behavior")


def claude(args: list[str], prompt: str, cwd: Path | None = None) -> str:
    binary = shutil.which("claude")
    if binary is None:
        raise SystemExit("error: no claude on PATH")
    done = subprocess.run(
        [binary, "-p", *args], input=prompt, cwd=cwd, capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise SystemExit(f"error: claude exited {done.returncode}: {done.stderr[-400:]}")
    return done.stdout


def judged(statement: str, transcript: str, workspace: Path, model: list[str], must: bool) -> bool:
    ask = "did" if must else "avoided doing"
    prompt = (
        f'Grade one agent run. Answer with one JSON object {{"pass": true|false}}: true when the agent '
        f"{ask} this: {statement}\n\nTranscript:\n{transcript[-4000:]}"
    )
    answer = json.loads(claude(["--output-format", "json", *model], prompt, workspace)).get("result", "")
    start = answer.find("{")
    return start >= 0 and bool(json.loads(answer[start : answer.rfind("}") + 1]).get("pass"))


def run_case(skill: str, case: dict, model: list[str], effort: list[str]) -> bool:
    with tempfile.TemporaryDirectory(prefix="stand-in-") as folder:
        workspace = Path(folder)
        shutil.copytree(CATALOG / "skills" / skill, workspace / ".claude" / "skills" / skill)
        if case.get("workspace"):
            shutil.copytree(CATALOG / "skills" / skill / case["workspace"], workspace, dirs_exist_ok=True)
        flags = ["--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions"]
        transcript = claude([*flags, *model, *effort], case["prompt"], workspace)
        checks = [text.lower() in transcript.lower() for text in case.get("logs_contain", [])]
        checks += [any(workspace.rglob(name)) for name in case.get("files_exist", [])]
        for must, key in ((True, "expected_behavior"), (False, "unexpected_behavior")):
            checks += [judged(s, transcript, workspace, model, must) for s in case.get(key, [])]
        return all(checks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["behavior"], required=True)
    parser.add_argument("--skill", required=True)
    parser.add_argument("--only", default="")
    parser.add_argument("--model", default="")
    parser.add_argument("--effort", default="")
    parser.add_argument("--output", default="")
    parser.add_argument("--skip-preflight", action="store_true")
    args = parser.parse_args()
    model = ["--model", args.model] if args.model else []
    effort = ["--effort", args.effort] if args.effort else []
    dataset = CATALOG / "skills" / args.skill / "evals" / "evals.json"
    cases = [c for c in json.loads(dataset.read_text())["evaluations"] if any(k in c for k in ASSERTIONS)]
    if args.only:
        cases = [c for c in cases if c["id"] in args.only.split(",")]
    if not args.skip_preflight:
        claude(["--output-format", "json", *model], "Reply with ok.")
    passed = sum(run_case(args.skill, case, model, effort) for case in cases)
    report = {"totals": {"cases": len(cases), "passed": passed}}
    if args.output:
        Path(args.output).write_text(json.dumps(report), encoding="utf-8")
    print(f"{passed}/{len(cases)} cases passed")
    return 0 if cases and passed == len(cases) else 1


if __name__ == "__main__":
    sys.exit(main())
