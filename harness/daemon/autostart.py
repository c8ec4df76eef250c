"""`--daemon auto|use|off`: whether a run goes to this install's daemon, and whether one is started.

`use` (the default) hands a run to a daemon that already listens. `auto` does too, and when none
listens it starts one in the background before running the command itself, so that the next call
(a pre-commit hook's next commit) is served. `off` always runs in this process. A CI job (CI set)
never starts one: its processes end with the job, and each would pay a daemon's start for one run.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing's flag without importing typing: the parser imports this module
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    Spawn = Callable[[list[str], Mapping[str, str]], None]

AUTO, USE, OFF = "auto", "use", "off"
MODES = (AUTO, USE, OFF)
ENVIRONMENT = "SKILLSCOPE_DAEMON"
FLAG = "--daemon"


def mode(words: list[str], environ: Mapping[str, str]) -> str:
    """The last --daemon on the line, else $SKILLSCOPE_DAEMON, else `use`. A value that is none of the
    modes counts as `use` here; the parser then reports it (this runs before any parsing)."""
    chosen = environ.get(ENVIRONMENT) or USE
    for word, following in zip(words, [*words[1:], None], strict=True):
        name, equals, value = word.partition("=")
        if not abbreviates(name):
            continue
        if equals:
            chosen = value
        elif following is not None:
            chosen = following
    return chosen if chosen in MODES else USE


def abbreviates(name: str) -> bool:
    """--daemon, or a prefix of it that the parser takes for it (--dae); --d alone is ambiguous there
    with a command's --docs or --dry-run."""
    return len(name) >= len("--da") and FLAG.startswith(name)


def misset(environ: Mapping[str, str]) -> str | None:
    """Why $SKILLSCOPE_DAEMON cannot be used, or None when it is unset or one of the modes."""
    value = environ.get(ENVIRONMENT)
    if value in (None, "", *MODES):
        return None
    return f"${ENVIRONMENT} is '{value}'; set it to {', '.join(MODES)}, or unset it"


def admitter(environ: Mapping[str, str], spawn: Spawn | None = None) -> Callable[[bool], bool]:
    """cli.main's `admit` for an `auto` run that no daemon served: a run a daemon would serve (bounded
    by its repo) starts one first; the run itself always goes ahead, here."""

    def admit(bounded: bool) -> bool:
        if bounded:
            start_behind(environ, spawn or detached)
        return True

    return admit


def start_behind(environ: Mapping[str, str], spawn: Spawn) -> bool:
    """Start `skillscope daemon start` in the background unless a daemon answers already, this is a CI
    job, or no daemon can listen here. True when one was asked to start."""
    from harness.context import in_ci  # here: the parser imports this module for its choices
    from harness.daemon import address, client

    if in_ci(environ) or address.unusable(environ) is not None:
        return False
    if client.answers(address.socket_path(environ)):
        return False
    try:
        spawn([sys.executable, "-m", "harness", "daemon", "start"], environ)
    except OSError:  # no daemon then: the next run in-process too, as without one
        return False
    return True


def detached(command: list[str], environ: Mapping[str, str]) -> None:
    """Run `command` in a session of its own, with /dev/null for its standard streams and / for its
    folder: it must not hold the caller's pipes open (pre-commit reads a hook's output until every
    writer has closed it), and `python -m` must not import a `harness` folder of the repo it ran in."""
    import subprocess  # only when a daemon is started: once per idle period

    subprocess.Popen(  # noqa: S603 - this Python running this harness
        command,
        cwd=os.sep,
        env=dict(environ),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
