"""A skill's folder as of a git ref, extracted from `git archive`: the same on a Python with tarfile's
extraction filters and on one without them (before 3.10.12 and 3.11.4, Debian 12's 3.11.2 among them)."""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path

import pytest

from harness.compare.versions import Git, extract, stays_in

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    skill = root / "skills" / "alpha"
    (skill / "references").mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: alpha\ndescription: A.\n---\nBody.\n", encoding="utf-8")
    (skill / "references" / "notes.md").write_text("notes\n", encoding="utf-8")
    (skill / "link.md").symlink_to("references/notes.md")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "skill"]):
        subprocess.run([*GIT, *args], cwd=root, check=True, capture_output=True)
    return root


@pytest.mark.parametrize("filters", [True, False])
def test_a_skill_at_a_ref_is_extracted_with_or_without_extraction_filters(
    repo, tmp_path, monkeypatch, filters
):
    if not filters:
        monkeypatch.delattr(tarfile, "data_filter", raising=False)
    into = tmp_path / "into"
    into.mkdir()
    found = extract(
        "HEAD", repo / "skills" / "alpha", into, Git("--baseline", "HEAD", {"PATH": "/usr/bin:/bin"})
    )
    assert (found / "SKILL.md").read_text(encoding="utf-8").startswith("---\nname: alpha")
    assert (found / "link.md").is_symlink() and (found / "link.md").read_text(encoding="utf-8") == "notes\n"


def test_only_members_that_stay_inside_are_extracted_without_filters(tmp_path):
    def member(name: str, kind: bytes = tarfile.REGTYPE, link: str = "") -> tarfile.TarInfo:
        info = tarfile.TarInfo(name)
        info.type, info.linkname = kind, link
        return info

    assert stays_in(member("skills/a/SKILL.md"), tmp_path)
    assert stays_in(member("skills/a", tarfile.DIRTYPE), tmp_path)
    assert stays_in(member("skills/a/l.md", tarfile.SYMTYPE, "../b/x.md"), tmp_path)
    assert not stays_in(member("../escape.md"), tmp_path)
    assert not stays_in(member("/etc/passwd"), tmp_path)
    assert not stays_in(member("skills/a/l.md", tarfile.SYMTYPE, "../../../outside"), tmp_path)
    assert not stays_in(member("skills/a/l.md", tarfile.SYMTYPE, "/etc/passwd"), tmp_path)
    assert not stays_in(member("skills/a/h", tarfile.LNKTYPE, "../../x"), tmp_path)
    assert not stays_in(member("skills/a/dev", tarfile.CHRTYPE), tmp_path)
