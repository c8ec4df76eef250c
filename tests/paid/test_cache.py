"""The result cache: keys from content, whole entries or none, misses for anything damaged."""

from __future__ import annotations

import os
import threading

from harness.paid.cache import ResultCache, file_digest, key_of, tree_digest


def skill(tmp_path, body="# Body\n"):
    folder = tmp_path / "pdf"
    (folder / "evals").mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(body)
    (folder / "evals" / "evals.json").write_text('{"evaluations": []}')
    return folder


def test_the_tree_digest_follows_content_names_and_modes_but_not_skipped_folders(tmp_path):
    folder = skill(tmp_path)
    first = tree_digest(folder, ("evals",))
    (folder / "evals" / "evals.json").write_text("{}")
    assert tree_digest(folder, ("evals",)) == first
    assert tree_digest(folder) != first
    (folder / "SKILL.md").write_text("# Body, edited\n")
    edited = tree_digest(folder, ("evals",))
    assert edited != first
    os.chmod(folder / "SKILL.md", 0o755)
    assert tree_digest(folder, ("evals",)) != edited
    (folder / "SKILL.md").rename(folder / "OTHER.md")
    assert tree_digest(folder, ("evals",)) not in (first, edited)
    assert tree_digest(tmp_path / "nowhere") == "missing" and file_digest(tmp_path / "nowhere") == "missing"


def test_keys_depend_on_every_part_and_not_on_their_order():
    key = key_of("routing", {"prompt": "p", "model": "m"})
    assert key == key_of("routing", {"model": "m", "prompt": "p"})
    assert key != key_of("behavioral", {"prompt": "p", "model": "m"})
    assert key != key_of("routing", {"prompt": "p", "model": "n"})


def test_an_entry_comes_back_whole_and_a_damaged_one_is_a_miss(tmp_path):
    results = ResultCache(tmp_path / "cache")
    assert results.get("ab" * 32) is None
    results.put("ab" * 32, {"observed": "pdf"})
    assert results.get("ab" * 32) == {"observed": "pdf"}
    path = tmp_path / "cache" / "ab" / f"{'ab' * 32}.json"
    path.write_text('{"observed": ')
    assert results.get("ab" * 32) is None
    path.write_text("[1, 2]")
    assert results.get("ab" * 32) is None
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temp file left behind


def test_two_writers_of_one_key_never_leave_half_an_entry(tmp_path):
    results = ResultCache(tmp_path / "cache")
    big = {"text": "x" * 200_000}
    seen = []

    def write(n):
        for _ in range(20):
            results.put("cd" * 32, {**big, "writer": n})
            seen.append(results.get("cd" * 32))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(entry is not None and entry["text"] == big["text"] for entry in seen)


def test_a_folder_that_cannot_be_written_is_said_once_and_fails_nothing(tmp_path):
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the folder should be")
    results = ResultCache(blocker)
    results.put("ef" * 32, {"observed": None})
    results.put("01" * 32, {"observed": None})
    assert results.get("ef" * 32) is None
    assert results.write_error.startswith(f"could not write the result cache under {blocker}")
    assert "--no-cache" in results.write_error
