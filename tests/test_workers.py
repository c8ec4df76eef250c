"""harness.workers: a catalog's work forked to a pool gives the same answers as in-process, or no pool
when one must not be used (small runs, threaded callers); and one forked share's answer never depends
on the child working."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from harness import workers
from harness.checks import references
from harness.markdown import links
from harness.model import catalog, repo
from harness.workers import Forked
from tests.support.helpers import make_skill
from tests.support.procs import assert_single_threaded

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted(str(path) for path in ROOT.glob("tests/acceptance/**/*.md") if path.is_file())


@pytest.fixture(autouse=True)
def single_threaded() -> None:
    assert_single_threaded()


def parse_chunk(paths: list[str]) -> dict[str, references.Document | references.Failure]:
    reader = links.Parser()
    return {path: references.read(Path(path), reader) for path in paths}


def worker_pid(items: list[int]) -> dict[str, int]:
    return {str(item): os.getpid() for item in items}


def test_parallel_work_matches_the_serial_one():
    with workers.Prefetch(parse_chunk, CORPUS, threshold=1) as ahead:
        assert ahead.started
        answers = ahead.results()
    assert list(answers) == CORPUS
    assert answers == parse_chunk(CORPUS)


def test_workers_are_other_processes():
    with workers.Prefetch(worker_pid, list(range(400)), threshold=1) as ahead:
        pids = set(ahead.results().values())
    assert pids - {os.getpid()}


def test_no_pool_is_forked_from_a_threaded_caller():
    seen: list[bool] = []

    def start() -> None:
        with workers.Prefetch(parse_chunk, CORPUS[:5], threshold=1) as ahead:
            seen.append(ahead.started)
            seen.append(ahead.results() == {})

    thread = threading.Thread(target=start)
    thread.start()
    thread.join()
    assert seen == [False, True]


def test_small_runs_start_no_pool():
    with workers.Prefetch(parse_chunk, CORPUS[:5], threshold=10) as ahead:
        assert not ahead.started
        assert ahead.results() == {}


def test_a_catalog_scanned_ahead_gives_the_same_findings(tmp_path: Path):
    count = references.SKILLS_AHEAD + 1
    for number in range(count):
        other = f"s{(number + 1) % count:03d}"
        make_skill(
            tmp_path / "skills",
            f"s{number:03d}",
            files={
                "references/a.md": "# A\n\n- [b](b.md#b) [gone](gone.md)\n- [top](../SKILL.md#nowhere)\n"
                "- [web](https://example.invalid/page)\n",
                # across skills: the target may sit in another worker's chunk
                "references/b.md": (
                    f"# B\n\n[a](a.md#a) [bad](a.md#c) [next](../../{other}/references/a.md#z)\n"
                ),
            },
        )
    (tmp_path / "skills" / "s007" / "references" / "binary.md").write_bytes(b"\0\1\2")
    (tmp_path / "skills" / "s003" / "references" / "b.md").write_text(
        "# B\n\n[broken](../../s007/references/binary.md#x)\n", encoding="utf-8"
    )
    loaded = catalog.load(repo.discover(tmp_path, ["skills/*"]))
    with references.scan_ahead(loaded.repo) as ahead:
        assert ahead.started
        parallel = references.scan(loaded, (), ahead)
        again = references.scan(loaded, (), ahead)  # structural --external asks twice
        assert ahead.results() is ahead.results()
    serial = references.scan(loaded)
    assert again == parallel
    assert parallel.findings == serial.findings
    assert [f.rule for f in parallel.findings].count("ref-unreadable") == 1
    assert [f.rule for f in parallel.findings].count("ref-missing-anchor") == 3 * count - 2
    assert (parallel.files, parallel.internal) == (serial.files, serial.internal)
    assert parallel.external == serial.external and len(parallel.external) == count


def test_a_small_catalog_starts_no_workers(tmp_path: Path):
    make_skill(tmp_path / "skills", "alpha")
    with references.scan_ahead(repo.discover(tmp_path, ["skills/*"])) as ahead:
        assert not ahead.started
        assert ahead.results() == {}


def test_workers_read_the_parse_memo_and_hand_back_what_they_parsed(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for number in range(references.SKILLS_AHEAD + 1):
        make_skill(
            tmp_path / "skills", f"s{number:03d}", files={"references/a.md": "# A\n\n[gone](gone.md)\n"}
        )
    loaded = catalog.load(repo.discover(tmp_path, ["skills/*"]))
    with references.scan_ahead(loaded.repo) as ahead:
        assert ahead.started
        cold = references.scan(loaded, (), ahead)
    kept = references.links_memo(tmp_path)
    # every SKILL.md names its skill; a.md reads the same in every skill: one entry serves them all
    assert len(kept.entries) == references.SKILLS_AHEAD + 2

    def refuse(*args, **kwargs):
        raise AssertionError("parsed again")

    monkeypatch.setattr(links.Parser, "tokens", refuse)  # forked workers inherit the refusal
    with references.scan_ahead(loaded.repo) as ahead:
        assert ahead.started
        warm = references.scan(loaded, (), ahead)
    assert warm == cold and len(cold.findings) == references.SKILLS_AHEAD + 1


def test_a_first_run_imports_the_parser_before_the_workers_fork_and_a_warm_one_cuts_fewer_chunks(
    tmp_path: Path, monkeypatch
):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for number in range(references.SKILLS_AHEAD + 1):
        make_skill(tmp_path / "skills", f"s{number:03d}")
    loaded = catalog.load(repo.discover(tmp_path, ["skills/*"]))
    preloaded: list[int] = []
    monkeypatch.setattr(links, "preload", lambda: preloaded.append(os.getpid()))
    with references.scan_ahead(loaded.repo) as ahead:  # no memo yet: every file will be parsed
        cut = ahead.chunks
        first = references.scan(loaded, (), ahead)
    assert preloaded == [os.getpid()]
    with references.scan_ahead(loaded.repo) as ahead:  # the memo the first run left
        assert 2 <= ahead.chunks < cut  # each chunk reads the memo: fewer chunks, fewer reads
        assert references.scan(loaded, (), ahead) == first
    assert preloaded == [os.getpid()]


def test_a_worker_takes_the_memos_salt_from_the_caller(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for number in range(references.SKILLS_AHEAD + 1):
        make_skill(tmp_path / "skills", f"s{number:03d}", files={"references/a.md": "[gone](gone.md)\n"})
    loaded = catalog.load(repo.discover(tmp_path, ["skills/*"]))
    serial = references.scan(loaded)
    caller, real = os.getpid(), links.parser_fingerprint

    def fingerprint() -> str:  # the code digest is worked out in the caller only
        if os.getpid() != caller:
            raise AssertionError("a worker worked out the parser's fingerprint")
        return real()

    monkeypatch.setattr(links, "parser_fingerprint", fingerprint)
    with references.scan_ahead(loaded.repo) as ahead:
        assert ahead.started
        assert references.scan(loaded, (), ahead) == serial


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_the_answer_is_the_work_done_in_another_process():
    with Forked(lambda: (os.getpid(), sum(range(1000)))) as child:
        pid = child.pid
        worker, total = child.answer()
    assert pid is not None and worker == pid != os.getpid()
    assert total == sum(range(1000))
    assert gone(pid)  # collected, not left a zombie


def test_not_started_the_caller_does_the_work_itself():
    with Forked(lambda: os.getpid(), start=False) as child:
        assert child.pid is None
        assert child.answer() == os.getpid()


def test_a_child_that_fails_leaves_the_caller_to_do_the_work():
    parent = os.getpid()

    def work() -> str:
        if os.getpid() != parent:
            raise RuntimeError("the child breaks")
        return "done by the caller"

    with Forked(work) as child:
        assert child.pid is not None
        assert child.answer() == "done by the caller"


def test_a_child_killed_midway_leaves_the_caller_to_do_the_work():
    parent = os.getpid()

    def work() -> str:
        if os.getpid() != parent:
            os.kill(os.getpid(), 9)
        return "done by the caller"

    with Forked(work) as child:
        assert child.answer() == "done by the caller"


def test_leaving_early_ends_a_child_that_would_never_finish():
    hold, never = os.pipe()  # the child waits on a pipe the parent never writes to
    try:
        with Forked(lambda: os.read(hold, 1)) as child:
            pid = child.pid
        assert pid is not None and gone(pid)
    finally:
        os.close(hold)
        os.close(never)


def test_an_error_in_the_callers_own_work_still_ends_the_child():
    hold, never = os.pipe()
    pid = None
    try:
        with pytest.raises(ValueError), Forked(lambda: os.read(hold, 1)) as child:
            pid = child.pid
            raise ValueError("the gate failed")
        assert pid is not None and gone(pid)
    finally:
        os.close(hold)
        os.close(never)
