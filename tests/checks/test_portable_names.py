"""Portable names: Windows-reserved names and invisible characters in a skill folder's names, found
wherever they stand. The fixtures are made here, not committed: this repo's own checkout must work on
Windows too."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.checks import CheckOptions, portable_names
from harness.model import catalog, repo
from tests.support.helpers import make_skill, structural

RESERVED = ["con", "NUL", "aux.md", "com1.txt", "lpt9", "prn.tar.gz", "notes.", "notes ", "a:b.md", "why?.md"]
INVISIBLE = ["evil\u202etxt.md", "zero\u200bwidth.md", "joined\u2066.md", "bell\x07.md", "bom\ufeff.md"]
FINE = [
    "console.md",
    "conf",
    "nullable.md",
    "com10.md",
    "aux-notes.md",
    "r\u00e9sum\u00e9.md",
    "\u65e5\u672c.md",
]


def found(root: Path) -> list[tuple[str, str]]:
    loaded = catalog.load(repo.discover(root, ["*"]))
    return sorted((f.rule, f.path) for f in portable_names.check(loaded, CheckOptions()))


@pytest.mark.parametrize("name", RESERVED)
@pytest.mark.parametrize("where", ["references", "."])
def test_a_name_windows_cannot_hold_is_an_error_at_its_path(tmp_path: Path, name: str, where: str):
    make_skill(tmp_path, "alpha")
    folder = tmp_path / "alpha" / where
    folder.mkdir(exist_ok=True)
    (folder / name).write_text("x")
    rel = "/".join(p for p in ("alpha", where if where != "." else "", name) if p)
    assert ("path-windows-reserved", rel) in found(tmp_path)


@pytest.mark.parametrize("name", INVISIBLE)
def test_an_invisible_or_reordering_character_is_an_error_naming_its_code_point(tmp_path: Path, name: str):
    make_skill(tmp_path, "alpha")
    (tmp_path / "alpha" / name).write_text("x")
    loaded = catalog.load(repo.discover(tmp_path, ["*"]))
    [finding] = portable_names.check(loaded, CheckOptions())
    assert finding.rule == "path-invisible-character" and finding.path == f"alpha/{name}"
    odd = next(c for c in name if not (c.isalnum() or c == "."))
    assert f"U+{ord(odd):04X}" in finding.message
    assert odd not in finding.message  # shown escaped, so the message itself reads true


def test_a_skill_folder_with_a_reserved_name_is_found_too(tmp_path: Path):
    make_skill(tmp_path, "con")
    assert ("path-windows-reserved", "con") in found(tmp_path)


def test_ordinary_names_pass(tmp_path: Path):
    make_skill(tmp_path, "alpha")
    for name in FINE:
        (tmp_path / "alpha" / name).write_text("x")
    assert found(tmp_path) == []


def test_structural_fails_on_them_and_names_the_fix(tmp_path: Path):
    root = tmp_path / "repo"
    make_skill(root, "alpha")
    (root / "alpha" / "nul.md").write_text("x")
    run, report = structural(root, tmp=tmp_path)
    assert run.code == 1
    [finding] = [f for f in report["findings"] if f["rule"] == "path-windows-reserved"]
    assert finding["path"] == "alpha/nul.md" and finding["message"].endswith("rename it.")
