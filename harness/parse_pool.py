"""Markdown files read and parsed in worker processes, for catalogs large enough to pay for a pool.

Parsing is pure CPU in Python, so threads would not help; forked workers share nothing with the caller
and each builds its own parsers. Small runs, and callers running threads of their own (forking a
threaded process can deadlock the child), parse in-process as before.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from harness import links
from harness.files import UnreadableFile, read_text
from harness.links import Document

THRESHOLD = 200  # files; below this, starting workers costs more than the parse they would share
CHUNKS_PER_WORKER = 4  # a few chunks each, so one slow chunk does not leave the other workers idle


@dataclass(frozen=True)
class Failure:
    """Why a file yields no document: the finding's rule and message."""

    rule: str
    message: str


Outcome = Document | Failure


def read(path: Path, reader: links.Parser) -> Outcome:
    try:
        return links.parse(read_text(path), reader)
    except UnreadableFile as exc:
        return Failure("ref-unreadable", f"cannot be read: {exc.reason}.")
    except Exception as exc:  # noqa: BLE001 - a parser bug on odd input must stay a finding
        return Failure("ref-unparsable", f"the markdown parser failed on this file ({type(exc).__name__}); "
                       "simplify its markup.")


def read_chunk(paths: list[Path]) -> list[Outcome]:
    reader = links.Parser()
    return [read(path, reader) for path in paths]


def read_all(paths: list[Path], threshold: int = THRESHOLD) -> dict[Path, Outcome]:
    """Outcomes of `paths` parsed in parallel, keyed by path; empty when the run is too small, the caller
    runs threads, or the pool breaks (the caller then parses each file itself, with the same result)."""
    workers = min(cpu_count(), -(-len(paths) // max(threshold, 1)))
    if len(paths) <= threshold or workers < 2 or not can_fork():
        return {}
    size = -(-len(paths) // (workers * CHUNKS_PER_WORKER))
    chunks = [paths[start:start + size] for start in range(0, len(paths), size)]
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
            done = list(pool.map(read_chunk, chunks))
    except (BrokenProcessPool, OSError):
        return {}
    return {path: outcome for chunk, outcomes in zip(chunks, done, strict=True)
            for path, outcome in zip(chunk, outcomes, strict=True)}


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
