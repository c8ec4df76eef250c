"""Work over a large catalog's skill folders in forked worker processes, started early and collected later.

The work (parsing markdown, checking links) is pure CPU in Python, so threads would not help; forked
workers share nothing with the caller and each builds its own parsers. Small runs, and callers running
threads of their own (forking a threaded process can deadlock the child), do the work in-process.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

CHUNKS_PER_WORKER = 8  # small chunks, so workers and the caller (see _steal) finish close together

Item = TypeVar("Item")
Result = TypeVar("Result")


class Ahead(Generic[Item, Result]):
    """`work` over chunks of `items`, started in forked worker processes at once and collected by
    `results()`, so it overlaps whatever the caller does meanwhile (loading the catalog). Each chunk's
    answer is a dict; `results()` merges them. Nothing starts for `threshold` items or fewer, or in a
    threaded caller; results are then empty."""

    def __init__(
        self, work: Callable[[list[Item]], dict[str, Result]], items: list[Item], threshold: int
    ) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._futures: list[Future] = []
        self._collected: dict[str, Result] | None = None
        self._work, self._chunks = work, []
        workers = min(cpu_count(), -(-len(items) // max(threshold, 1)))
        if len(items) <= threshold or workers < 2 or not can_fork():
            return
        import multiprocessing  # on first use, like the pool: small runs never import them
        from concurrent.futures import ProcessPoolExecutor

        try:
            fork = multiprocessing.get_context("fork")
            self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=fork)
            size = -(-len(items) // (workers * CHUNKS_PER_WORKER))
            self._chunks = [items[start : start + size] for start in range(0, len(items), size)]
            self._futures = [self._pool.submit(work, chunk) for chunk in self._chunks]
        except OSError:
            self.close()

    @property
    def started(self) -> bool:
        return bool(self._futures)

    def results(self) -> dict[str, Result]:
        """Every chunk's answers in submission order, collected once and kept for later callers; empty
        if nothing started or a worker died (the caller then does the work itself)."""
        if self._collected is not None:
            return self._collected
        if not self._futures:  # a small run: nothing started, and the pool's modules stay unimported
            self._collected = {}
            return self._collected
        from concurrent.futures.process import BrokenProcessPool

        out: dict[str, Result] = {}
        try:
            stolen = self._steal()
            for index, future in enumerate(self._futures):
                out.update(stolen[index] if index in stolen else future.result())
        except (BrokenProcessPool, OSError):
            out = {}
        finally:
            self.close()
        self._collected = out
        return out

    def _steal(self) -> dict[int, dict[str, Result]]:
        """The caller, done with its own work, takes chunks no worker has started, one at a time from
        the back while the workers take them from the front, so all cores stay busy to the end."""
        stolen: dict[int, dict[str, Result]] = {}
        for index in range(len(self._futures) - 1, -1, -1):
            if not self._futures[index].cancel():
                break
            stolen[index] = self._work(self._chunks[index])
        return stolen

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        self._pool, self._futures = None, []

    def __enter__(self) -> Ahead[Item, Result]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    import threading

    # Where os.fork exists, multiprocessing offers the fork start method; asking it costs an import.
    return hasattr(os, "fork") and threading.active_count() == 1
