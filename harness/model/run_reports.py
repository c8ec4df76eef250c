"""Where each run's JSON report is kept: under `<repo>/.skillscope/runs/` (the ledger `history` reads),
named by its time and claimed by exclusive create, the latest of each command beside it, and the
.gitignore that keeps the folder out of git."""

from __future__ import annotations

import contextlib
from datetime import datetime
from pathlib import Path

from harness.errors import HarnessError
from harness.files import UnreadableFile, read_text
from harness.writer import make_folder, write_new, write_text, writing

RUNS = Path(".skillscope") / "runs"
TRIES = 1000  # names tried for one command's report within one second before giving up
# Everything under .skillscope/ stays out of git but the baseline, which `skillscope baseline` writes to
# be committed, and the quarantine (.skillscope/quarantine.json), which a person writes to be committed.
GITIGNORE = "*\n!baseline.json\n!quarantine.json\n"
OLDER_GITIGNORES = ("*\n!baseline.json\n",)  # as earlier versions wrote it: brought up to date
FIX = "fix --output or the folder's permissions"


def save(as_json: str, repo: Path, command: str, output: Path | None) -> Path:
    """The JSON report at `output` (--output, from where the command ran), else a new file under
    .skillscope/runs/ and latest-<command>.json. That file is claimed by exclusive create, so a run
    finishing in the same second never overwrites it."""
    if output is not None:
        with writing("the JSON report", output, FIX):
            write_text(output, as_json, repo)
        return output
    runs = repo / RUNS
    with writing("the JSON report", runs, FIX):
        make_folder(runs, repo)
    with writing("the JSON report", runs.parent, FIX):
        ignore_everything(runs.parent, repo)
    with writing("the JSON report", runs, FIX):
        path = claim(runs, command, as_json, repo)
    latest = runs / f"latest-{command}.json"
    with writing("the latest report", latest, FIX):
        write_text(latest, as_json, repo)
    return path


def claim(runs: Path, command: str, body: str, repo: Path) -> Path:
    """A new report file named by the time, suffixed -2, -3… when a run in the same second took it."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    for attempt in range(1, TRIES + 1):
        path = runs / (f"{command}-{stamp}.json" if attempt == 1 else f"{command}-{stamp}-{attempt}.json")
        try:
            write_new(path, body, repo)
        except FileExistsError:
            continue
        return path
    raise HarnessError(f"cannot find a free report name in {runs} after {TRIES} tries; pass --output PATH.")


def ignore_everything(folder: Path, repo: Path) -> None:
    """`.skillscope/.gitignore`, written once (a user's edit stays; an older version's is updated)."""
    path = folder / ".gitignore"
    try:
        write_new(path, GITIGNORE, repo)
    except FileExistsError:
        with contextlib.suppress(OSError, UnreadableFile):
            if read_text(path) in OLDER_GITIGNORES:
                write_text(path, GITIGNORE, repo)
