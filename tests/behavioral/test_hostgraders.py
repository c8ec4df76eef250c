"""The free graders of a plugin eval suite, scored on a normalised trace and workspace diff."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from harness.agent import ToolCall, Trace
from harness.behavioral import hostgraders
from harness.behavioral.evidence import Passage
from harness.behavioral.scorers import Check
from harness.behavioral.snapshot import Changes
from harness.model.dataset import Grader


def _grader(kind: str, weight: float = 1, **spec: object) -> Grader:
    return Grader(
        f"g-{kind}", kind, weight, {"name": f"g-{kind}", "type": kind, **spec}, "evals/c/case.yaml", 3
    )


def _one(grader: Grader, trace: Trace, changes: Changes | None = None, tmp: Path = Path(".")) -> Check:
    did = [Passage("final message", trace.final_message or "")]
    return hostgraders.score([grader], trace, did, changes or Changes(), tmp)[0]


TRACE = Trace(
    final_message="Report is WRITTEN. Report written.",
    tool_calls=[
        ToolCall(id="1", name="Read", input={"file_path": "in.md"}, read="in.md"),
        ToolCall(id="2", name="Bash", input={"command": "ls"}, command="ls"),
        ToolCall(id="3", name="Write", input={"file_path": "out/r.md"}, written="out/r.md"),
    ],
)


def test_regex_contains_not_contains_and_count_with_flags() -> None:
    assert _one(_grader("regex", pattern="report (is )?written", flags="i"), TRACE).passed
    assert not _one(_grader("regex", pattern="report (is )?written"), TRACE).passed  # case matters
    assert _one(_grader("regex", pattern="sorry", match="not_contains"), TRACE).passed
    assert _one(_grader("regex", pattern="written", flags="i", match="count:2"), TRACE).passed
    assert not _one(_grader("regex", pattern="written", match="count:2"), TRACE).passed


def test_regex_over_produced_files(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "r.md").write_text("# Summary\n")
    changes = Changes(created=["out/r.md"])
    assert _one(
        _grader("regex", pattern="^# Summary", flags="m", target="files"), TRACE, changes, tmp_path
    ).passed
    assert not _one(_grader("regex", pattern="Missing", target="files"), TRACE, changes, tmp_path).passed


def test_tool_counts_and_order() -> None:
    assert _one(_grader("tool_used", tool="Bash", max=1), TRACE).passed
    assert not _one(_grader("tool_used", tool="Bash", min=2), TRACE).passed
    assert _one(_grader("tool_used", tool="Write", input_match="out/"), TRACE).passed
    assert not _one(_grader("tool_used", tool="Edit"), TRACE).passed
    assert _one(_grader("tool_order", before="Read", after="Write"), TRACE).passed
    assert not _one(_grader("tool_order", before="Write", after={"tool": "Read"}), TRACE).passed
    assert not _one(_grader("tool_order", before="Read", after="Edit"), TRACE).passed


def test_file_exists_is_a_glob_over_what_the_run_produced() -> None:
    changes = Changes(created=["out/deep/r.md"], untouched=["old.md"])
    assert _one(_grader("file_exists", path="out/**/*.md"), TRACE, changes).passed
    assert _one(_grader("file_exists", path="./out/deep/r.md"), TRACE, changes).passed
    assert not _one(_grader("file_exists", path="*.md"), TRACE, changes).passed  # `*` stays in one folder
    assert not _one(_grader("file_exists", path="old.md"), TRACE, changes).passed  # untouched: not produced


@given(st.lists(st.tuples(st.floats(0.1, 10), st.booleans()), min_size=1, max_size=6))
def test_the_weighted_score_is_passed_weight_over_all(weights: list[tuple[float, bool]]) -> None:
    graders = [Grader(f"g{i}", "regex", w, {}, "f", 1) for i, (w, _) in enumerate(weights)]
    checks = [
        Check("host_grader", hostgraders.label(g), ok, "")
        for g, (_, ok) in zip(graders, weights, strict=True)
    ]
    score = hostgraders.weighted_score(graders, checks)
    expected = sum(w for w, ok in weights if ok) / sum(w for w, _ in weights)
    assert score is not None and abs(score - expected) < 1e-9


def test_an_llm_grader_weighs_by_its_judged_statement() -> None:
    llm = _grader("llm", weight=3, criteria="Names every section.")
    assert hostgraders.score([llm], TRACE, [], Changes(), Path(".")) == []  # the judge grades it
    regex = _grader("regex", pattern="x")
    checks = [
        Check("expected_behavior", "Names every section.", True, ""),
        Check("host_grader", hostgraders.label(regex), False, ""),
    ]
    assert hostgraders.weighted_score([llm, regex], checks) == 0.75
    assert hostgraders.weighted_score([], checks) is None


@given(st.text(alphabet="ab/*?.", max_size=8), st.text(alphabet="ab/.", max_size=8))
def test_a_star_never_crosses_a_folder(pattern: str, path: str) -> None:
    if "**" not in pattern and hostgraders.glob_regex(pattern).fullmatch(path):
        assert path.count("/") == pattern.count("/")
