"""`skillscope import addyosmani` and the readers' round trip: import, then read, gives the same cases."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from harness.authoring import addyosmani, skill_creator
from harness.model import dataset, skill_creator_evals
from tests.support.examples import examples
from tests.support.helpers import run_cli

HERE = Path(__file__).parent / "addyosmani"
SKILL_MD = (
    "---\nname: {0}\ndescription: Tidy CSV files. Use when a CSV needs cleaning.\n---\n\n# {0}\n\nTidy it.\n"
)


def make_repo(tmp_path: Path, *skills: str) -> Path:
    root = tmp_path / "repo"
    for name in skills:
        (root / "skills" / name).mkdir(parents=True)
        (root / "skills" / name / "SKILL.md").write_text(SKILL_MD.format(name), encoding="utf-8")
    (root / ".git").mkdir()
    return root


def test_every_trigger_prompt_carries_over_with_its_top_k_and_owner(tmp_path: Path) -> None:
    data = json.loads((HERE / "csv-tidy.json").read_text(encoding="utf-8"))
    converted = addyosmani.convert("csv-tidy", data, tmp_path, stage_files=False)
    by_id = {c["id"]: c for c in converted.dataset["evaluations"]}
    assert by_id["csv-tidy-pos-2"] == {
        "id": "csv-tidy-pos-2",
        "skill_should_trigger": True,
        "prompt": "dedupe rows in this csv",
        "top_k": 1,
    }
    assert by_id["csv-tidy-neg-2"]["owner"] == "debugging"
    assert by_id["csv-tidy-1"]["trust_level"] == "provisional"
    assert converted.left_out == ["evals[0]: `kind` has no counterpart in our shape."]


def test_import_addyosmani_writes_a_dataset_structural_reads(tmp_path: Path) -> None:
    root = make_repo(tmp_path, "csv-tidy", "debugging")
    shutil.copy(HERE / "csv-tidy.json", root / "case.json")
    out = "skills/csv-tidy/evals/evals.json"
    run = run_cli(
        [
            "import",
            "addyosmani",
            "--skill",
            "csv-tidy",
            "--evals",
            "case.json",
            "--output",
            out,
            "--skills-dir",
            "skills/*",
        ],
        cwd=root,
    )
    assert run.code == 0, run.stderr
    assert "`kind`" in run.stderr
    assert "(e.g. negatives)" not in run.stderr  # the file had negatives
    read = dataset.load(root / out, out, "csv-tidy")
    assert not read.problems
    assert len(read.cases) == 5


def test_import_skill_creator_names_an_addyosmani_trigger_block_it_cannot_carry(tmp_path: Path) -> None:
    data = json.loads((HERE / "csv-tidy.json").read_text(encoding="utf-8"))
    converted = skill_creator.convert("csv-tidy", data, None, tmp_path, stage_files=False)
    assert any("`trigger`" in s and "import addyosmani" in s for s in converted.left_out)


def test_a_skill_not_found_says_where_import_looked_and_how_to_point_there(tmp_path: Path) -> None:
    root = make_repo(tmp_path, "csv-tidy")
    shutil.copy(HERE / "csv-tidy.json", root / "case.json")
    run = run_cli(["import", "addyosmani", "--skill", "csv-tidy", "--evals", "case.json"], cwd=root)
    assert run.code == 2
    assert "--skills-dir *" in run.stderr and "--skills-dir 'skills/*'" in run.stderr
    assert "skillscope init" in run.stderr


texts = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30).filter(
    lambda s: s.strip() == s and s
)
evals_files = st.lists(
    st.fixed_dictionaries(
        {"id": st.integers(0, 5) | st.text("ab-_ .", min_size=1, max_size=4), "prompt": texts},
        optional={"expected_output": texts, "expectations": st.lists(texts, max_size=3)},
    ),
    max_size=5,
)
trigger_sets = st.lists(st.fixed_dictionaries({"query": texts, "should_trigger": st.booleans()}), max_size=6)


def _essence(cases: list[dataset.Case]) -> list[tuple]:
    return [(c.id, c.prompt, c.should_trigger, c.expected_behavior) for c in cases]


@settings(max_examples=examples(60), deadline=None)
@given(evals_files, trigger_sets)
def test_read_in_place_and_imported_give_the_same_cases(evals: list, triggers: list) -> None:
    """The native readers and `import` agree case for case (ids, prompts, verdicts, statements)."""
    evals_text = json.dumps({"skill_name": "s", "evals": evals}, indent=2)
    triggers_text = json.dumps(triggers, indent=2)
    native = skill_creator_evals.read_evals(evals_text, json.loads(evals_text), dataset.Dataset("e", "s"))
    native_t = skill_creator_evals.read_triggers(
        triggers_text, json.loads(triggers_text), dataset.Dataset("t", "s")
    )
    converted = skill_creator.convert("s", json.loads(evals_text), triggers, Path("."), stage_files=False)
    imported = dataset.parse(json.dumps(converted.dataset), dataset.Dataset("ours", "s"))
    assert not native.problems and not native_t.problems
    assert _essence(imported.cases) == _essence(native.cases + native_t.cases)
