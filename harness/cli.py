"""skillscope: grade a repository of Agent Skills.

Every setting is a flag; list flags take a JSON array or a comma list; paths are
relative to the repo root. Exit codes: 0 clean (warnings allowed), 1 findings or
failures, 2 usage errors, 3 an internal error (a bug: please report it).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import traceback
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from harness import __version__, options
from harness.commands import behavioral, list_skills, refs, routing, select, structural, template
from harness.context import Context
from harness.errors import HarnessError

COMMANDS: dict[str, ModuleType] = {
    "structural": structural,
    "list-skills": list_skills,
    "template": template,
    "select": select,
    "refs": refs,
    "routing": routing,
    "behavioral": behavioral,
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # noqa: D102 - argparse's hook, kept at exit code 2
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="skillscope", description=__doc__,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"skillscope {__version__}")
    options.add_repo(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_Parser)
    for name, module in COMMANDS.items():
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        options.add_repo(command)
        module.add_arguments(command)
    return parser


def main(argv: Sequence[str] | None = None, ctx: Context | None = None) -> int:
    ctx = ctx or Context()
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command].run(args, ctx)
    except HarnessError as exc:
        ctx.err(f"error: {exc}")
        return exc.exit_code
    except KeyboardInterrupt:
        ctx.err("error: interrupted")
        return 130
    except Exception as exc:  # the one place an unexpected failure becomes a message, not a traceback
        log = _crash_log(ctx)
        ctx.err(f"error: skillscope hit an internal error ({type(exc).__name__}: {exc}); this is a bug, "
                f"please report it with {log}.")
        return 3


def _crash_log(ctx: Context) -> Path:
    path = Path(tempfile.gettempdir()) / "skillscope-crash.log"
    try:
        path.write_text(f"skillscope {__version__}\n{traceback.format_exc()}", encoding="utf-8")
    except OSError:
        return Path("the traceback above")
    return path


if __name__ == "__main__":
    raise SystemExit(main())
