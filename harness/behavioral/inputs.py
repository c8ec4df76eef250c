"""A case's input files (skill-creator's `files`) copied into the agent's workspace.

They land at the workspace root under their own names, as `import` lays them out in a fixture
folder, so a case read in place and its imported copy see the same workspace.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from harness.files import UnreadableFile, is_inside, read_bytes
from harness.writer import write_bytes

INPUT_BYTES = 64 * 1024 * 1024  # one input file copied whole; far above any hand-made one


class InputError(Exception):
    """An input file cannot be staged; the message names it and the fix."""


def stage_inputs(folder: Path, files: list[str], workspace: Path) -> None:
    """Copy `files` (relative to `folder`: the skill, or a case file's fixtures folder) into `workspace`."""
    for entry in files:
        source = folder / entry
        if not is_inside(source, folder):
            raise InputError(f"input file '{entry}' leads outside {folder.name}/; keep it inside that folder")
        try:
            data = read_bytes(source, INPUT_BYTES)
        except UnreadableFile as exc:
            raise InputError(f"input file '{entry}' cannot be read: {exc.reason}") from None
        mode = stat.S_IMODE(os.stat(source).st_mode)
        write_bytes(workspace / Path(entry).name, data, workspace, mode=mode)
