"""The runner: what a Trace says about routing (sample_from), and the thread pool around it.

The pool is driven here with a stand-in Agent; the real CLI drives it in test_routing_cli.py.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from harness import agent
from harness.agent import Activation, InitInfo, Trace, Usage
from harness.deadline import Deadline
from harness.model.dataset import Case
from harness.paid.cache import ResultCache
from harness.paid.controls import RunControls
from harness.paid.spend import RunBudget
from harness.routing.runner import RoutingRun, RoutingSettings, sample_from
from harness.routing.verdicts import ERROR


def init(skills=("pdf", "pdf-tools")) -> InitInfo:
    return InitInfo(
        skills=list(skills),
        tools=["Skill", "Bash"],
        model="claude-fake-1",
        claude_code_version="2.1.332",
        permission_mode="default",
        api_key_source="ANTHROPIC_API_KEY",
        session_id="s",
        cwd="/ws",
    )


def activation(name: str, *, confirmed=True, settled=True) -> Activation:
    return Activation(
        name=name,
        raw_input_name=name.removeprefix("other:"),
        tool_use_id="toolu_1",
        confirmed=confirmed,
        settled=settled,
    )


def trace(stop: str, *, decision: Activation | None = None, error: str | None = None, **fields) -> Trace:
    made = Trace(
        init=init(),
        stop_reason=stop,
        error=error,
        elapsed_s=1.5,
        usage=Usage(input_tokens=300, output_tokens=40),
        cost_usd=0.002,
        **fields,
    )
    if decision is not None:
        made.activations.append(decision)
    return made


# --- sample_from -------------------------------------------------------------------------------


def test_a_decision_is_observed():
    sample = sample_from(
        trace("activation", decision=activation("pdf-tools"), budget_tool_calls=1, inspection_calls=2)
    )
    assert (sample.observed, sample.error, sample.stop_reason) == ("pdf-tools", None, "activation")
    assert (sample.tool_calls, sample.inspection_calls) == (1, 2)
    assert (sample.input_tokens, sample.output_tokens, sample.cost_usd) == (300, 40, 0.002)
    assert sample.visible_skills == ["pdf", "pdf-tools"] and sample.model == "claude-fake-1"
    assert sample.elapsed_s == 1.5


def test_an_uninstalled_skill_is_observed_as_other_even_unconfirmed():
    sample = sample_from(trace("activation", decision=activation("other:ghost", confirmed=False)))
    assert sample.observed == "other:ghost" and sample.verdict(None) == "false_trigger"
    assert sample.verdict("pdf") == "wrong_skill"


def test_a_decision_stands_even_if_the_run_failed_afterwards():
    sample = sample_from(trace("completed", decision=activation("pdf"), error="claude exited 1"))
    assert sample.observed == "pdf" and sample.error is None


def test_an_activation_not_yet_settled_is_no_decision():
    sample = sample_from(
        trace(
            "timeout",
            decision=activation("pdf", settled=False),
            error="timed out after 5 s before claude finished",
        )
    )
    assert sample.observed is None and sample.verdict("pdf") == ERROR


@pytest.mark.parametrize("stop", ["result", "tool_budget", "budget"])
def test_stops_without_activation_are_a_graded_no_skill(stop):
    sample = sample_from(trace(stop))
    assert sample.observed is None and sample.error is None
    assert sample.verdict("pdf") == "missed_trigger" and sample.verdict(None) == "true_negative"


@pytest.mark.parametrize("stop", ["result", "timeout", "completed", "killed"])
def test_an_error_is_an_error_never_a_miss(stop):
    sample = sample_from(trace(stop, error="the API answered 529 (overloaded)"))
    assert sample.verdict("pdf") == ERROR and sample.error == "the API answered 529 (overloaded)"


@pytest.mark.parametrize("stop", ["completed", "killed", "timeout", ""])
def test_no_decision_and_no_explanation_is_still_an_error(stop):
    sample = sample_from(trace(stop))
    assert sample.verdict("pdf") == ERROR and sample.verdict(None) == ERROR
    assert "ended without reporting a result" in sample.error


def test_a_run_that_never_reached_init_still_gives_a_sample():
    bare = Trace(stop_reason="completed", error="claude produced no JSON output")
    sample = sample_from(bare)
    assert sample.visible_skills == [] and sample.model is None and sample.verdict(None) == ERROR


# --- the pool, with agent.run stood in for ---------------------------------------------------


def make_case(case_id: str, skill: str | None = "pdf", trigger: bool = True) -> Case:
    return Case(
        id=case_id,
        prompt=f"prompt {case_id}",
        should_trigger=trigger,
        skill=skill,
        source="pdf/evals/evals.json",
    )


@pytest.fixture
def room(tmp_path: Path) -> dict[str, Path]:
    skill = tmp_path / "pdf"
    skill.mkdir()
    (skill / "SKILL.md").write_text("---\nname: pdf\ndescription: PDFs.\n---\n# PDF\n")
    return {"pdf": skill}


class FakeAgent:
    """An Agent that answers from a function of the RunSpec and records what it was asked."""

    runtime, version, skills_folder = "fake", "0.0.0", ".claude/skills"

    def __init__(self, answer, temp_parent: Path):
        self.answer = answer
        self.temp_parent = temp_parent
        self.specs: list[agent.RunSpec] = []
        self.lock = threading.Lock()

    def workspace(self, room, fixture=None):
        return agent.stage_workspace(room, self.temp_parent, fixture)

    def describe(self):
        return {"config_dir": "fresh"}

    def run(self, spec):
        with self.lock:
            self.specs.append(spec)
        assert (spec.workspace / ".claude/skills/pdf/SKILL.md").is_file()
        return self.answer(spec)


def make_run(
    monkeypatch, room, tmp_path, answer, deadline=None, done=None, results=None, budget=None, **settings
) -> tuple:
    fake = FakeAgent(answer, tmp_path)
    run = RoutingRun(
        fake,
        room,
        RoutingSettings(**settings),
        RunControls(deadline or Deadline(0), results=results, budget=budget or RunBudget()),
    )
    if done is not None:
        run.on_case_done = done
    return run, fake


def test_every_sample_of_every_case_runs_and_each_case_is_reported_once(monkeypatch, room, tmp_path):
    reported = []
    run, fake = make_run(
        monkeypatch,
        room,
        tmp_path,
        lambda spec: trace("activation", decision=activation("pdf")),
        done=lambda o: reported.append(o.case.id),
        repeat=3,
        jobs=2,
        keep_logs=tmp_path / "logs",
        max_budget_usd=0.5,
        max_tool_calls=2,
    )
    outcomes = run.run([make_case("a"), make_case("b")])
    assert [len(o.samples) for o in outcomes] == [3, 3]
    assert sorted(reported) == ["a", "b"]
    assert sorted(s.keep_log.name for s in fake.specs) == [
        "a-1.jsonl",
        "a-2.jsonl",
        "a-3.jsonl",
        "b-1.jsonl",
        "b-2.jsonl",
        "b-3.jsonl",
    ]
    assert {s.max_budget_usd for s in fake.specs} == {0.5}
    assert not any(tmp_path.glob("skillscope-ws-*"))  # every workspace removed


def test_each_samples_log_of_an_id_the_file_name_changes_still_names_its_case(monkeypatch, room, tmp_path):
    from harness.agent.kept_cases import belongs
    from harness.agent.logs import log_file

    run, fake = make_run(
        monkeypatch,
        room,
        tmp_path,
        lambda spec: trace("activation", decision=activation("pdf")),
        repeat=2,
        keep_logs=tmp_path / "logs",
    )
    run.run([make_case("pdf:merge-1")])
    kept = [s.keep_log for s in fake.specs]
    assert len(set(kept)) == 2
    assert all(belongs(log_file(path), "pdf:merge-1") for path in kept)  # `show LOGS pdf:merge-1` finds both


def test_notes_on_options_the_cli_could_not_honour_are_kept_once(monkeypatch, room, tmp_path):
    def answer(spec):
        made = trace("result")
        made.notes.append("claude 1.0.0 has no --max-budget-usd; the budget was not enforced")
        return made

    run, _ = make_run(monkeypatch, room, tmp_path, answer, jobs=2)
    run.run([make_case("a"), make_case("b"), make_case("c")])
    assert run.notes == ["claude 1.0.0 has no --max-budget-usd; the budget was not enforced"]


def test_one_log_per_case_without_repeat_and_no_budget_at_zero(monkeypatch, room, tmp_path):
    run, fake = make_run(
        monkeypatch,
        room,
        tmp_path,
        lambda spec: trace("result"),
        keep_logs=tmp_path / "logs",
        max_budget_usd=0.0,
    )
    run.run([make_case("only")])
    (spec,) = fake.specs
    assert spec.keep_log == tmp_path / "logs" / "only.jsonl" and spec.max_budget_usd is None


def test_the_stop_policy_is_stop_at_decision_with_both_budgets(monkeypatch, room, tmp_path):
    run, fake = make_run(
        monkeypatch, room, tmp_path, lambda spec: trace("result"), max_tool_calls=2, max_inspection_calls=3
    )
    run.run([make_case("a")])
    stop = fake.specs[0].stop
    assert stop(Trace(budget_tool_calls=1, inspection_calls=2)) is None
    assert stop(Trace(budget_tool_calls=2)) == "tool_budget"
    assert stop(Trace(inspection_calls=3)) == "tool_budget"


def test_a_crash_in_one_case_is_that_cases_error(monkeypatch, room, tmp_path):
    def answer(spec):
        if "boom" in spec.prompt:
            raise RuntimeError("disk full")
        return trace("activation", decision=activation("pdf"))

    run, _ = make_run(monkeypatch, room, tmp_path, answer)
    boom, fine = run.run([make_case("boom"), make_case("fine")])
    assert boom.verdict == ERROR and "RuntimeError: disk full" in boom.error
    assert fine.verdict == "correct_trigger"


def test_cases_not_started_before_the_command_deadline_are_errors(monkeypatch, room, tmp_path):
    expired = Deadline(1, started=time.monotonic() - 5)
    run, fake = make_run(monkeypatch, room, tmp_path, lambda spec: trace("result"), deadline=expired)
    (outcome,) = run.run([make_case("late")])
    assert fake.specs == [] and outcome.verdict == ERROR
    assert outcome.error == "not run: the command's --timeout of 1 s ran out"
    assert outcome.samples[0].stop_reason == "timeout"


def test_a_case_cut_by_the_command_deadline_says_so(monkeypatch, room, tmp_path):
    run, fake = make_run(
        monkeypatch,
        room,
        tmp_path,
        lambda spec: trace("timeout", error=f"timed out after {spec.timeout_s:g} s"),
        deadline=Deadline(30),
        case_timeout=240,
    )
    (outcome,) = run.run([make_case("cut")])
    assert fake.specs[0].timeout_s <= 30
    assert outcome.error == "stopped when the command's --timeout of 30 s ran out"


def test_the_case_timeout_is_passed_when_the_deadline_is_far(monkeypatch, room, tmp_path):
    run, fake = make_run(
        monkeypatch,
        room,
        tmp_path,
        lambda spec: trace("timeout", error="timed out after 7 s"),
        case_timeout=7,
    )
    (outcome,) = run.run([make_case("slow")])
    assert fake.specs[0].timeout_s == 7 and outcome.error == "timed out after 7 s"


# --- what the init event says about the room ------------------------------------------------


def test_init_skills_without_builtins_drops_the_clis_own_doctor_command():
    info = init(skills=["pdf", "/pdf-tools", "doctor", "pdf"])
    assert info.skills_without_builtins == ["pdf", "pdf-tools"]


def test_a_sample_sees_the_init_skills_without_builtins():
    made = trace("result")
    made.init = init(skills=["pdf", "doctor", "stray"])
    assert sample_from(made).visible_skills == ["pdf", "stray"]


# --- the result cache, the run's budget, adaptive repeats ------------------------------------------


def fires(spec):
    return trace("activation", decision=activation("pdf"))


def test_an_unchanged_second_run_reuses_every_sample_and_runs_nothing(monkeypatch, room, tmp_path):
    results = ResultCache(tmp_path / "cache")
    first, fake = make_run(monkeypatch, room, tmp_path, fires, results=results, repeat=2)
    made = first.run([make_case("a"), make_case("b")])
    assert len(fake.specs) == 4 and not any(s.cached for o in made for s in o.samples)
    again, fake = make_run(monkeypatch, room, tmp_path, fires, results=results, repeat=2)
    budget = again.budget
    reused = again.run([make_case("a"), make_case("b")])
    assert fake.specs == []
    assert (
        all(s.cached for o in reused for s in o.samples)
        and [o.verdict for o in reused] == ["correct_trigger"] * 2
    )
    assert (budget.spent, round(budget.saved, 6)) == (0.0, 0.008)


def test_what_can_change_a_sample_changes_its_key(monkeypatch, room, tmp_path):
    results = ResultCache(tmp_path / "cache")
    base, _ = make_run(monkeypatch, room, tmp_path, fires, results=results)
    key = base.sample_key(make_case("a"), 0)
    assert base.sample_key(make_case("a"), 1) != key  # another sample of the same case
    assert base.sample_key(make_case("b"), 0) != key  # another prompt
    other_model, _ = make_run(monkeypatch, room, tmp_path, fires, results=results, model="claude-other")
    assert other_model.sample_key(make_case("a"), 0) != key
    (room["pdf"] / "evals").mkdir()
    (room["pdf"] / "evals" / "evals.json").write_text("{}")
    answer_key_only, _ = make_run(monkeypatch, room, tmp_path, fires, results=results)
    assert answer_key_only.sample_key(make_case("a"), 0) == key  # the answer key is never installed
    (room["pdf"] / "SKILL.md").write_text("---\nname: pdf\ndescription: PDFs, edited.\n---\n")
    edited, _ = make_run(monkeypatch, room, tmp_path, fires, results=results)
    assert edited.sample_key(make_case("a"), 0) != key


def test_the_model_and_endpoint_the_environment_chooses_change_the_key(monkeypatch, room, tmp_path):
    def key_with(**environ):
        run, fake = make_run(
            monkeypatch, room, tmp_path, fires, results=ResultCache(tmp_path / "c", None, environ)
        )
        return run.sample_key(make_case("a"), 0)

    monkeypatch.setattr(FakeAgent, "runtime", "claude")
    key = key_with(ANTHROPIC_BASE_URL="http://127.0.0.1:1")
    assert key_with(ANTHROPIC_BASE_URL="http://127.0.0.1:1", ANTHROPIC_MODEL="claude-other-2") != key
    assert key_with(ANTHROPIC_BASE_URL="http://127.0.0.1:2") != key
    assert key_with(ANTHROPIC_BASE_URL="http://127.0.0.1:1", ANTHROPIC_API_KEY="another key") == key
    assert key_with(ANTHROPIC_BASE_URL="http://127.0.0.1:1", OPENAI_MODEL="gpt-x") == key  # codex's


def test_errors_are_never_cached(monkeypatch, room, tmp_path):
    results = ResultCache(tmp_path / "cache")
    broken, _ = make_run(
        monkeypatch, room, tmp_path, lambda spec: trace("completed", error="boom"), results=results
    )
    broken.run([make_case("a")])
    again, fake = make_run(monkeypatch, room, tmp_path, fires, results=results)
    (outcome,) = again.run([make_case("a")])
    assert len(fake.specs) == 1 and outcome.verdict == "correct_trigger" and not outcome.samples[0].cached


def test_no_case_starts_once_the_run_spent_its_cap(monkeypatch, room, tmp_path):
    budget = RunBudget(0.003)  # each run costs 0.002: the second starts at 0.002, the third at 0.004
    run, fake = make_run(monkeypatch, room, tmp_path, fires, budget=budget, jobs=1)
    outcomes = run.run([make_case(name) for name in "abcd"])
    assert len(fake.specs) == 2
    assert [o.verdict for o in outcomes] == ["correct_trigger", "correct_trigger", "not-run", "not-run"]
    assert outcomes[2].error == (
        "not run: the run had spent $0.0040, reaching its --max-run-usd of $0.003; raise the cap or "
        "select fewer cases"
    )


def test_cached_samples_are_served_after_the_cap_is_reached(monkeypatch, room, tmp_path):
    results = ResultCache(tmp_path / "cache")
    make_run(monkeypatch, room, tmp_path, fires, results=results)[0].run([make_case("z")])
    run, fake = make_run(monkeypatch, room, tmp_path, fires, results=results, budget=RunBudget(0.001), jobs=1)
    outcomes = run.run([make_case("a"), make_case("b"), make_case("z")])
    assert [o.verdict for o in outcomes] == ["correct_trigger", "not-run", "correct_trigger"]
    assert outcomes[2].samples[0].cached and len(fake.specs) == 1


def test_adaptive_repeats_stop_a_stable_case_early_and_give_a_flaky_one_the_most(monkeypatch, room, tmp_path):
    turns: dict[str, int] = {}
    lock = threading.Lock()

    def answer(spec):
        with lock:
            n = turns[spec.prompt] = turns.get(spec.prompt, 0) + 1
        if "flaky" in spec.prompt and n % 2 == 0:
            return trace("result")  # the skill did not fire this time
        return fires(spec)

    run, _ = make_run(monkeypatch, room, tmp_path, answer, repeat=6, adaptive=True, jobs=3)
    stable, flaky = run.run([make_case("stable"), make_case("flaky")])
    assert len(stable.samples) == 4 and not stable.flaky  # 4/4: the interval clears one half
    assert len(flaky.samples) == 6 and flaky.flaky
