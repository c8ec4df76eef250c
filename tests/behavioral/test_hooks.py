"""evals/hooks.py: loaded by path, every function optional, crashes told apart from failed checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.behavioral import hooks
from harness.behavioral.hooks import HookError

REL = "demo/evals/hooks.py"


def load(tmp_path: Path, source: str) -> hooks.Hooks | None:
    skill = tmp_path / "demo"
    (skill / "evals").mkdir(parents=True, exist_ok=True)
    (skill / "evals" / "hooks.py").write_text(source)
    return hooks.load("demo", skill, REL)


def test_a_skill_without_hooks_has_none(tmp_path):
    assert hooks.load("demo", tmp_path, REL) is None


def test_every_function_is_optional(tmp_path):
    loaded = load(tmp_path, "VALUE = 1\n")
    assert loaded.functions == {} and not loaded.has_check and loaded.load_error is None
    assert loaded.setup(tmp_path, None, {}) == {}
    assert loaded.check(None, None, {}) is None
    with hooks.session(loaded) as session:
        assert session.placeholders == {} and session.error is None


def test_a_broken_file_is_a_load_error_naming_it(tmp_path):
    assert load(tmp_path, "def check(run, case, ctx:\n").load_error.startswith(
        f"{REL} could not be loaded (SyntaxError"
    )
    assert load(tmp_path, "check = 3\n").load_error == (
        f"{REL}: `check` is not a function (it is int); define it with def."
    )
    assert "SystemExit" in load(tmp_path, "import sys\nsys.exit(2)\n").load_error


def test_setup_session_gets_a_cache_dir_that_is_always_removed(tmp_path):
    loaded = load(
        tmp_path,
        "def setup_session(cache_dir):\n    (cache_dir / 'x').write_text('1')\n"
        "    return {'repo': str(cache_dir)}\n",
    )
    with pytest.raises(RuntimeError), hooks.session(loaded, tmp_path) as session:
        cache = Path(session.placeholders["repo"])
        assert (cache / "x").is_file() and cache.parent == tmp_path
        raise RuntimeError("the cases crashed")
    assert not cache.exists()


def test_a_failing_setup_session_is_a_session_error_and_still_cleans_up(tmp_path):
    loaded = load(
        tmp_path,
        "SEEN = []\ndef setup_session(cache_dir):\n    SEEN.append(cache_dir)\n"
        "    raise OSError('clone failed')\n",
    )
    with hooks.session(loaded, tmp_path) as session:
        assert session.error.startswith(f"{REL}: setup_session raised OSError: clone failed ({REL} line 4:")
        assert session.placeholders == {}
    assert not session.cache_dir.exists()


def test_setup_must_return_a_dict_of_names_or_none(tmp_path):
    loaded = load(tmp_path, "def setup(workspace, case, ctx):\n    return ['not', 'a', 'dict']\n")
    with pytest.raises(HookError, match="setup returned list, not a dict of placeholder names"):
        loaded.setup(tmp_path, None, {})


def test_check_assertion_is_a_failure_with_its_line_and_other_errors_are_crashes(tmp_path):
    loaded = load(
        tmp_path,
        "def check(run, case, ctx):\n"
        "    if ctx.get('mode') == 'assert':\n"
        "        assert run == 'ok', 'the run was not ok'\n"
        "    if ctx.get('mode') == 'bare':\n"
        "        assert run == 'ok'\n"
        "    if ctx.get('mode') == 'false':\n"
        "        return False\n"
        "    return ctx['missing']\n",
    )
    assert loaded.check("bad", None, {"mode": "assert"}) == (
        f"the run was not ok ({REL} line 3: assert run == 'ok', 'the run was not ok')"
    )
    bare = loaded.check("bad", None, {"mode": "bare"})
    assert bare == f"assertion failed ({REL} line 5: assert run == 'ok')"
    assert loaded.check("bad", None, {"mode": "false"}).startswith("check returned False")
    with pytest.raises(HookError, match=r"check raised KeyError: 'missing'"):
        loaded.check("ok", None, {})


@pytest.mark.parametrize(
    ("source", "named"),
    [
        ("def check(run, case, ctx):\n    pass\n", ["check"]),
        ("async def setup(ws, case, ctx):\n    pass\ncheck = print\n", ["setup", "check"]),
        ("from shared import teardown as teardown, check\n", ["teardown", "check"]),
        ("import os\nos.system('x')\n", []),
    ],
)
def test_declared_names_the_hooks_without_running_the_file(tmp_path: Path, source: str, named: list[str]):
    """What a dry run reads: the hooks hooks.py defines at its top level, and the file never runs."""
    skill = tmp_path / "alpha"
    (skill / "evals").mkdir(parents=True)
    (skill / "evals" / "hooks.py").write_text(source + "\nraise SystemExit('ran')\n", encoding="utf-8")
    found = hooks.declared("alpha", skill, "alpha/evals/hooks.py")
    assert found is not None and found.load_error is None
    assert sorted(found.functions) == sorted(named)
    assert found.has_check is ("check" in named)


def test_declared_says_why_a_file_that_does_not_parse_cannot_load(tmp_path: Path):
    skill = tmp_path / "alpha"
    (skill / "evals").mkdir(parents=True)
    (skill / "evals" / "hooks.py").write_text("def check(:\n", encoding="utf-8")
    found = hooks.declared("alpha", skill, "alpha/evals/hooks.py")
    assert found is not None and found.load_error and "SyntaxError" in found.load_error
    assert hooks.declared("beta", tmp_path / "beta", "beta/evals/hooks.py") is None
