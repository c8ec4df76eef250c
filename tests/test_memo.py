"""The memo of content-derived results: kept per repo in the user's cache, salted, bounded, never fatal."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from harness import memo
from harness.memo import Memo, code_digest


@pytest.fixture
def cache(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "skillscope"


def test_an_entry_saved_by_one_run_is_read_by_the_next(cache: Path, tmp_path: Path):
    first = Memo.of_repo(tmp_path, "links", "salt")
    key = first.key("some text")
    assert first.get(key) is None
    first.put(key, {"anchors": ["a"]})
    first.save()
    again = Memo.of_repo(tmp_path, "links", "salt")
    assert again.get(again.key("some text")) == {"anchors": ["a"]}
    assert again.get(again.key("other text")) is None
    assert list((cache / "memo").iterdir()) == [first.path]


def test_each_repo_and_kind_has_its_own_file_outside_the_repo(cache: Path, tmp_path: Path):
    paths = {Memo.of_repo(tmp_path / name, kind, "s").path for name in ("a", "b") for kind in ("x", "y")}
    assert len(paths) == 4 and all(cache in path.parents for path in paths)


def test_another_salt_or_harness_version_reads_nothing_back(cache: Path, tmp_path: Path, monkeypatch):
    first = Memo.of_repo(tmp_path, "links", "parser 1")
    first.put(first.key("text"), [1])
    first.save()
    assert Memo.of_repo(tmp_path, "links", "parser 2").entries == {}
    monkeypatch.setattr(memo, "__version__", "9.9.9")
    assert Memo.of_repo(tmp_path, "links", "parser 1").entries == {}


@pytest.mark.parametrize("content", [b"", b"{not json", b"[]", b'{"salt": 1}', b"\xff\xfe"])
def test_a_damaged_memo_is_an_empty_one(cache: Path, tmp_path: Path, content: bytes):
    path = Memo.of_repo(tmp_path, "links", "s").path
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    again = Memo.of_repo(tmp_path, "links", "s")
    assert again.entries == {}
    again.put(again.key("t"), 1)
    again.save()  # and it is replaced by a good one
    assert json.loads(path.read_text())["entries"] == {again.key("t"): 1}


def test_an_unwritable_cache_costs_time_not_the_run(tmp_path: Path, monkeypatch):
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the cache folder would go")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    kept = Memo.of_repo(tmp_path, "links", "s")
    kept.put(kept.key("t"), 1)
    kept.save()
    assert kept.get(kept.key("t")) == 1


def test_a_save_keeps_what_the_run_used_then_older_entries_up_to_keep(
    cache: Path, tmp_path: Path, monkeypatch
):
    monkeypatch.setattr(memo, "KEEP", 3)
    first = Memo.of_repo(tmp_path, "links", "s")
    for n in range(5):
        first.put(first.key(str(n)), n)
    first.save()  # what one run used is kept whole
    assert len(Memo.of_repo(tmp_path, "links", "s").entries) == 5
    later = Memo.of_repo(tmp_path, "links", "s")
    later.put(later.key("new"), "new")
    later.save()
    kept = Memo.of_repo(tmp_path, "links", "s").entries
    assert len(kept) == 3 and later.key("new") in kept


def test_a_run_that_added_nothing_writes_nothing(cache: Path, tmp_path: Path):
    Memo.of_repo(tmp_path, "links", "s").save()
    assert not cache.exists()


def test_learned_entries_are_kept_and_saved_but_not_handed_on(cache: Path, tmp_path: Path):
    # A scan in the caller takes what it added and learns it back: handing it on again would make
    # each file's share carry every earlier file's entries.
    run = Memo.of_repo(tmp_path, "links", "s")
    run.put("a", 1)
    run.learn(run.take_added())
    run.learn({"b": 2})
    assert run.take_added() == {}
    assert run.get("a") == 1 and run.get("b") == 2
    run.save()
    assert Memo.of_repo(tmp_path, "links", "s").entries == {"a": 1, "b": 2}


def test_a_new_memo_file_deletes_the_memos_no_run_has_written_for_a_month(cache: Path, tmp_path: Path):
    folder = cache / "memo"
    folder.mkdir(parents=True)
    month_ago = time.time() - memo.STALE_AFTER_S - 60
    stale = folder / f"links-{'a' * 24}.json"
    recent = folder / f"links-{'b' * 24}.json"
    foreign = folder / "notes.json"  # not a memo's name: never ours to delete
    for path in (stale, recent, foreign):
        path.write_text("{}", encoding="utf-8")
    os.utime(stale, (month_ago, month_ago))
    os.utime(foreign, (month_ago, month_ago))
    current = Memo.of_repo(tmp_path, "links", "salt")
    current.put(current.key("text"), 1)
    current.save()
    assert sorted(p.name for p in folder.iterdir()) == sorted([current.path.name, recent.name, foreign.name])


def test_a_memo_read_but_not_changed_is_kept_from_the_prune(cache: Path, tmp_path: Path):
    saved = Memo.of_repo(tmp_path / "quiet", "links", "salt")
    saved.put(saved.key("text"), 1)
    saved.save()
    month_ago = time.time() - memo.STALE_AFTER_S - 60
    os.utime(saved.path, (month_ago, month_ago))
    Memo.of_repo(tmp_path / "quiet", "links", "salt")  # a run that reads it and adds nothing
    other = Memo.of_repo(tmp_path / "busy", "links", "salt")
    other.put(other.key("text"), 2)
    other.save()
    assert saved.path.exists()


def test_a_code_digest_moves_with_the_code_and_not_with_where_it_is_installed(tmp_path: Path):
    here, there = tmp_path / "a", tmp_path / "b"
    for folder in (here, there):
        folder.mkdir()
        (folder / "reader.py").write_text("READ = 1\n", encoding="utf-8")
    before = code_digest([here / "reader.py", here / "gone.py"], ("json",))
    assert code_digest([there / "reader.py", there / "gone.py"], ("json",)) == before
    (here / "reader.py").write_text("READ = 2\n", encoding="utf-8")
    assert code_digest([here / "reader.py", here / "gone.py"], ("json",)) != before
    assert code_digest([there / "reader.py", there / "gone.py"]) != before  # the package counts too


def test_a_memo_is_replaced_whole_but_never_flushed_to_disk(cache: Path, tmp_path: Path, monkeypatch):
    """A memo lost in a crash is read as empty next time, so its save skips the disk flush a report
    pays for (thousands of in-process runs spent seconds there)."""
    flushed: list[int] = []
    monkeypatch.setattr(os, "fsync", flushed.append)
    made = Memo.of_repo(tmp_path, "links", "salt")
    made.put(made.key("text"), {"anchors": []})
    made.save()
    assert made.path.is_file() and flushed == []
