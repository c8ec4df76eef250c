"""Internal resolution over small repos built in tmp_path."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness.checks import CheckOptions, references
from harness.errors import UsageError
from harness.markdown import links
from harness.memo import Memo
from harness.model import catalog, repo
from tests.support.helpers import make_skill, rules, structural


def scan(root: Path, docs: tuple[str, ...] = ()) -> references.Scan:
    return references.scan(catalog.load(repo.discover(root, ["skills/*"])), docs)


def found(result: references.Scan) -> list[tuple[str, str, int | None]]:
    return [(f.rule, f.path, f.line) for f in result.findings]


def test_every_markdown_file_under_the_skill_is_read_but_hidden_folders_are_not(tmp_path: Path):
    make_skill(
        tmp_path / "skills",
        "alpha",
        files={
            "reference/deep/notes.markdown": "[gone](gone.md)\n",
            "NOTES.MD": "[gone](gone.md)\n",
            ".cache/hidden.md": "[gone](gone.md)\n",
            "data.txt": "[gone](gone.md)\n",
        },
    )
    result = scan(tmp_path)

    assert found(result) == [
        ("ref-missing-file", "skills/alpha/NOTES.MD", 1),
        ("ref-missing-file", "skills/alpha/reference/deep/notes.markdown", 1),
    ]
    assert result.files == 3


def test_external_uses_are_collected_normalised_and_not_resolved(tmp_path: Path):
    make_skill(
        tmp_path / "skills",
        "alpha",
        body="# A\n\n[x](https://a.example/p#part) [y](//b.example/q) [m](mailto:a@b.example)\n",
    )
    result = scan(tmp_path)

    assert [(u.url, u.path, u.line) for u in result.external] == [
        ("https://a.example/p", "skills/alpha/SKILL.md", 7),
        ("https://b.example/q", "skills/alpha/SKILL.md", 7),
    ]
    assert result.findings == [] and result.internal == 0


def test_a_symlink_leading_out_of_the_repo_is_outside(tmp_path: Path):
    outside = tmp_path / "elsewhere.md"
    outside.write_text("# x\n", encoding="utf-8")
    root = tmp_path / "repo"
    make_skill(root / "skills", "alpha", body="[out](linked.md)\n")
    os.symlink(outside, root / "skills" / "alpha" / "linked.md")

    assert [f.rule for f in scan(root).findings] == ["ref-outside-repo"]


def test_the_anchor_of_a_linked_unreadable_file_is_not_guessed(tmp_path: Path):
    make_skill(tmp_path / "skills", "alpha", body="[x](data.md#part)\n", files={"data.md": b"\xff\xfe"})

    assert sorted(f.rule for f in scan(tmp_path).findings) == ["ref-unreadable"]


def test_docs_globs_must_stay_in_the_repo(tmp_path: Path):
    make_skill(tmp_path / "skills", "alpha")
    for bad in ("../README.md", "/etc/*.md"):
        with pytest.raises(UsageError, match="--docs"):
            scan(tmp_path, (bad,))


def test_a_file_matched_twice_is_read_once(tmp_path: Path):
    make_skill(tmp_path / "skills", "alpha", body="[gone](gone.md)\n")
    result = scan(tmp_path, ("skills/*/SKILL.md",))

    assert len(result.findings) == 1 and result.files == 1


def test_the_structural_check_leaves_an_unreadable_skill_md_to_skill_md(tmp_path: Path):
    make_skill(tmp_path / "skills", "alpha", skill_md=b"---\x00\n")
    loaded = catalog.load(repo.discover(tmp_path, ["skills/*"]))

    assert references.check(loaded, CheckOptions()) == []
    assert [f.rule for f in references.scan(loaded).findings] == ["ref-unreadable"]


def test_messages_name_the_target_the_resolved_path_and_the_fix(tmp_path: Path):
    make_skill(tmp_path / "skills", "alpha", body="# Setup steps\n\n[a](gone.md) [b](#setup-step)\n")
    messages = [f.message for f in scan(tmp_path).findings]

    assert sorted(messages) == [
        "`gone.md` points at `skills/alpha/gone.md`, which does not exist; fix the path or restore the file.",
        "no heading or id in this file has the anchor `#setup-step`; did you mean `#setup-steps`?",
    ]


@pytest.mark.parametrize("fragment", ["L10", "L10-L20", "L3C4-L5C2"])
def test_line_anchors_are_not_heading_checks(fragment: str):
    assert references.is_line_anchor(fragment)


def test_closest_anchor_only_when_near():
    anchors = {"installation", "usage", "configuration"}
    assert references.closest_anchor("instalation", anchors) == "installation"
    assert references.closest_anchor("Usage", anchors) == "usage"
    assert references.closest_anchor("zzz", anchors) is None


@pytest.mark.parametrize(
    "target", ["b%00.md", "a%00b/c.md", "a/" * 500 + "b.md", "a/" * 40000 + "b.md", "%00"]
)
def test_a_nul_byte_or_thousands_of_components_in_a_link_is_a_missing_file(
    tmp_path: Path, target: str
) -> None:
    make_skill(tmp_path / "repo", "demo", body=f"# Demo\n\nSee [x]({target}).\n")
    run, report = structural(tmp_path / "repo", tmp=tmp_path)
    assert run.stderr == "" and run.code == 1
    assert rules(report, "error") == ["ref-missing-file"]
    assert report["findings"][0]["line"] == 7


def test_a_target_the_system_will_not_stat_is_reported_as_permission_denied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = make_skill(tmp_path / "repo", "demo", body="# Demo\n\nSee [guide](references/guide.md#usage).\n")
    (folder / "references").mkdir()
    (folder / "references" / "guide.md").write_text("# Usage\n")
    real_stat = os.stat
    closed = str(folder / "references" / "guide.md")

    def stat(path, *args, **kwargs):  # root passes through mode 000: deny directly
        if os.fspath(path).endswith(closed):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    run, report = structural(tmp_path / "repo", tmp=tmp_path)
    assert run.stderr == "" and rules(report, "error") == ["ref-unreadable"]
    assert "permission denied" in report["findings"][0]["message"] and report["findings"][0]["line"] == 7


def test_a_memo_entry_of_another_shape_is_parsed_again_not_trusted(tmp_path: Path):
    # A damaged memo behaves as an empty one (harness/memo.py): it costs a parse, never a crash.
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n[gone](gone.md)\n", encoding="utf-8")
    memo = Memo(None, "test")
    memo.put(memo.key(page.read_text(encoding="utf-8")), "damaged")
    document = references.read(page, links.Parser(), memo)
    assert [ref.target for ref in document.references] == ["gone.md"]
