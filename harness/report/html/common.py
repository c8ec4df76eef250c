"""Cell renderers the per-command sections share: a case's dataset place and clipped prompt, a rate with
its interval, a status word, and a case's details (its prompt whole, its kept transcripts) behind a
closed <details>."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from harness.printable import clip
from harness.report.format import number
from harness.report.html.shell import text
from harness.report.html.table import Deferred, collapsed, deferred, pre

PROMPT_CHARS = 120  # in the table; the row's details hold it whole
PLACE_HEADS = ["dataset", "prompt"]  # the last columns of every case table: see place_cells
# What `show` found in a run's kept logs: case id -> [(title, lines)], one entry a log.
Transcripts = Mapping[str, Sequence[tuple[str, Sequence[str]]]]


def place_cells(case: Mapping) -> list[str]:
    """Where the case is written (its dataset's file and line) and its prompt on one line, clipped."""
    source, line, prompt = case.get("source"), case.get("line"), case.get("prompt")
    where = (
        whole_path(f"{source}:{line}" if isinstance(line, int) else source) if isinstance(source, str) else ""
    )
    return [where, text(clip(prompt if isinstance(prompt, str) else "", PROMPT_CHARS))]


def whole_path(path: str) -> str:
    """A file path that wraps only after a `/` (a <wbr> there), each name kept on one line (a hyphen is
    no place to break it either), so `evals.json:55` never breaks mid-name."""
    parts = path.split("/")
    names = [f"<span>{text(part)}/</span>" for part in parts[:-1]] + [f"<span>{text(parts[-1])}</span>"]
    return '<span class="path">' + "<wbr>".join(names) + "</span>"


def rate(hits: int, trials: int, interval: object = None) -> str:
    """`hits/trials = 0.50`, and under it the 95 % interval when the report gives one."""
    if not trials:
        return "—"
    shown = text(f"{hits}/{trials} = {hits / trials:.2f}")
    if isinstance(interval, (list, tuple)) and len(interval) == 2:
        low, high = (number(bound, ".2f", "?") for bound in interval)
        shown += f'<br><span class="muted">{text(f"{low}–{high}")}</span>'
    return shown


def interval(value: object, bounds: object) -> str:
    if not isinstance(value, (int, float)):
        return "—"
    if isinstance(bounds, (list, tuple)) and len(bounds) == 2:
        return f"{value:.3f} ({bounds[0]:.2f}–{bounds[1]:.2f})"
    return f"{value:.3f}"


def fields(row: Mapping, keys: Iterable[str], missing: object = 0) -> list[str]:
    """The figures `keys` of a report's row as plain-text cells, `missing` for one it lacks."""
    return [str(row.get(key, missing)) for key in keys]


def word(status: object) -> str:
    value = str(status) if status is not None else "not graded"
    return f'<span class="{text(value)}">{text(value)}</span>'


def error_line(case: Mapping) -> str:
    """Why the case's run failed, or ''."""
    return f'<p class="error">error: {text(case["error"])}</p>' if case.get("error") else ""


def case_details(
    case: Mapping, transcripts: Transcripts, middle: Iterable[str], summary: str = "details"
) -> Deferred:
    """A case's details, opened from its row: its prompt whole, `middle` (rendered HTML), and the
    transcripts its run kept."""
    prompt = case.get("prompt")
    shown = f"<h3>Prompt</h3>{pre([prompt])}" if isinstance(prompt, str) else ""
    return deferred(summary, shown + "".join(middle) + kept_logs(transcripts.get(str(case.get("id")), ())))


def kept_logs(logs: Iterable[tuple[str, Sequence[str]]]) -> str:
    """Each kept log's transcript behind its own closed <details>."""
    return "".join(collapsed(f"transcript: {title}", pre(list(lines))) for title, lines in logs)
