"""Each agent CLI's `--version` and `--help` answers, probed once per test session rather than once per
run: harness/agent/probes.py keeps them in the user's cache, and every test starts with a fresh HOME,
so without this each paid run starts the CLI twice before its first case (most of a CPU second each).

A run's HOME is given the answers kept so far before it starts, and hands back the ones it probed when
it ends. The answers are the real CLI's, keyed as the harness keys them (the executable's identity and
the harness version), so a stub CLI or another build misses and is probed as before. A sandbox probe
that found claude's sandbox starting is kept there too, keyed also on bwrap and socat as found on the
run's PATH: a test that hides one still probes, and one that plants a verdict uses a cache of its own
(tests/support/sandbox.py). The probes' own behaviour is tested in tests/agent/test_probes.py and
test_probes_sandbox.py with caches of their own.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from harness.agent.probes import PROBES
from harness.memo import user_cache


def copy_missing(source: Path, target: Path) -> None:
    """Every entry of `source` that `target` lacks, each written whole (workers share the session's)."""
    if not source.is_dir():
        return
    target.mkdir(parents=True, exist_ok=True)
    for entry in source.glob("*.json"):
        if (target / entry.name).exists():
            continue
        handle, temporary = tempfile.mkstemp(dir=target, suffix=".part")
        os.close(handle)
        shutil.copyfile(entry, temporary)
        os.chmod(temporary, 0o600)
        os.replace(temporary, target / entry.name)


@contextlib.contextmanager
def sharing_probes(session: Path, environ: Mapping[str, str]) -> Iterator[None]:
    """The session's kept answers in the probe cache `environ` names, and its new ones back after."""
    mine = user_cache(environ) / PROBES
    copy_missing(session, mine)
    try:
        yield
    finally:
        copy_missing(mine, session)
