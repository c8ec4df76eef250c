"""Flags shared by several commands, declared once, and their resolution into repo objects."""

from __future__ import annotations

import argparse

from harness import repo as repo_mod
from harness.context import Context
from harness.repo import Repo


def add_repo(parser: argparse.ArgumentParser) -> None:
    # SUPPRESS lets --repo stand before or after the command name without one hiding the other.
    parser.add_argument("--repo", metavar="PATH", default=argparse.SUPPRESS,
                        help="root of the repo under test (default: $SKILLSCOPE_REPO, else the nearest "
                             "ancestor holding .git, else the current directory)")


def add_skills_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--skills-dir", metavar="GLOBS",
                        help="root-relative globs naming skill directories, as a JSON array or a comma "
                             "list (default: $SKILLSCOPE_SKILLS, else every directory in the current one)")


def add_reports(parser: argparse.ArgumentParser, junit: bool = False) -> None:
    parser.add_argument("--output", metavar="PATH",
                        help="JSON report path (default: <repo>/.skillscope/runs/<command>-<time>.json)")
    parser.add_argument("--summary", metavar="PATH",
                        help="append the markdown report here (default: $GITHUB_STEP_SUMMARY when set)")
    if junit:
        parser.add_argument("--junit", metavar="PATH", help="also write a JUnit XML report here")


def add_timeout(parser: argparse.ArgumentParser, default: float = 900) -> None:
    parser.add_argument("--timeout", type=float, default=default, metavar="SECONDS",
                        help=f"wall-clock limit for the whole command; 0 disables (default: {default:g})")


def resolve_repo(args: argparse.Namespace, ctx: Context) -> Repo:
    root = repo_mod.find_root(getattr(args, "repo", None), ctx.environ, ctx.cwd)
    raw = getattr(args, "skills_dir", None)
    source = "--skills-dir"
    if raw is None and ctx.environ.get("SKILLSCOPE_SKILLS"):
        raw, source = ctx.environ["SKILLSCOPE_SKILLS"], "SKILLSCOPE_SKILLS"
    globs = repo_mod.parse_list(source, raw) or repo_mod.default_globs(root, ctx.cwd)
    return repo_mod.discover(root, globs)
