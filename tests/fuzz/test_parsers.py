"""Every parser reachable from user input, driven by hypothesis: each either returns or raises one of
the project's own error types, whose messages become findings or usage errors. Anything else would
reach the CLI as an internal error (exit 3)."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from harness import json_positions, yamlsafe
from harness.agent.claude_events import ClaudeEvents
from harness.agent.logs import READERS
from harness.behavioral.judge import InvalidAnswer, parse_verdicts
from harness.checks import references, skill_md
from harness.cli.flags import parse_list
from harness.errors import HarnessError
from harness.files import UnreadableFile
from harness.markdown import budget, links, sections
from harness.model import dataset, machine, skill
from harness.select.policy import parse_runner_types
from tests.fuzz.strategies import (
    ANY_TEXT,
    DEFAULT_EXAMPLES,
    EXAMPLES,
    FUZZ,
    JSON_FRAGMENTS,
    LIST_FRAGMENTS,
    MARKDOWN_FRAGMENTS,
    STREAM_LINES,
    VERDICT_FRAGMENTS,
    YAML_FRAGMENTS,
    built_from,
)
from tests.support.tracing import finished

# A nightly-style run takes minutes per target on a busy machine: the suite's per-test time limit,
# a guard against hangs in the default run, would stop it part way.
pytestmark = pytest.mark.timeout(0 if EXAMPLES > DEFAULT_EXAMPLES else 300)

YAML_TEXT = built_from(YAML_FRAGMENTS)
MARKDOWN_TEXT = built_from(MARKDOWN_FRAGMENTS, ANY_TEXT, most=60)
IDS = ["E1", "E2"]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8", "surrogatepass"))


@FUZZ
@given(YAML_TEXT)
def test_yaml(text: str) -> None:
    try:
        document = yamlsafe.load(text)
    except yamlsafe.YamlProblem as exc:
        assert exc.line is None or exc.line >= 1
        return
    assert all(isinstance(key, str) for key in document.key_lines)


@FUZZ
@given(YAML_TEXT, built_from(MARKDOWN_FRAGMENTS, most=10), st.sampled_from(["\n", "\r\n", "\r", "\u2028"]))
def test_frontmatter(workdir: Path, yaml_text: str, body: str, end: str) -> None:
    folder = workdir / "frontmatter" / "demo"
    write(folder / "SKILL.md", end.join(["---", yaml_text, "---", body]))
    loaded = skill.load("demo", folder)
    found = skill_md.check_skill(loaded, "demo/SKILL.md")
    assert all(f.line is None or f.line >= 1 for f in found)


@FUZZ
@given(YAML_TEXT)
def test_machine_yml(workdir: Path, text: str) -> None:
    path = workdir / "machine" / "machine.yml"
    write(path, text)
    plan = machine.load(path, "demo/evals/machine.yml")
    assert all(p.rule.startswith("machine-") for p in plan.problems)


DATASET_TEXT = st.one_of(
    built_from(JSON_FRAGMENTS, most=60),
    st.lists(
        st.tuples(
            st.sampled_from(["evaluations", "comment", "skillscope_version", "x"]),
            st.from_regex(
                r'\A\[(\{"id": "[a-z]{0,3}", "prompt": "p", '
                r'"skill_should_trigger": (true|false)\}, ?){0,3}\]\Z'
            ),
        ),
        max_size=4,
    ).map(lambda pairs: "{\n" + ",\n".join(f'"{key}":\n{value}' for key, value in pairs) + "\n}"),
)


@FUZZ
@given(DATASET_TEXT)
def test_dataset(text: str) -> None:
    parsed = dataset.parse(text, dataset.Dataset(rel="demo/evals/evals.json", skill="demo"))
    lines = text.count("\n") + 1
    assert all(p.line is None or 1 <= p.line <= lines for p in parsed.problems)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return
    if isinstance(data, dict) and isinstance(data.get("evaluations"), list):
        # the lines belong to the array json.loads keeps, the last one when the key is repeated
        assert len(json_positions.element_lines(text, "evaluations")) == len(data["evaluations"])


@FUZZ
@given(MARKDOWN_TEXT)
def test_markdown_links_and_their_targets(workdir: Path, text: str) -> None:
    root = workdir / "links"
    source = root / "demo" / "SKILL.md"
    write(source, text.replace("\ud800", ""))
    resolver = references.Resolver(root)
    try:
        document = links.parse(text)
    except budget.TooManyLinkMarks:
        return
    for ref in document.references:
        links.classify(ref.target)
        resolver.resolve(
            references.Source(os.fspath(source), "demo/SKILL.md", os.fspath(source.parent)), document, ref
        )
    with contextlib.suppress(budget.TooManyLinkMarks):
        sections.sections(text)


@FUZZ
@given(st.lists(STREAM_LINES, max_size=8), st.sampled_from(["completed", "killed", "result", "timeout"]))
def test_stream_json(lines: list[str], stop: str) -> None:
    builder = ClaudeEvents({"pdf": "/ws/.claude/skills/pdf"})
    for line in lines:
        builder.feed(line)
    trace = finished(builder, stop_reason=stop)
    assert all(isinstance(v, int) and v >= 0 for v in trace.usage.as_dict().values())
    assert trace.error is None or isinstance(trace.error, str)
    assert trace.final_message is None or isinstance(trace.final_message, str)


# Every reader is fed the same lines: drawing them is the test's whole cost, and a derandomized case
# per runtime drew the same examples for each anyway (the seed comes from the test function).
@FUZZ
@given(lines=st.lists(STREAM_LINES, max_size=8))
def test_other_agents_streams(lines: list[str]) -> None:
    for runtime in sorted(set(READERS) - {"claude"}):
        reader = READERS[runtime]({"pdf": "/ws/.agents/skills/pdf"})
        for line in lines:
            event = reader.feed(line)
            if event is not None:
                reader.ends_run(event)
        trace = reader.trace
        assert all(isinstance(v, int) and v >= 0 for v in trace.usage.as_dict().values()), runtime
        assert trace.final_message is None or isinstance(trace.final_message, str), runtime
        assert all(isinstance(c.id, str) and isinstance(c.name, str) for c in trace.tool_calls), runtime


@FUZZ
@given(built_from(VERDICT_FRAGMENTS, ANY_TEXT, most=20))
def test_judge_answer(answer: str) -> None:
    try:
        verdicts = parse_verdicts(answer, IDS)
    except InvalidAnswer:
        return
    assert sorted(verdicts) == IDS


@FUZZ
@given(built_from(LIST_FRAGMENTS, ANY_TEXT, most=20))
def test_list_flags(text: str) -> None:
    try:
        items = parse_list("--names", text)
    except HarnessError as exc:
        assert exc.exit_code == 2
        return
    assert all(isinstance(item, str) and item for item in items)


@FUZZ
@given(built_from(LIST_FRAGMENTS, ANY_TEXT, most=20))
def test_runner_types(text: str) -> None:
    try:
        parse_runner_types(text)
    except HarnessError as exc:
        assert exc.exit_code == 2


def test_the_project_errors_the_targets_allow_are_the_documented_ones() -> None:
    assert issubclass(InvalidAnswer, ValueError) and issubclass(budget.TooManyLinkMarks, ValueError)
    assert not issubclass(UnreadableFile, HarnessError)
