"""skillscope: grade a repository of Agent Skills.

Every setting is a flag, which [tool.skillscope] in pyproject.toml (or
skillscope.toml) may default; list flags take a JSON array or a comma list;
paths are relative to the repo root. Exit codes: 0 clean (warnings allowed),
1 findings or failures, 2 usage errors, 3 an internal error (a bug: please
report it).
"""

from __future__ import annotations

import argparse
import os
import sys

from harness import __version__
from harness.commands import COMMANDS, SUMMARIES

TYPE_CHECKING = False  # typing's flag without importing typing: every hook and launcher call pays start-up
if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import ModuleType

    from harness.cli.settings import Settings
    from harness.context import Context

# init writes the settings file rather than read it, template has no flags; `show` reads only kept logs.
UNSETTLED = frozenset({"init", "template", "show"})
NO_COMMAND = ""  # build_parser(only=NO_COMMAND): every command a bare name, none imported


def load_command(name: str) -> ModuleType:
    import importlib

    return importlib.import_module(COMMANDS[name])


class _Parser(argparse.ArgumentParser):
    """argparse writing to the Context's streams (not sys.*), so main() stays testable in-process."""

    def __init__(self, *args, ctx: Context | None = None, **kwargs):
        # No prefix of a flag stands for it: `list-skills --skill x` would read as --skills-dir x, and a
        # settings key would lose to a flag nobody typed under its name.
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)
        self.ctx = ctx

    def error(self, message: str):  # noqa: D102 - argparse's hook, kept at exit code 2
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}{self.suggestion(message)}\n")

    def suggestion(self, message: str) -> str:
        """'; did you mean …?' for a mistyped command, choice or flag named in an argparse message."""
        import difflib
        import re

        choice = re.search(r"invalid choice: '([^']*)'", message)
        typed = [choice.group(1)] if choice else []
        if message.startswith("unrecognized arguments: "):
            words = message.split(": ", 1)[1].split()
            typed = [w.split("=", 1)[0] for w in words if w.startswith("--")]
            bare = next((w for w in words if not w.startswith("-")), None)
            if bare is not None and not typed:  # `skillscope structural .`, as other linters take a path
                return self.path_hint(bare)
        known = [
            *(o for action in self._actions for o in action.option_strings if o.startswith("--")),
            *(c for action in self._actions for c in (action.choices or ()) if isinstance(c, str)),
        ]
        for word in typed:
            close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
            if close:
                return f"; did you mean {close[0]}?"
        return ""

    def path_hint(self, word: str) -> str:
        """What a command that takes no positional path does with one: its root, or its skills."""
        skills = "--skills-dir" in self._option_string_actions
        where = f" or its skills with --skills-dir '{word}/*'" if skills else ""
        return f"; skillscope takes no path argument: name the repo's root with --repo {word}{where}"

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
    add_globals(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_Parser)
    for name in COMMANDS:
        if only is not None and name != only:  # a name for the command list; never parses, so no -h
            sub.add_parser(name, help=SUMMARIES.get(name), ctx=ctx, add_help=False)
            continue
        module = load_command(name)
        command = sub.add_parser(name, help=module.HELP, description=module.HELP, ctx=ctx)
        add_globals(command)
        module.add_arguments(command)
    return parser


def add_globals(parser: argparse.ArgumentParser) -> None:
    # SUPPRESS lets each stand before or after the command name without one hiding the other.
    parser.add_argument(
        "--repo",
        metavar="PATH",
        default=argparse.SUPPRESS,
        help="root of the repo under test (default: $SKILLSCOPE_REPO, else the nearest "
        "ancestor holding .git, else the current directory)",
    )


def command_parser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices[name]


def with_settings(
    parser: argparse.ArgumentParser, name: str, words: list[str], ctx: Context
) -> tuple[argparse.ArgumentParser, Settings, list[str]]:
    """The repo's settings file, read before parsing so that its keys become the flags' defaults."""
    from harness.cli import settings
    from harness.model.repo import find_root

    explicit = next((v for k, v in zip(words, words[1:], strict=False) if k == "--repo"), None)
    explicit = next((w.split("=", 1)[1] for w in words if w.startswith("--repo=")), explicit)
    command = command_parser(parser, name)
    if name in UNSETTLED:
        return command, settings.Settings(), []
    found = settings.load(find_root(explicit, ctx.environ, ctx.cwd))
    return command, found, settings.apply(found, command, every_flag, ctx.environ)


def every_flag() -> set[str]:
    """The long flag names of every command, as harness/data/flags.json lists them: asked whenever a
    settings key is another command's (routing-room in a refs run), where importing every command to
    learn them cost more than the run itself."""
    import json

    from harness.files import packaged_text

    return set(json.loads(packaged_text("data", "flags.json"))["flags"])


def declared_flags() -> set[str]:
    """The long flag names of every command, from the parsers themselves (imports them all); what
    harness/data/flags.json must hold."""
    full = build_parser()
    return {
        o[2:] for name in COMMANDS for a in command_parser(full, name)._actions for o in a.option_strings
    } - {""}


def reject_stray_flags(parser: argparse.ArgumentParser, words: list[str]) -> None:
    """Before argparse asks for a COMMAND, name a mistyped top-level flag (--verison)."""
    known = [option for action in parser._actions for option in action.option_strings]
    stray = [w for w in words if w.startswith("--") and w.split("=")[0] not in known]
    if stray:
        parser.error(f"unrecognized arguments: {' '.join(stray)}")


def parse(parser: argparse.ArgumentParser, words: list[str]) -> argparse.Namespace:
    """parse_args, except that a flag the command does not know is reported by the command's own parser,
    which can name the flag it resembles."""
    args, extra = parser.parse_known_args(words)
    if extra:
        command_parser(parser, args.command).error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def main(argv: Sequence[str] | None = None, ctx: Context | None = None) -> int:
    """Run one command and map how it ended to an exit code: the one place errors become messages."""
    words = list(sys.argv[1:] if argv is None else argv)
    if words == ["--version"]:  # what the launcher and the nox sessions ask: no parser needed
        (ctx.stdout if ctx else sys.stdout).write(f"skillscope {__version__}\n")
        return 0
    chosen = next((word for word in words if word in COMMANDS), None)
    try:  # without a command (--help, --version, a typo) nothing but argparse is imported
        parser = build_parser(ctx, only=chosen or NO_COMMAND)
        if chosen is None:
            reject_stray_flags(parser, words)
            parser.parse_args(words)
    except SystemExit as exc:  # --help, --version and usage errors: argparse has printed why
        return exc.code if isinstance(exc.code, int) else 2
    except ModuleNotFoundError as exc:  # a broken install, not a bug of ours: say how to mend it
        (ctx.stderr if ctx else sys.stderr).write(missing_module(exc))
        return 3
    assert chosen is not None  # without one argparse has exited: COMMAND is required
    from harness.cli import collector, resolve, settings
    from harness.context import Context
    from harness.errors import HarnessError

    ctx = ctx or Context()
    try:
        declared = resolve.declared_defaults(command_parser(parser, chosen))
        command, found, used = with_settings(parser, chosen, words, ctx)
        try:
            args = parse(parser, words)
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else 2
        ctx.settings = settings.effective(args, command, found, used, words)
        resolve.check_outputs(args, ctx.cwd, ctx.environ)
        # A settings key only the other engine reads is left out as quietly as one another command
        # reads: the file serves every command and engine (init writes `negatives` for agent runs).
        resolve.refuse_unread(args, declared, settings.from_file(command, used))
        module = load_command(args.command)
        with collector.paused(getattr(module, "bounded", lambda _: False)(args)):
            return module.run(args, ctx)
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
    except ModuleNotFoundError as exc:  # parsers and the stemmer are imported on first use, mid-run
        ctx.stderr.write(missing_module(exc))
        return 3
    except Exception as exc:  # the one place an unexpected failure becomes a message, not a traceback
        detail = " ".join(str(exc).split())[:300]  # one line, however the exception reads
        ctx.err(
            f"error: skillscope hit an internal error ({type(exc).__name__}: {detail}); this is a bug, "
            f"please report it{_crash_log()}."
        )
        return 3


def missing_module(exc: ModuleNotFoundError) -> str:
    return (
        f"error: the module {exc.name!r} that skillscope needs is not installed in this Python "
        f"({sys.executable}); reinstall the harness with its dependencies: "
        "pip install --force-reinstall skillscope-harness.\n"
    )


def _quiet_stdout(ctx: Context) -> None:
    """Point the process's stdout at /dev/null so the interpreter's last flush cannot fail on the
    closed pipe (only when the Context writes to the process's own stdout)."""
    import contextlib

    if ctx.stdout is not sys.stdout:
        return
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _crash_log() -> str:
    """Save the traceback for the bug report; the terminal gets one line, never the traceback."""
    import tempfile
    import traceback

    try:  # one file per crash: concurrent runs in CI must not overwrite each other's report
        handle, name = tempfile.mkstemp(prefix="skillscope-crash-", suffix=".log")
        with open(handle, "w", encoding="utf-8") as log:
            log.write(f"skillscope {__version__}\n{traceback.format_exc()}")
    except OSError:
        return ""
    return f" with {name}"


if __name__ == "__main__":
    raise SystemExit(main())
