"""The result cache: keys from content, signed entries whole or none, misses for anything damaged or
forged, and a folder no commit can fill."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import threading

import pytest

from harness.errors import UsageError
from harness.memo import repo_digest
from harness.model.digests import file_digest, tree_digest
from harness.paid.cache import (
    KEY_ENV,
    KEY_FILE,
    ResultCache,
    chosen_by_environment,
    default_folder,
    key_of,
    refuse_plantable,
)
from harness.paid.replay import Origin

KEY = "ab" * 32
MADE = Origin("2026-12-01T10:00:00+00:00", "0.1.0")


def skill(tmp_path, body="# Body\n"):
    folder = tmp_path / "pdf"
    (folder / "evals").mkdir(parents=True, exist_ok=True)
    (folder / "SKILL.md").write_text(body)
    (folder / "evals" / "evals.json").write_text('{"evaluations": []}')
    return folder


def entry_path(folder, key=KEY):
    return folder / key[:2] / f"{key}.json"


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


def test_the_bytecode_python_writes_beside_a_hook_is_no_part_of_the_digest(tmp_path):
    folder = skill(tmp_path)
    (folder / "evals" / "hooks.py").write_text("def check(run, case, ctx):\n    return None\n")
    first = tree_digest(folder)
    (folder / "evals" / "__pycache__").mkdir()
    (folder / "evals" / "__pycache__" / "hooks.cpython-311.pyc").write_bytes(b"stamped with an mtime")
    assert tree_digest(folder) == first


def test_bytecode_git_tracks_ships_with_the_skill_and_is_part_of_the_digest(tmp_path):
    """A committed .pyc is what the room installs: changing it must miss the cache. Bytecode Python
    writes beside it, untracked, still is not (a fresh checkout would never match it)."""
    folder = skill(tmp_path)
    cache = folder / "scripts" / "__pycache__"
    cache.mkdir(parents=True)
    (folder / "scripts" / "tool.py").write_text("print('hi')\n")
    (cache / "tool.cpython-311.pyc").write_bytes(b"committed bytecode")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "-C", str(folder)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "skill"], check=True)
    committed = tree_digest(folder)
    (cache / "tool.cpython-312.pyc").write_bytes(b"written by a local import")
    assert tree_digest(folder) == committed
    (cache / "tool.cpython-311.pyc").write_bytes(b"changed bytecode")
    assert tree_digest(folder) != committed


def test_keys_depend_on_every_part_and_not_on_their_order():
    key = key_of("routing", {"prompt": "p", "model": "m"})
    assert key == key_of("routing", {"model": "m", "prompt": "p"})
    assert key != key_of("behavioral", {"prompt": "p", "model": "m"})
    assert key != key_of("routing", {"prompt": "p", "model": "n"})


# --- signed entries ----------------------------------------------------------------------------------


def test_an_entry_comes_back_whole_with_the_run_that_made_it(tmp_path):
    results = ResultCache(tmp_path / "cache", MADE)
    assert results.get(KEY) is None and not (tmp_path / "cache").exists()  # a read makes nothing
    results.put(KEY, {"observed": "pdf", "cost_usd": 0.1})
    replay = results.get(KEY)
    assert replay is not None and replay.sample == {"observed": "pdf", "cost_usd": 0.1}
    assert replay.origin == MADE and replay.origin.to_json() == {
        "started_at": "2026-12-01T10:00:00+00:00",
        "harness_version": "0.1.0",
    }
    path = entry_path(tmp_path / "cache")
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temp file left behind
    assert results.notes() == []


def test_the_signing_key_is_made_once_readable_by_its_owner_only(tmp_path):
    results = ResultCache(tmp_path / "cache", MADE)
    results.put(KEY, {"observed": "pdf"})
    key_file = tmp_path / "cache" / KEY_FILE
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    made = key_file.read_bytes()
    ResultCache(tmp_path / "cache", MADE).put("cd" * 32, {"observed": None})
    assert key_file.read_bytes() == made and [p.name for p in key_file.parent.iterdir() if p.is_file()] == [
        KEY_FILE
    ]


@pytest.mark.parametrize(
    "forge",
    [
        pytest.param(lambda e: {**e, "sample": {**e["sample"], "observed": "other"}}, id="edited-sample"),
        pytest.param(lambda e: {**e, "made_by": {**e["made_by"], "started_at": "x"}}, id="edited-origin"),
        pytest.param(lambda e: {k: v for k, v in e.items() if k != "mac"}, id="unsigned"),
        pytest.param(lambda e: {**e, "mac": "00" * 32}, id="other-signature"),
        pytest.param(lambda e: e["sample"], id="bare-sample"),
        pytest.param(lambda e: [1, 2], id="not-an-object"),
    ],
)
def test_an_entry_that_does_not_verify_is_a_miss_and_counted(tmp_path, forge):
    results = ResultCache(tmp_path / "cache", MADE)
    results.put(KEY, {"observed": None})
    path = entry_path(tmp_path / "cache")
    path.write_text(json.dumps(forge(json.loads(path.read_text()))))
    assert results.get(KEY) is None
    assert results.notes() == ["1 cache entry failed verification and was run again"]


def test_a_damaged_entry_is_a_miss(tmp_path):
    results = ResultCache(tmp_path / "cache", MADE)
    results.put(KEY, {"observed": "pdf"})
    entry_path(tmp_path / "cache").write_bytes(b'{"sample": \xff')
    assert results.get(KEY) is None and len(results.rejected) == 1


@pytest.mark.parametrize("planted", [b"[" * 100_000 + b"]" * 100_000, None])
def test_a_deep_or_special_entry_is_a_miss_not_a_crash_or_a_wait(tmp_path, planted):
    results = ResultCache(tmp_path / "cache", MADE)
    results.put(KEY, {"observed": "pdf"})
    path = entry_path(tmp_path / "cache")
    path.unlink()
    if planted is None:
        os.mkfifo(path)  # a restored cache folder can hold anything: reading a pipe would wait forever
    else:
        path.write_bytes(planted)
    assert results.get(KEY) is None


def test_an_entry_moved_to_another_key_does_not_verify(tmp_path):
    """A passing sample of one case copied over a failing one's is not served."""
    results = ResultCache(tmp_path / "cache", MADE)
    results.put(KEY, {"observed": "pdf"})
    other = "cd" * 32
    entry_path(tmp_path / "cache", other).parent.mkdir(parents=True)
    entry_path(tmp_path / "cache", other).write_bytes(entry_path(tmp_path / "cache").read_bytes())
    assert results.get(other) is None and results.get(KEY) is not None
    assert results.notes() == ["1 cache entry failed verification and was run again"]


def test_entries_signed_elsewhere_do_not_verify_here(tmp_path):
    """Entries made with another machine's key, planted without it (or with a key file of their own)."""
    elsewhere = ResultCache(tmp_path / "elsewhere", MADE)
    elsewhere.put(KEY, {"observed": "pdf"})
    elsewhere.put("cd" * 32, {"observed": "pdf"})
    here = tmp_path / "here"
    for key in (KEY, "cd" * 32):
        entry_path(here, key).parent.mkdir(parents=True, exist_ok=True)
        entry_path(here, key).write_bytes(entry_path(tmp_path / "elsewhere", key).read_bytes())
    results = ResultCache(here, MADE)
    assert results.get(KEY) is None and results.get("cd" * 32) is None  # no key file here yet
    results.put("ef" * 32, {"observed": None})  # now it has its own
    assert results.get(KEY) is None
    assert results.notes() == ["2 cache entries failed verification and were run again"]


def test_a_key_from_the_environment_signs_for_every_folder_that_shares_it(tmp_path):
    """CI: the secret comes from $SKILLSCOPE_CACHE_KEY, so no key file is needed or written."""
    environ = {KEY_ENV: "a secret held by the CI"}
    ResultCache(tmp_path / "one", MADE, environ).put(KEY, {"observed": "pdf"})
    assert not (tmp_path / "one" / KEY_FILE).exists()
    (tmp_path / "two").mkdir()
    os.rename(tmp_path / "one" / KEY[:2], tmp_path / "two" / KEY[:2])
    assert ResultCache(tmp_path / "two", MADE, environ).get(KEY) is not None
    assert ResultCache(tmp_path / "two", MADE, {KEY_ENV: "another"}).get(KEY) is None


def test_two_writers_of_one_key_never_leave_half_an_entry(tmp_path):
    results = ResultCache(tmp_path / "cache", MADE)
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
    assert all(replay is not None and replay.sample["text"] == big["text"] for replay in seen)


def test_a_folder_that_cannot_be_written_is_said_once_and_fails_nothing(tmp_path):
    blocker = tmp_path / "cache"
    blocker.write_text("a file where the folder should be")
    results = ResultCache(blocker, MADE)
    results.put("ef" * 32, {"observed": None})
    results.put("01" * 32, {"observed": None})
    assert results.get("ef" * 32) is None
    assert results.write_error.startswith(f"could not write the result cache under {blocker}")
    assert "--no-cache" in results.write_error and results.notes() == [results.write_error]


# --- what the environment chooses --------------------------------------------------------------------


def test_the_model_and_endpoint_the_environment_chooses_are_read_per_runtime_without_credentials():
    environ = {
        "ANTHROPIC_MODEL": "claude-other-2",
        "ANTHROPIC_BASE_URL": "https://user:hunter2@gateway.example:8443/v1",
        "ANTHROPIC_API_KEY": "sk-secret",
        "OPENAI_MODEL": "gpt-x",
    }
    claude = chosen_by_environment("claude", environ)
    assert claude["ANTHROPIC_MODEL"] == "claude-other-2"
    assert claude["ANTHROPIC_BASE_URL"] == "https://gateway.example:8443/v1"
    assert "ANTHROPIC_API_KEY" not in claude and "hunter2" not in json.dumps(claude)
    assert chosen_by_environment("codex", environ) == {"OPENAI_BASE_URL": None, "OPENAI_MODEL": "gpt-x"}
    assert chosen_by_environment("unknown", environ) == {}


# --- where the cache lives ---------------------------------------------------------------------------


def test_the_default_folder_is_in_the_user_cache_one_per_repo(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    assert default_folder(repo, {"XDG_CACHE_HOME": str(tmp_path / "xdg")}) == (
        tmp_path / "xdg" / "skillscope" / "results" / repo_digest(repo)
    )
    assert default_folder(repo, {"HOME": str(tmp_path / "home")}).parent == (
        tmp_path / "home" / ".cache" / "skillscope" / "results"
    )
    assert default_folder(tmp_path / "other", {"HOME": "/h"}) != default_folder(repo, {"HOME": "/h"})


def test_a_folder_inside_the_repo_is_refused_naming_it_and_the_fix(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".skillscope" / "cache").mkdir(parents=True)
    (tmp_path / "link").symlink_to(repo / ".skillscope")
    for inside in (repo, repo / ".skillscope" / "cache", tmp_path / "link" / "cache"):
        with pytest.raises(UsageError) as refused:
            refuse_plantable(inside, repo, "--cache", "pass a folder outside it", {})
        message = str(refused.value)
        assert message.startswith(f"--cache {inside} lies inside the repo under test")
        assert message.endswith("; pass a folder outside it.") and message.count(". ") == 0
    refuse_plantable(tmp_path / "elsewhere", repo, "--cache", "fix", {})  # outside: fine


def test_a_folder_holding_files_tracked_by_git_is_refused(tmp_path):
    other = tmp_path / "other-repo"
    folder = other / "cache"
    (folder / "ab").mkdir(parents=True)
    (folder / "ab" / f"{KEY}.json").write_text("{}")
    environ = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t"}
    environ["GIT_COMMITTER_EMAIL"] = "t@t"
    subprocess.run(["git", "init", "-q", str(other)], check=True, env=environ)
    refuse_plantable(folder, tmp_path / "repo", "--cache", "fix", environ)  # untracked: fine
    subprocess.run(["git", "-C", str(other), "add", "-f", "cache"], check=True, env=environ)
    with pytest.raises(UsageError, match=r"holds files tracked by git \(ab/a"):
        refuse_plantable(folder, tmp_path / "repo", "--cache", "pass a folder git does not track", environ)
