"""Isolation evidence: paths and Bash working directories that left the workspace."""

from __future__ import annotations

from harness.behavioral.isolation import change_dir_targets, outside_workspace
from tests.support.tracing import call, trace


def test_file_paths_inside_the_workspace_and_its_installed_skill_are_fine(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    found = outside_workspace(
        trace(
            call("Read", {"file_path": str(ws / ".claude/skills/s/SKILL.md")}, "body"),
            call("Write", {"file_path": "out/plan.md", "content": "x"}, "ok"),
            call("Glob", {"pattern": "**/*.md", "path": "."}, "plan.md"),
        ),
        ws,
    )
    assert found == []


def test_file_paths_outside_are_listed_once_with_their_call(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    found = outside_workspace(
        trace(
            call("Read", {"file_path": "/etc/hostname"}, "box"),
            call("Read", {"file_path": "/etc/hostname"}, "box"),
            call("Edit", {"file_path": "../escape.txt", "old_string": "a", "new_string": "b"}, "ok"),
        ),
        ws,
    )
    assert [(o.call, o.tool, o.kind, o.path) for o in found] == [
        (1, "Read", "file", "/etc/hostname"),
        (3, "Edit", "file", str(tmp_path / "escape.txt")),
    ]


def test_bash_working_directories_are_followed_through_cd_and_pwd(tmp_path):
    ws = tmp_path / "ws"
    (ws / "sub").mkdir(parents=True)
    found = outside_workspace(
        trace(
            call("Bash", {"command": "cd sub && ls"}, "a"),
            call("Bash", {"command": "cd .. && cd .. && pwd"}, f"{tmp_path}\n"),
            call("Bash", {"command": "pwd"}, "/somewhere/else\n"),
        ),
        ws,
    )
    assert [(o.call, o.kind, o.path) for o in found] == [
        (2, "cwd", str(tmp_path)),
        (3, "cwd", "/somewhere/else"),
    ]


def test_change_dir_targets_reads_each_command_of_a_line():
    assert change_dir_targets('cd "my dir" && make; pushd /opt | cat\ncd') == ["my dir", "/opt", "~"]
    assert change_dir_targets("echo cd /tmp") == []
