"""Where the key relay's guarantee ends (harness/agent/keyreach.py): another process's environment
holding the key, found among those this user can read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from harness.agent.keyreach import holders, reach


def fake_proc(root: Path, processes: dict[int, tuple[str, dict[str, str]]]) -> Path:
    for pid, (name, environ) in processes.items():
        folder = root / str(pid)
        folder.mkdir(parents=True)
        (folder / "comm").write_text(name + "\n")
        (folder / "environ").write_bytes(b"\0".join(f"{k}={v}".encode() for k, v in environ.items()))
    (root / "self").mkdir()
    return root


def test_a_process_holding_the_key_in_its_environment_is_named(tmp_path):
    proc = fake_proc(
        tmp_path / "proc",
        {
            101: ("bash", {"PATH": "/bin", "ANTHROPIC_API_KEY": "sk-the-key-123456"}),
            102: ("python", {"PATH": "/bin"}),
            os.getpid(): ("skillscope", {"ANTHROPIC_API_KEY": "sk-the-key-123456"}),  # its own: sealed
        },
    )
    assert holders(["sk-the-key-123456"], proc) == ["101 (bash)"]
    assert holders(["sk-other-key-0000"], proc) == []


def test_a_real_process_of_this_user_holding_the_key_is_found():
    key = "sk-real-process-key-424242"
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"],
        stdin=subprocess.PIPE,
        env={"PATH": os.environ.get("PATH", ""), "HELD_KEY": key},
    )
    try:
        found = holders([key])
        assert [entry for entry in found if entry.startswith(f"{child.pid} ")] != []
        why = reach([key])
        assert why is not None  # root reads everything; any other user can read the child
    finally:
        child.communicate(b"")
