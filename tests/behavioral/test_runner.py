"""The behavioral runner's own rules, with a stand-in agent: which words an unfinished run gets, and
that a cancelled case is left out rather than graded. The real CLI drives tests/commands/."""

from __future__ import annotations

import contextlib
import signal
from pathlib import Path

from harness.agent import ClaudeEvents
from harness.behavioral.runner import BehavioralRun, BehavioralSettings, SkillUnderTest
from harness.cancel import Cancellation
from harness.deadline import Deadline
from harness.model.dataset import Case
from harness.paid.cache import ResultCache
from harness.paid.controls import RunControls
from tests.support.tracing import call, finished, trace


class StandIn:
    """An Agent whose run() ends as told, after `during(spec)` (which may move the command's clock)."""

    runtime, version, skills_folder, temp_parent = "stand-in", "0", ".claude/skills", None

    def __init__(self, tmp: Path, stop_reason: str, during=lambda spec: None):
        self.tmp, self.stop_reason, self.during = tmp, stop_reason, during
        self.prompts: list[str] = []

    @contextlib.contextmanager
    def workspace(self, room, fixture=None):
        yield self.tmp

    def run(self, spec):
        self.prompts.append(spec.prompt)
        self.during(spec)
        return finished(ClaudeEvents({}), exit_code=None, stop_reason=self.stop_reason)

    def redact(self, text: str) -> str:
        return text

    def describe(self) -> dict:
        return {}


def cases(*ids: str) -> list[Case]:
    return [
        Case(i, f"prompt of {i}", True, "skill", "skill/evals/evals.json", logs_contain=["x"]) for i in ids
    ]


def run_with(agent, deadline: Deadline, cancel: Cancellation | None = None, ids=("first", "second")):
    skills = {"skill": SkillUnderTest("skill", agent.tmp)}
    controls = RunControls(deadline, cancel or Cancellation())
    return BehavioralRun(agent, skills, BehavioralSettings(), controls).run(cases(*ids))


def test_a_run_the_command_timeout_stopped_and_a_case_it_never_reached(tmp_path):
    deadline = Deadline(3600)

    def time_runs_out(spec):
        deadline.started -= deadline.seconds  # the clock moves past the limit while the agent works

    results = run_with(StandIn(tmp_path, "timeout", time_runs_out), deadline)
    assert [r.error for r in results] == [
        "stopped when the command's --timeout of 3600 s ran out",
        "not run: the command's --timeout of 3600 s ran out",
    ]


def test_a_cancelled_case_and_every_later_one_are_left_out(tmp_path):
    cancel = Cancellation()
    agent = StandIn(tmp_path, "cancelled", lambda spec: cancel.cancel(signal.SIGINT))
    assert run_with(agent, Deadline(0), cancel) == []
    assert agent.prompts == ["prompt of first"]  # nothing started after the signal


class Curious(StandIn):
    """A stand-in whose agent reads /etc/hostname on its first run(s), then stays home."""

    def __init__(self, tmp: Path, outside_runs: int, during=lambda spec: None):
        super().__init__(tmp, "completed", during)
        self.outside_runs = outside_runs
        self.logs: list[Path | None] = []

    def run(self, spec):
        self.prompts.append(spec.prompt)
        self.logs.append(spec.keep_log)
        self.during(spec)
        path = "/etc/hostname" if len(self.prompts) <= self.outside_runs else "notes.txt"
        made = trace(call("Read", {"file_path": path}, "x"), final="x")
        made.stop_reason = "completed"
        return made


def strict_run(agent, deadline: Deadline, logs: Path | None = None):
    skills = {"skill": SkillUnderTest("skill", agent.tmp)}
    settings = BehavioralSettings(strict_isolation=True, keep_logs=logs)
    return BehavioralRun(agent, skills, settings, RunControls(deadline)).run(cases("only"))


def test_a_blocked_attempt_runs_once_more_with_its_own_log(tmp_path):
    agent = Curious(tmp_path, outside_runs=1)
    (result,) = strict_run(agent, Deadline(0), tmp_path / "logs")
    assert (result.status, [a.status for a in result.attempts]) == ("pass", ["blocked", "pass"])
    assert [p.name for p in agent.logs] == ["only.agent.jsonl", "only.attempt-2.agent.jsonl"]


def test_a_blocked_attempt_is_not_run_again_once_the_commands_timeout_ran_out(tmp_path):
    deadline = Deadline(3600)

    def time_runs_out(spec):
        deadline.started -= deadline.seconds

    agent = Curious(tmp_path, outside_runs=2, during=time_runs_out)
    (result,) = strict_run(agent, deadline)
    assert (result.status, result.blocked, len(result.attempts)) == ("blocked", "outside-workspace", 1)
    assert len(agent.prompts) == 1


# --- what a case's cache key holds ---------------------------------------------------------------------


def key_of(tmp_path: Path, skill: Path, environ: dict | None = None, **settings) -> str:
    agent = StandIn(tmp_path, "result")
    agent.runtime = "claude"
    run = BehavioralRun(
        agent,
        {"skill": SkillUnderTest("skill", skill)},
        BehavioralSettings(**settings),
        RunControls(Deadline(0), results=ResultCache(tmp_path / "cache", None, environ or {})),
    )
    return run.case_key(run.skills["skill"], cases("one")[0])


def test_the_key_holds_every_file_of_the_skill_folder_the_spend_cap_and_the_environment(tmp_path):
    skill = tmp_path / "skill"
    (skill / "evals").mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: skill\ndescription: Does it.\n---\n")
    (skill / "evals" / "hooks.py").write_text("def check(run, case, ctx):\n    return None\n")
    (skill / "evals" / "golden.txt").write_text("PASS\n")
    key = key_of(tmp_path, skill)
    assert key_of(tmp_path, skill) == key
    (skill / "evals" / "golden.txt").write_text("FAIL\n")  # what check() reads: no longer the same grade
    changed = key_of(tmp_path, skill)
    assert changed != key
    assert key_of(tmp_path, skill, max_budget_usd=0.0001) != changed
    assert key_of(tmp_path, skill, {"ANTHROPIC_MODEL": "claude-other-2"}) != changed
    assert key_of(tmp_path, skill, {"ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}) != changed
    assert key_of(tmp_path, skill, {"ANTHROPIC_API_KEY": "sk-other"}) == changed


def test_a_key_asked_for_while_the_first_is_still_being_worked_out_is_the_same_key(tmp_path, monkeypatch):
    # Samples on the pool's threads ask for their first key together. The skill's digests were once
    # stored in two steps, and a thread that came in between found the second missing (KeyError).
    # Asking again from inside the digest stands in for that thread, without timing.
    from harness.behavioral import runner as runner_mod

    skill = tmp_path / "skill"
    skill.mkdir()
    (skill / "SKILL.md").write_text("---\nname: skill\ndescription: Does it.\n---\n")
    agent = StandIn(tmp_path, "result")
    agent.runtime = "claude"
    run = BehavioralRun(
        agent,
        {"skill": SkillUnderTest("skill", skill)},
        BehavioralSettings(),
        RunControls(Deadline(0), results=ResultCache(tmp_path / "cache", None, {})),
    )
    case = cases("one")[0]
    digest, calls, meanwhile = runner_mod.digests.tree_digest, [], []

    def digest_with_a_second_caller(*args, **kwargs):
        # Between the first key's two digests, another sample asks for its own.
        calls.append(args)
        if len(calls) == 2:
            meanwhile.append(run.case_key(run.skills["skill"], case))
        return digest(*args, **kwargs)

    monkeypatch.setattr(runner_mod.digests, "tree_digest", digest_with_a_second_caller)
    first = run.case_key(run.skills["skill"], case)
    assert meanwhile and set(meanwhile) == {first}
