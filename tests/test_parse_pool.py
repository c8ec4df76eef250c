"""Markdown parsed in forked workers: the same outcomes as in-process, or nothing when a pool must not
be used (small runs, threaded callers)."""

from __future__ import annotations

import threading
from pathlib import Path

from harness import catalog, links, parse_pool, repo
from harness.checks import references
from tests.helpers import make_skill

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted(path for path in ROOT.glob("tests/acceptance/**/*.md") if path.is_file())


def test_parallel_parse_matches_the_serial_one():
    ahead = parse_pool.read_all(CORPUS, threshold=1)
    assert list(ahead) == CORPUS
    reader = links.Parser()
    assert all(ahead[path] == parse_pool.read(path, reader) for path in CORPUS)


def test_no_pool_is_forked_from_a_threaded_caller():
    seen: list[dict] = []
    thread = threading.Thread(target=lambda: seen.append(parse_pool.read_all(CORPUS[:5], threshold=1)))
    thread.start()
    thread.join()
    assert seen == [{}]


def test_small_runs_parse_in_process():
    assert parse_pool.read_all(CORPUS[:5]) == {}


def test_a_catalog_parsed_ahead_gives_the_same_findings(tmp_path: Path):
    for number in range(references.SKILLS_AHEAD + 1):
        make_skill(tmp_path / "skills", f"s{number:03d}", files={
            "references/a.md": "# A\n\n- [b](b.md#b) [gone](gone.md)\n- [top](../SKILL.md#nowhere)\n",
            "references/b.md": "# B\n\n[a](a.md#a) [bad](a.md#c)\n",
        })
    loaded = catalog.load(repo.discover(tmp_path, ["skills/*"]))
    with references.parse_ahead(loaded.repo) as ahead:
        assert ahead.started
        parallel = references.scan(loaded, (), ahead)
    serial = references.scan(loaded)
    assert parallel.findings == serial.findings
    assert len(parallel.findings) == 3 * (references.SKILLS_AHEAD + 1)
    assert (parallel.files, parallel.internal) == (serial.files, serial.internal)


def test_a_small_catalog_starts_no_workers(tmp_path: Path):
    make_skill(tmp_path / "skills", "alpha")
    with references.parse_ahead(repo.discover(tmp_path, ["skills/*"])) as ahead:
        assert not ahead.started
        assert ahead.results() == {}
