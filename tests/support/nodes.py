"""Private file-system nodes for tests of where reports are written: a character device, a FIFO, a
block device, a socket. Device nodes are made with mknod in the test's own folder (as root), never
the machine's own `/dev` entries; without root, a node's kind is given by patching `os.stat` for it."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import pytest

KINDS = {
    "char-device": stat.S_IFCHR,
    "fifo": stat.S_IFIFO,
    "block-device": stat.S_IFBLK,
    "socket": stat.S_IFSOCK,
}
NULL_DEVICE = os.makedev(1, 3)  # the null device's numbers: writing to a private node of it is harmless
LOOP_DEVICE = os.makedev(7, 0)  # never opened: a block device is refused before any write


def make_node(folder: Path, kind: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A node of `kind` at `folder/kind`; returns its path."""
    path = folder / kind
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(str(path))
        listener.close()
    elif os.geteuid() == 0:
        os.mknod(path, KINDS[kind] | 0o666, NULL_DEVICE if kind == "char-device" else LOOP_DEVICE)
    else:
        path.write_text("")  # a stand-in whose mode says `kind`; a char device then writes into it
        real = os.stat

        def stat_as(target, *args, **kwargs):
            found = real(target, *args, **kwargs)
            if os.fspath(target) != str(path):
                return found
            fields = list(found)
            fields[0] = KINDS[kind] | 0o666
            return os.stat_result(fields)

        monkeypatch.setattr(os, "stat", stat_as)
    return path


def kind_of(path: Path) -> int:
    return stat.S_IFMT(os.lstat(path).st_mode)
