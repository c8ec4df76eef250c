"""Cell renderers the per-command sections share: a case's dataset place, a rate with its interval,
a clipped prompt, a status word, and a case's kept transcripts behind a closed <details>."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from harness.printable import clip
from harness.report.format import number
from harness.report.html.shell import text
from harness.report.html.table import collapsed, pre

PROMPT_CHARS = 120  # in the table; the row's details hold it whole
# What `show` found in a run's kept logs: case id -> [(title, lines)], one entry a log.
Transcripts = Mapping[str, Sequence[tuple[str, Sequence[str]]]]


def place(case: Mapping) -> str:
    source, line = case.get("source"), case.get("line")
    if not isinstance(source, str):
        return ""
    return whole_path(f"{source}:{line}" if isinstance(line, int) else source)


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


def fields(row: Mapping, keys: Sequence[str], missing: object = 0) -> list[str]:
    """The figures `keys` of a report's row as plain-text cells, `missing` for one it lacks."""
    return [str(row.get(key, missing)) for key in keys]


def clipped(prompt: object) -> str:
    """A prompt on one line, clipped for a table cell and escaped."""
    return text(clip(prompt if isinstance(prompt, str) else "", PROMPT_CHARS))


def word(status: object) -> str:
    value = str(status) if status is not None else "not graded"
    return f'<span class="{text(value)}">{text(value)}</span>'


def transcripts_of(case_id: str, transcripts: Transcripts) -> str:
    """The case's kept logs, each behind its own closed <details>, or ''."""
    return "".join(
        collapsed(f"transcript: {title}", pre(list(lines))) for title, lines in transcripts.get(case_id, ())
    )


def prompt_block(case: Mapping) -> str:
    prompt = case.get("prompt")
    return f"<h3>Prompt</h3>{pre([prompt])}" if isinstance(prompt, str) else ""
