"""The shell sandbox's needs in a test: bubblewrap present (a test that needs it fails without it), or
a PATH that hides it, or a kept verdict that no longer holds."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from harness.agent import ClaudeAgent, LocatedCLI
from harness.agent.probes import AVAILABLE, PROBES, SANDBOX, ProbeCache
from harness.memo import user_cache
from tests.support.kept_probes import copy_missing

NEEDED = ("bwrap", "socat")


def require_bubblewrap() -> None:
    """Fail, never skip, where claude's sandbox cannot start: CI installs what it needs."""
    missing = [tool for tool in NEEDED if shutil.which(tool) is None]
    if missing:
        pytest.fail(
            f"{' and '.join(missing)} not on PATH: the shell sandbox tests need Debian's bubblewrap and "
            "socat (apt-get install bubblewrap socat)",
            pytrace=False,
        )


def path_without(tool: str, path: str, folder: Path) -> Path:
    """One folder of links to every program on `path` but `tool`, the first of each name winning."""
    folder.mkdir(parents=True, exist_ok=True)
    for entry in path.split(os.pathsep):
        directory = Path(entry)
        if not directory.is_dir():
            continue
        for program in directory.iterdir():
            link = folder / program.name
            if program.name != tool and not link.exists() and not link.is_symlink():
                link.symlink_to(program)
    return folder


def stale_verdict(env: dict[str, str], claude: str, cache: Path) -> dict[str, str]:
    """`env` with a probe cache of its own at `cache` (the answers of `env`'s copied in) holding "the
    sandbox starts" for `claude` under the key of `env` as it is, whether or not that holds. Its own,
    so the planted verdict never reaches the session's kept answers."""
    planted = {**env, "XDG_CACHE_HOME": str(cache)}
    copy_missing(user_cache(env) / PROBES, user_cache(planted) / PROBES)
    context = ClaudeAgent(LocatedCLI(claude, "0"), planted).sandbox_context()
    ProbeCache.of(planted).put(claude, SANDBOX, AVAILABLE, context)
    return planted
