"""harness/model/suite_folders.py: the plugin eval suite's case folders under a skill's evals/, found by one
walk as a glob per file name finds them."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.model.suite_folders import CASE_FILE, PROMPT_FILE, RESERVED, case_folders
from tests.support.examples import examples

segments = st.sampled_from(["a", "b", "results", "mocks", ".replay", "deep"])
entries = st.tuples(st.lists(segments, max_size=3), st.sampled_from([CASE_FILE, PROMPT_FILE, "notes.md"]))


def globbed(evals: Path) -> list[Path]:
    """The definition: every case.yaml or prompt.md anywhere below, outside the CLI's own folders."""
    found = {p.parent for name in (CASE_FILE, PROMPT_FILE) for p in evals.rglob(name)}
    return sorted(f for f in found if not RESERVED & set(f.relative_to(evals).parts))


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(entries, max_size=8))
def test_one_walk_finds_the_folders_a_glob_finds(tree: list[tuple[list[str], str]]) -> None:
    root = Path(tempfile.mkdtemp())
    try:
        evals = root / "evals"
        evals.mkdir()
        for folders, name in tree:
            where = evals.joinpath(*folders)
            where.mkdir(parents=True, exist_ok=True)
            (where / name).write_text("x")
        assert case_folders(evals) == globbed(evals)
    finally:
        shutil.rmtree(root)


def test_no_evals_folder_has_no_case_folders(tmp_path: Path) -> None:
    assert case_folders(tmp_path / "evals") == []
