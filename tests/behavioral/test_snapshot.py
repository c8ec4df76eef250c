"""Before/after snapshots: only what the run created or changed is its product."""

from __future__ import annotations

import os

from harness.behavioral.snapshot import Snapshot, compare

CLAUDE, AGENTS = ".claude/skills", ".agents/skills"  # the two skills folders runtimes declare


def test_created_changed_untouched_and_removed_are_told_apart(tmp_path):
    (tmp_path / "keep.md").write_text("same")
    (tmp_path / "edit.md").write_text("before")
    (tmp_path / "gone.md").write_text("bye")
    before = Snapshot.take(tmp_path, CLAUDE)
    (tmp_path / "edit.md").write_text("after!")
    (tmp_path / "gone.md").unlink()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "new.md").write_text("new")
    changes = compare(before, Snapshot.take(tmp_path, CLAUDE))
    assert changes.created == ["out/new.md"]
    assert changes.changed == ["edit.md"]
    assert changes.untouched == ["keep.md"]
    assert changes.removed == ["gone.md"]
    assert changes.produced == ["edit.md", "out/new.md"]
    assert "out" in changes.directories


def test_a_same_bytes_rewrite_or_a_touch_produces_nothing(tmp_path):
    target = tmp_path / "plan.md"
    target.write_text("plan")
    before = Snapshot.take(tmp_path, CLAUDE)
    target.write_text("plan")
    os.utime(target, ns=(1, 1))
    assert compare(before, Snapshot.take(tmp_path, CLAUDE)).produced == []


def test_the_harness_area_is_never_a_product(tmp_path):
    before = Snapshot.take(tmp_path, CLAUDE)
    skill = tmp_path / ".claude" / "skills" / "x"
    skill.mkdir(parents=True)
    (skill / "notes.md").write_text("written into the skill")
    (tmp_path / "sub" / ".claude").mkdir(parents=True)
    (tmp_path / "sub" / ".claude" / "kept.md").write_text("only the top-level .claude is the harness's")
    assert compare(before, Snapshot.take(tmp_path, CLAUDE)).created == ["sub/.claude/kept.md"]


def test_the_harness_area_is_the_top_folder_of_the_runtimes_skills_folder(tmp_path):
    before = Snapshot.take(tmp_path, AGENTS)
    skill = tmp_path / ".agents" / "skills" / "x"
    skill.mkdir(parents=True)
    (skill / "notes.md").write_text("written into the skill")
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "made.md").write_text("not this runtime's area: the agent's product")
    assert compare(before, Snapshot.take(tmp_path, AGENTS)).created == [".claude/made.md"]


def test_a_link_to_a_directory_is_a_directory_not_a_file(tmp_path):
    (tmp_path / "real").mkdir()
    before = Snapshot.take(tmp_path, CLAUDE)
    (tmp_path / "alias").symlink_to(tmp_path / "real", target_is_directory=True)
    changes = compare(before, Snapshot.take(tmp_path, CLAUDE))
    assert changes.created == [] and "alias" in changes.directories
