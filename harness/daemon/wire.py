"""The daemon's frames: one byte naming the channel, four bytes of length, the payload.

The client sends its request as a frame; the daemon answers with output frames as the run writes
them, and ends with an exit frame. Either side may ask the other for one frame in between (the
run's stdin is fetched only if the command reads it).
"""

from __future__ import annotations

import json

REQUEST, STDOUT, STDERR, STDIN, EXIT = b"q", b"1", b"2", b"i", b"x"
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
