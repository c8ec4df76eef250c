"""The `skillscope` command and `python -m harness`: one process, one run (harness.cli)."""

from __future__ import annotations


def program() -> None:
    from harness import cli

    raise SystemExit(cli.main())
