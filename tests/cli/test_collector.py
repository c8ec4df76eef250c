"""The cyclic collector is paused for a run bounded by its repo, kept for an agent run, restored after."""

from __future__ import annotations

import gc

import pytest

from harness.cli import collector
from harness.commands import routing, structural
from tests.support.helpers import make_skill, run_cli


def test_paused_disables_the_collector_and_restores_it():
    assert gc.isenabled()
    with collector.paused(True):
        assert not gc.isenabled()
    assert gc.isenabled()
    with collector.paused(False):
        assert gc.isenabled()


def test_a_caller_that_had_disabled_it_keeps_it_disabled():
    gc.disable()
    try:
        with collector.paused(True):
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_an_error_inside_still_restores_it():
    with pytest.raises(ValueError), collector.paused(True):
        raise ValueError("boom")
    assert gc.isenabled()


@pytest.mark.parametrize(
    ("module", "argv", "paused"),
    [
        (structural, ["structural"], True),
        (routing, ["routing", "--engine", "lexical"], True),
        (routing, ["routing"], False),  # the agent engine: a run of hours keeps its collector
    ],
)
def test_each_command_says_whether_its_run_is_bounded(module, argv, paused, tmp_path, monkeypatch):
    make_skill(tmp_path, "alpha")
    seen: list[bool] = []
    monkeypatch.setattr(module, "run", lambda args, ctx: seen.append(gc.isenabled()) or 0)
    run = run_cli([*argv, "--repo", str(tmp_path)], cwd=tmp_path)
    assert run.code == 0 and seen == [not paused]
    assert gc.isenabled()
