"""The daemon's frames: one byte naming the channel, four bytes of length, the payload.

The client sends its request as a frame. When the daemon admits the run it says so, and runs it
once the client answers go (a client that gave up waiting has closed instead); then come the output
frames as the run writes them, and an exit frame. A run that ends before admission (a usage error)
sends its output and exit frame at once; a refused run, only the exit frame.
"""

from __future__ import annotations

import json

REQUEST, ADMITTED, GO, STDOUT, STDERR, EXIT = b"q", b"a", b"g", b"1", b"2", b"x"
HEADER = 5


def frame(channel: bytes, payload: bytes) -> bytes:
    return channel + len(payload).to_bytes(4, "big") + payload


def json_frame(channel: bytes, value: object) -> bytes:
    return frame(channel, json.dumps(value).encode("utf-8", "surrogateescape"))


def read_exactly(sock, size: int) -> bytes | None:
    """`size` bytes, or None when the other side closed first."""
    chunks, left = [], size
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_frame(sock) -> tuple[bytes, bytes] | None:
    """(channel, payload), or None when the connection ended between or inside frames."""
    header = read_exactly(sock, HEADER)
    if header is None:
        return None
    payload = read_exactly(sock, int.from_bytes(header[1:], "big"))
    return None if payload is None else (header[:1], payload)
