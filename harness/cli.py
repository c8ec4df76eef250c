"""skillscope: grade a repository of Agent Skills.

Every setting is a flag; list flags take a JSON array or a comma list; paths are
relative to the repo root. Exit codes: 0 clean (warnings allowed), 1 findings or
failures, 2 usage errors, 3 an internal error (a bug: please report it).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
import tempfile
import traceback
from collections.abc import Sequence
from types import ModuleType

from harness import __version__, options
from harness.context import Context
from harness.errors import HarnessError

# Command modules are imported only when needed: `select` in a CI step should not pay for the
# HTTP, markdown and schema libraries of the other commands.
COMMANDS: dict[str, str] = {
    "structural": "harness.commands.structural",
    "refs": "harness.commands.refs",
    "routing": "harness.commands.routing",
    "behavioral": "harness.commands.behavioral",
    "compare": "harness.commands.compare",
    "select": "harness.commands.select",
    "list-skills": "harness.commands.list_skills",
    "template": "harness.commands.template",
    "import": "harness.commands.importer",
    "baseline": "harness.commands.baseline",
}


def load_command(name: str) -> ModuleType:
    return importlib.import_module(COMMANDS[name])


class _Parser(argparse.ArgumentParser):
    """argparse writing to the Context's streams (not sys.*), so main() stays testable in-process."""

    def __init__(self, *args, ctx: Context | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.ctx = ctx

    def error(self, message: str):  # noqa: D102 - argparse's hook, kept at exit code 2
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")

    def _print_message(self, message: str, file=None) -> None:
        if self.ctx is None or not message:
            return super()._print_message(message, file)
        stream = self.ctx.stderr if file is sys.stderr else self.ctx.stdout
        stream.write(message)


def build_parser(ctx: Context | None = None, only: str | None = None) -> argparse.ArgumentParser:
    """The whole CLI; with `only`, the other commands are bare names (enough to parse `only`)."""
    parser = _Parser(
        prog="skillscope", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter, ctx=ctx
    )
    parser.add_argument("--version", action="version", version=f"skillscope {__version__}")
    options.add_repo(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_Parser)
    for name in COMMANDS:
        if only is not None and name != only:
            sub.add_parser(name, ctx=ctx)
            continue
        module = load_command(name)
        command = sub.add_parser(name, help=module.HELP, description=module.HELP, ctx=ctx)
        options.add_repo(command)
        module.add_arguments(command)
    return parser


def main(argv: Sequence[str] | None = None, ctx: Context | None = None) -> int:
    ctx = ctx or Context()
    try:
        words = list(sys.argv[1:] if argv is None else argv)
        chosen = next((word for word in words if word in COMMANDS), None)
        args = build_parser(ctx, only=chosen).parse_args(words)
    except SystemExit as exc:  # --help, --version and usage errors: argparse has printed why
        return exc.code if isinstance(exc.code, int) else 2
    try:
        options.check_outputs(args, ctx.cwd)
        return load_command(args.command).run(args, ctx)
    except HarnessError as exc:
        ctx.err(f"error: {exc}")
        return exc.exit_code
    except KeyboardInterrupt:
        ctx.err("error: interrupted")
        return 130
    except BrokenPipeError:
        # Whoever read our output stopped (`skillscope structural | head`): not a bug, nothing to say.
        _quiet_stdout(ctx)
        return 141
    except Exception as exc:  # the one place an unexpected failure becomes a message, not a traceback
        detail = " ".join(str(exc).split())[:300]  # one line, however the exception reads
        ctx.err(
            f"error: skillscope hit an internal error ({type(exc).__name__}: {detail}); this is a bug, "
            f"please report it{_crash_log()}."
        )
        return 3


def _quiet_stdout(ctx: Context) -> None:
    """Point the process's stdout at /dev/null so the interpreter's last flush cannot fail on the
    closed pipe (only when the Context writes to the process's own stdout)."""
    if ctx.stdout is not sys.stdout:
        return
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _crash_log() -> str:
    """Save the traceback for the bug report; the terminal gets one line, never the traceback."""
    try:  # one file per crash: concurrent runs in CI must not overwrite each other's report
        handle, name = tempfile.mkstemp(prefix="skillscope-crash-", suffix=".log")
        with open(handle, "w", encoding="utf-8") as log:
            log.write(f"skillscope {__version__}\n{traceback.format_exc()}")
    except OSError:
        return ""
    return f" with {name}"


if __name__ == "__main__":
    raise SystemExit(main())
