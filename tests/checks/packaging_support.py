"""The packaging corpus on disk: each case a repo tree with a case.json saying which finding each host's rule
must raise (and, for Claude Code's cases, what `claude plugin validate` says of it)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from harness.checks import packaging
from harness.model import catalog, package
from harness.model.repo import discover

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "packaging_corpus"
CATALOGS = HERE / "packaging_catalogs"
CASES = sorted(path.name for path in CORPUS.iterdir() if path.is_dir())


def meta(case: str) -> dict:
    return json.loads((CORPUS / case / "case.json").read_text(encoding="utf-8"))


def staged(case: str, tmp_path: Path) -> Path:
    """A copy of the case's tree without its case.json, with the symbolic links it declares (kept out of
    the checkout, which may not hold links)."""
    root = tmp_path / case
    shutil.copytree(CORPUS / case, root)
    (root / "case.json").unlink()
    for link, target in meta(case).get("links", {}).items():
        os.symlink(target, root / link)
    return root


def located(root: Path) -> list[tuple[str, str, str, int | None, str]]:
    """(host, rule, path, line, severity) of every packaging finding in the repo at `root`."""
    loaded = catalog.load(discover(root, ["skills/*"]))
    return sorted(
        (host, f.rule, f.path, f.line, f.severity)
        for host, f in packaging.host_findings(package.read(root), loaded)
    )


def claude_outcome(found: list[tuple[str, str, str, int | None, str]]) -> str:
    """Our verdict in `claude plugin validate`'s words: fail (an error), warn (only warnings: --strict
    fails), pass."""
    mine = [severity for host, *_, severity in found if host == package.CLAUDE]
    return "fail" if "error" in mine else "warn" if mine else "pass"
