"""What a sandboxed agent may not read, and the words a report uses for the sandbox."""

from __future__ import annotations

from harness.model.repo import Repo
from harness.paid.sandbox import APPLIED, OFF, UNAVAILABLE, UNKNOWN, SandboxUse, unreadable


def test_every_skill_folder_the_repo_state_and_the_given_folders_are_unreadable(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "linked").symlink_to(tmp_path / "real")
    repo = Repo(tmp_path, ["*"], {"pdf": tmp_path / "pdf", "csv": tmp_path / "linked"})
    cache = tmp_path / "cache"
    assert unreadable(repo, cache, None) == (
        tmp_path / "pdf",
        tmp_path / "linked",
        tmp_path / "real",  # the sandbox sees the real path behind a link
        tmp_path / ".skillscope",
        cache,
    )


def test_the_words_say_whether_it_applied_and_why_not():
    assert SandboxUse.of(False, None, None).status == OFF
    assert SandboxUse.of(True, True, None, [True]).status == APPLIED
    missing = SandboxUse.of(True, False, "bubblewrap (bwrap) not installed")
    assert missing.status == UNAVAILABLE
    assert "did not apply (bubblewrap (bwrap) not installed)" in str(missing.sentence())
    assert missing.headline() == "shell sandbox did not apply (bubblewrap (bwrap) not installed)"
    never = SandboxUse.of(True, None, None)  # no agent started: nothing said whether it applied
    assert (never.status, never.reason) == (UNKNOWN, "no agent run said")


def test_a_run_that_said_off_outweighs_a_probe_that_said_it_starts():
    """Kept or probed, "it starts" is the probe's word; each run's CLI has the last word."""
    stale = SandboxUse.of(True, True, None, [True, False])
    assert (stale.status, stale.reason) == (UNAVAILABLE, "a run's CLI said its sandbox was off")
    named = SandboxUse.of(True, True, None, [False], "bubblewrap (bwrap) not installed")
    assert named.reason == "bubblewrap (bwrap) not installed"
