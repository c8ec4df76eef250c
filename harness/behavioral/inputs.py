"""A case's input files and folders (the `files` of skill-creator, the specification and addyosmani)
copied into the agent's workspace.

They land at the workspace root under their own names, as `import` lays them out in a fixture
folder, so a case read in place and its imported copy see the same workspace. A folder is copied
whole; a link in it that leads out of the folder `files` are relative to is refused, as a file that
does is.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from harness.agent.workspace import ANSWER_KEY_FILES, WorkspaceError, copy_tree
from harness.files import UnreadableFile, is_inside, links_leaving, read_bytes, rel_to
from harness.writer import write_bytes

INPUT_BYTES = 64 * 1024 * 1024  # one input file copied whole; far above any hand-made one


class InputError(Exception):
    """An input file cannot be staged; the message names it and the fix."""


def stage_inputs(folder: Path, files: list[str], workspace: Path) -> None:
    """Copy `files` (relative to `folder`: the skill, or a case file's fixtures folder) into `workspace`."""
    for entry in files:
        source = folder / entry
        outside = f"leads outside {folder.name}/; keep it inside that folder"
        if not is_inside(source, folder):
            raise InputError(f"input file '{entry}' {outside}")
        if source.is_dir():
            stage_folder(folder, entry, workspace)
            continue
        try:
            data = read_bytes(source, INPUT_BYTES)
        except UnreadableFile as exc:
            raise InputError(f"input file '{entry}' cannot be read: {exc.reason}") from None
        mode = stat.S_IMODE(os.stat(source).st_mode)
        write_bytes(workspace / Path(entry).name, data, workspace, mode=mode)


def stage_folder(folder: Path, entry: str, workspace: Path) -> None:
    source = folder / entry
    if source.resolve() == folder.resolve():
        raise InputError(f"input folder '{entry}' is {folder.name}/ itself; name what in it the case needs")
    leaving = links_leaving(source, folder)
    if leaving:
        link = rel_to(folder, leaving[0])
        raise InputError(
            f"input folder '{entry}' holds {link}, a link that leads outside {folder.name}/; "
            "replace it with what it points at"
        )
    try:
        # The answer key stays out of the agent's reach, as when a fixture folder is copied.
        target = workspace / Path(os.path.normpath(entry)).name
        copy_tree(source, target, skip_names=ANSWER_KEY_FILES, within=folder)
    except WorkspaceError as exc:
        raise InputError(f"input folder '{entry}' cannot be copied: {exc}") from None
