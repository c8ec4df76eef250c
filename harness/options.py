"""Flags shared by several commands, declared once, and their resolution into repo objects."""

from __future__ import annotations

import argparse
import json

from harness.context import Context
from harness.errors import UsageError
from harness.model import repo as repo_mod
from harness.model.repo import Repo


def parse_list(flag: str, text: str | None) -> list[str]:
    """A list flag: a JSON array of strings or a comma list; blank means empty."""
    if text is None or not text.strip():
        return []
    text = text.strip()
    if text.startswith(("[", "{")):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(
                f"{flag}: invalid JSON ({exc.msg}); pass a JSON array or a comma list."
            ) from None
        if not isinstance(value, list):
            raise UsageError(f"{flag}: expected a JSON array, got {type(value).__name__}.")
        items = value
    else:
        items = [item.strip() for item in text.replace("\n", ",").split(",")]
        if items and items[-1] == "":
            items.pop()
    if not all(isinstance(item, str) and item.strip() for item in items):
        raise UsageError(f"{flag}: every entry must be a non-empty string.")
    return [item.strip() for item in items]


def add_repo(parser: argparse.ArgumentParser) -> None:
    # SUPPRESS lets --repo stand before or after the command name without one hiding the other.
    parser.add_argument(
        "--repo",
        metavar="PATH",
        default=argparse.SUPPRESS,
        help="root of the repo under test (default: $SKILLSCOPE_REPO, else the nearest "
        "ancestor holding .git, else the current directory)",
    )


def add_skills_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--skills-dir",
        metavar="GLOBS",
        help="root-relative globs naming skill directories, as a JSON array or a comma "
        "list (default: $SKILLSCOPE_SKILLS, else every directory in the current one)",
    )


def add_reports(parser: argparse.ArgumentParser, junit: bool = False) -> None:
    parser.add_argument(
        "--output",
        metavar="PATH",
        help="JSON report path (default: <repo>/.skillscope/runs/<command>-<time>.json)",
    )
    parser.add_argument(
        "--summary",
        metavar="PATH",
        help="append the markdown report here (default: $GITHUB_STEP_SUMMARY when set)",
    )
    if junit:
        parser.add_argument("--junit", metavar="PATH", help="also write a JUnit XML report here")


def add_timeout(parser: argparse.ArgumentParser, default: float = 900) -> None:
    parser.add_argument(
        "--timeout",
        type=float,
        default=default,
        metavar="SECONDS",
        help=f"wall-clock limit for the whole command; 0 disables (default: {default:g})",
    )


def resolve_repo(args: argparse.Namespace, ctx: Context) -> Repo:
    root = repo_mod.find_root(getattr(args, "repo", None), ctx.environ, ctx.cwd)
    raw = getattr(args, "skills_dir", None)
    source = "--skills-dir"
    if raw is None and ctx.environ.get("SKILLSCOPE_SKILLS"):
        raw, source = ctx.environ["SKILLSCOPE_SKILLS"], "SKILLSCOPE_SKILLS"
    globs = parse_list(source, raw) or repo_mod.default_globs(root, ctx.cwd)
    return repo_mod.discover(root, globs)


EFFORTS = ("low", "medium", "high", "xhigh", "max")


def add_agent(parser: argparse.ArgumentParser) -> None:
    """Flags of every command that drives the claude CLI."""
    parser.add_argument(
        "--claude",
        metavar="PATH",
        help="the claude executable (default: $SKILLSCOPE_CLAUDE, else `claude` on PATH)",
    )
    parser.add_argument("--model", help="model alias or id passed to claude (default: the CLI's own)")
    parser.add_argument("--effort", choices=EFFORTS, help="reasoning effort passed to claude")
    parser.add_argument(
        "--skip-preflight",
        action="store_true",
        help="skip the one-prompt check that the API is reachable before any case runs",
    )
    parser.add_argument(
        "--keep-logs",
        metavar="DIR",
        help="keep each case's transcript here (raw stream-json; behavioral adds the judge exchange)",
    )


def add_case_selection(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--skill", metavar="NAMES", help="only the cases of these skills")
    parser.add_argument(
        "--only", metavar="IDS", help="only these case ids or skill names (takes precedence over --skill)"
    )
    parser.add_argument(
        "--extended",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="include each skill's evals/extended_evals.json (default: on)",
    )


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def non_negative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if value < 0 or value != value:
        raise argparse.ArgumentTypeError(f"{text} must be zero or more")
    return value
