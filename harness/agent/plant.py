"""What a tripwire run asks of the agent's own environment: files planted in the run's throwaway HOME
before its CLI starts, and the agent's outbound traffic pointed at a loopback recording proxy.

Only a HOME the runtime made for this run is planted: a HOME that is the user's own (claude using its
login) is never written to, and the run's notes say the HOME files were not planted. The model's
endpoint (and any loopback address, where the key relay and a local model live) stays off the proxy,
so only what the agent's tools try reaches it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from harness.writer import write_text

from .loopback import LOOPBACK

PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy")
NO_PROXY_VARS = ("NO_PROXY", "no_proxy")
NOT_PLANTED = "the tripwire planted nothing in HOME: this run's HOME is not a throwaway one"


def routed_through(env: Mapping[str, str], proxy: str, endpoints: tuple[str, ...] = ()) -> dict[str, str]:
    """`env` with every proxy variable naming `proxy`, and loopback plus the hosts of `endpoints` (the
    model's addresses) exempt from it."""
    routed = dict(env)
    for name in PROXY_VARS:
        routed[name] = proxy
    exempt = [LOOPBACK, "localhost", "::1"]
    exempt += [host for url in endpoints if (host := urlsplit(url).hostname)]
    for name in NO_PROXY_VARS:
        given = [entry.strip() for entry in routed.get(name, "").split(",") if entry.strip()]
        routed[name] = ",".join(dict.fromkeys([*given, *exempt]))
    return routed


def plant_home(env: Mapping[str, str], files: Mapping[str, str], own_home: str | None) -> str | None:
    """Write `files` (paths relative to HOME) into the run's HOME, private to its owner; a note saying
    why nothing was planted when that HOME is not the run's own throwaway one."""
    home = env.get("HOME")
    if not files:
        return None
    if not home or (own_home and os.path.realpath(home) == os.path.realpath(own_home)):
        return NOT_PLANTED
    root = Path(home)
    for relative, text in files.items():
        write_text(root / relative, text, root, private=True)
    return None
