"""Pure CPU work in forked processes, so it overlaps what the caller does meanwhile.

`Prefetch`: a large catalog's per-skill work (parsing markdown, checking links) in a pool of forked
workers, started early and collected later. `Forked`: one share of work that needs the caller's memory
as it is (an index built in place, a compiled stemmer that cannot be pickled), done by one forked child
that sends back its pickled answer. Threads would not help (the work holds the interpreter lock); where
fork is unavailable, the caller runs threads of its own (forking a threaded process can deadlock the
child), or a child fails, the caller does the work itself, so the answer never depends on a worker.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

CHUNKS_PER_WORKER = 8  # small chunks, so workers and the caller (see _steal) finish close together

Item = TypeVar("Item")
Result = TypeVar("Result")


class Prefetch(Generic[Item, Result]):
    """`work` over chunks of `items`, started in forked worker processes at once and collected by
    `results()`, so it overlaps whatever the caller does meanwhile (loading the catalog). Each chunk's
    answer is a dict; `results()` merges them. Nothing starts for `threshold` items or fewer, or in a
    threaded caller; results are then empty."""

    def __init__(
        self,
        work: Callable[[list[Item]], dict[str, Result]],
        items: list[Item],
        threshold: int,
        chunks_per_worker: int = CHUNKS_PER_WORKER,
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
            size = -(-len(items) // (workers * max(chunks_per_worker, 1)))
            self._chunks = [items[start : start + size] for start in range(0, len(items), size)]
            self._futures = [self._pool.submit(work, chunk) for chunk in self._chunks]
        except OSError:
            self.close()

    @property
    def started(self) -> bool:
        return bool(self._futures)

    @property
    def chunks(self) -> int:
        """How many chunks the items were cut into (none when nothing started)."""
        return len(self._futures)

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

    def __enter__(self) -> Prefetch[Item, Result]:
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


Answer = TypeVar("Answer")


class Forked(Generic[Answer]):
    """`work()` started in a forked child when `start` is true; `answer()` collects it. Use as a context
    manager: leaving early (a failed gate, a cancelled run) ends the child."""

    def __init__(self, work: Callable[[], Answer], start: bool = True) -> None:
        self._work = work
        self._pid: int | None = None
        self._pipe: int | None = None
        if not start or not can_fork():
            return
        read, write = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read)
            os.close(write)
            return
        if pid == 0:
            run_child(work, read, write)
        os.close(write)
        self._pid, self._pipe = pid, read

    @property
    def pid(self) -> int | None:
        """The child's process id while it runs and is not collected."""
        return self._pid

    def answer(self) -> Answer:
        """The child's answer; the caller's own run of the work when no child ran or it failed."""
        if self._pid is None or self._pipe is None:
            return self._work()
        import pickle  # with a child only: a run that forks none never loads it

        try:
            with os.fdopen(self._pipe, "rb") as pipe:
                self._pipe = None
                data = pipe.read()
            _, status = os.waitpid(self._pid, 0)
            self._pid = None
            if os.waitstatus_to_exitcode(status) == 0:
                return pickle.loads(data)
        except (OSError, EOFError, pickle.UnpicklingError):
            self.close()
        return self._work()

    def close(self) -> None:
        if self._pipe is not None:
            os.close(self._pipe)
            self._pipe = None
        if self._pid is not None:
            try:
                os.kill(self._pid, signal.SIGKILL)
                os.waitpid(self._pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            self._pid = None

    def __enter__(self) -> Forked[Answer]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_child(work: Callable[[], object], read: int, write: int) -> None:
    """In the child: do the work, write the pickled answer, and leave without running the caller's exit
    handlers or flushing its buffers (they belong to the parent). Signals are handled as the parent
    handles them: a run that defers Ctrl-C finishes its share, one that stops on it stops here too."""
    import pickle

    code = 1
    try:
        os.close(read)
        data = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write, "wb") as pipe:
            pipe.write(data)
        code = 0
    finally:
        os._exit(code)
