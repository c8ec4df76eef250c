"""harness.cli: version, usage errors and internal errors, all as exit codes on the Context's streams."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness import __version__, cli
from harness.cli import main
from harness.commands import structural as structural_command
from harness.context import Context
from tests.support.helpers import make_skill, run_cli, structural


def test_version_prints_the_harness_version_and_exits_zero(tmp_path: Path) -> None:
    run = run_cli(["--version"], cwd=tmp_path)
    assert (run.code, run.stdout.strip()) == (0, f"skillscope {__version__}")


def test_help_lists_the_commands_and_exits_zero(tmp_path: Path) -> None:
    run = run_cli(["--help"], cwd=tmp_path)
    assert run.code == 0
    for command in ("structural", "list-skills", "template"):
        assert command in run.stdout


def test_an_unknown_command_is_a_usage_error_with_exit_2(tmp_path: Path) -> None:
    run = run_cli(["grade-everything"], cwd=tmp_path)
    assert run.code == 2
    assert "invalid choice" in run.stderr and run.stdout == ""


def test_no_command_at_all_is_a_usage_error(tmp_path: Path) -> None:
    assert run_cli([], cwd=tmp_path).code == 2


def test_an_unknown_flag_is_a_usage_error(tmp_path: Path) -> None:
    run = run_cli(["structural", "--no-such-flag"], cwd=tmp_path)
    assert run.code == 2 and "--no-such-flag" in run.stderr


def test_a_malformed_list_flag_is_exit_2_naming_the_flag(tmp_path: Path) -> None:
    make_skill(tmp_path, "demo")
    run = run_cli(["structural", "--repo", str(tmp_path), "--skill-files", '["a",'], cwd=tmp_path)
    assert run.code == 2
    assert run.stderr.startswith("error: --skill-files")


def test_an_internal_error_is_one_line_and_exit_3_never_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*_args, **_kwargs):
        raise RuntimeError("boom\nsecond line\n  third")

    monkeypatch.setattr(structural_command.catalog, "load", explode)
    make_skill(tmp_path, "demo")
    run = run_cli(["structural", "--repo", str(tmp_path)], cwd=tmp_path)
    assert run.code == 3
    assert len(run.stderr.strip().splitlines()) == 1
    assert "internal error (RuntimeError: boom second line third)" in run.stderr
    assert "Traceback" not in run.stderr + run.stdout


def test_a_dependency_missing_from_the_install_says_how_to_mend_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing(_name: str):
        raise ModuleNotFoundError("No module named 'snowballstemmer'", name="snowballstemmer")

    monkeypatch.setattr(cli, "load_command", missing)
    run = run_cli(["structural", "--repo", str(tmp_path)], cwd=tmp_path)
    assert run.code == 3
    assert len(run.stderr.strip().splitlines()) == 1
    assert "'snowballstemmer'" in run.stderr
    assert "pip install --force-reinstall skillscope-harness" in run.stderr
    assert "Traceback" not in run.stderr + run.stdout


def test_a_dependency_imported_mid_run_and_missing_says_how_to_mend_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The stemmer is imported on first use (the description-collision check), after the parser is built.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setitem(sys.modules, "snowballstemmer", None)
    for name in ("csv-cleaner", "pdf-reader"):
        make_skill(tmp_path, name)
    run = run_cli(["structural", "--repo", str(tmp_path), "--skills-dir", "*"], cwd=tmp_path)
    assert run.code == 3
    assert "'snowballstemmer'" in run.stderr and "pip install --force-reinstall" in run.stderr
    assert "internal error" not in run.stderr


def test_a_reader_that_goes_away_is_no_internal_error(tmp_path: Path, private_temp: Path) -> None:
    """`skillscope structural | head`: the closed pipe ends the run quietly (141), with no crash log
    (looked for in this test's own temporary folder: a parallel test may leave one in the system's)."""

    class ClosedPipe(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    make_skill(tmp_path, "demo")
    ctx = Context(environ={}, cwd=tmp_path, stdin=io.StringIO(), stdout=ClosedPipe(), stderr=io.StringIO())
    assert main(["structural", "--repo", str(tmp_path), "--output", str(tmp_path / "r.json")], ctx) == 141
    assert ctx.stderr.getvalue() == ""
    assert list(private_temp.glob("skillscope-crash-*")) == []


def test_the_command_summaries_are_each_commands_own_help() -> None:
    """`skillscope --help` lists the commands from cli.SUMMARIES, without importing them."""
    assert set(cli.SUMMARIES) == set(cli.COMMANDS)
    for name in cli.COMMANDS:
        assert cli.SUMMARIES[name] == cli.load_command(name).HELP, name


HELP_AND_VERSION = (
    "from harness.cli import main\n"
    "import io, contextlib\n"
    "for words in (['--help'], ['--version']):\n"
    "    with contextlib.redirect_stdout(io.StringIO()):\n"
    "        assert main(words) == 0\n"
)


@pytest.mark.parametrize(
    ("probe", "heavy"),
    [
        # What --help and --version load is what every pre-commit call pays for.
        pytest.param(
            HELP_AND_VERSION,
            ("harness.commands.", "harness.model", "yaml", "markdown_it", "jsonschema", "requests")
            + ("dataclasses", "tomllib"),
            id="help-and-version",
        ),
        # Every behavioral run pays for its command's imports before any case: the HTTP client and
        # server load when the key relay starts, the tripwire with --tripwire, the matrix with several
        # models, YAML with a file that needs it, routing's runner never.
        pytest.param(
            "import harness.commands.behavioral\n",
            ("requests", "urllib3", "http.server", "http.client", "socketserver", "yaml", "jsonschema")
            + ("markdown_it", "harness.behavioral.tripwire", "harness.behavioral.egress")
            + ("harness.behavioral.matrix", "harness.paid.matrix", "harness.routing.runner"),
            id="behavioral",
        ),
        # A behavioral report renders JUnit only where --junit asks for it.
        pytest.param("import harness.report.behavioral\n", ("harness.report.junit",), id="behavioral-report"),
    ],
)
def test_start_up_imports_no_heavy_module_it_does_not_need_yet(tmp_path: Path, probe: str, heavy) -> None:
    listed = f"import sys\n{probe}print(sorted(m for m in sys.modules if m.startswith({tuple(heavy)!r})))\n"
    done = subprocess.run([sys.executable, "-c", listed], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# What a pre-commit hook's structural run on an unchanged catalog does not use: the parsers (the parse
# memo answers), the block planner and section reader, the collision scoring (its memo answers), the
# security rules, other tools' eval readers, the ballast, the JUnit, SARIF and annotation renderers, the
# forked worker's pickling, and the random names a write once took from `secrets`.
WARM_STRUCTURAL_UNUSED = (
    ("markdown_it", "yaml", "jsonschema", "harness.markdown.block_plan", "harness.markdown.sections")
    + ("harness.routing.vectors", "harness.routing.terms", "harness.routing.scoring", "snowballstemmer")
    + ("harness.checks.security.pack", "harness.model.foreign", "harness.model.ballast")
    + ("harness.report.junit", "harness.report.sarif", "harness.report.github", "pickle", "secrets", "random")
)


def test_a_warm_structural_run_imports_no_module_it_does_not_use(tmp_path: Path) -> None:
    for name in ("alpha", "beta"):
        make_skill(
            tmp_path,
            name,
            machine="os: [Linux]\n",
            body=f"# Instructions\n\nSee [the notes](references/notes.md#usage) for {name}.\n",
            files={"references/notes.md": "# Notes\n\n## Usage\n\nBack to [the skill](../SKILL.md).\n"},
        )
    probe = (
        "import sys\nfrom harness.cli import main\n"
        f"code = main(['structural', '--repo', '.', '--output', {str(tmp_path / 'report.json')!r}])\n"
        f"print(code, sorted(m for m in sys.modules if m.startswith({WARM_STRUCTURAL_UNUSED!r})))\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    cold, warm = (
        subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env)
        for _ in range(2)
    )
    assert cold.returncode == 0, cold.stderr
    assert "markdown_it" in cold.stdout  # the first run parsed, so the second one reads the memo
    assert warm.stdout.splitlines()[-1] == "0 []", warm.stderr


# What a paid run's structural gate never runs (its options turn the listing, headroom and packaging
# checks off) and what only other kinds of run need: --scan's synthetic cases, a plugin suite's reader.
BEHAVIORAL_GATE_UNUSED = (
    ("harness.checks.headroom", "harness.checks.listing_budget", "harness.checks.packaging")
    + ("harness.model.listing", "harness.model.headroom", "harness.model.package")
    + ("harness.behavioral.scan", "harness.model.pluginsuite")
)


def test_a_behavioral_run_imports_no_check_its_gate_turns_off(tmp_path: Path) -> None:
    """A dry run passes the same gate as a paid one, before any agent starts (no CLI needed)."""
    make_skill(tmp_path / "repo", "alpha")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}  # outside the repo under test
    probe = (
        "import sys\nfrom harness.cli import main\n"
        "code = main(['behavioral', '--repo', '.', '--dry-run', '--format', 'json'])\n"
        f"print(code, sorted(m for m in sys.modules if m.startswith({BEHAVIORAL_GATE_UNUSED!r})))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path / "repo", env=env
    )
    assert done.stdout.splitlines()[-1] == "0 []", done.stderr


@pytest.mark.parametrize(
    ("words", "suggested"),
    [
        (["structual"], "did you mean structural?"),
        (["--verison"], "did you mean --version?"),
        (["structural", "--skill-fils", "x"], "did you mean --skill-files?"),
        (["structural", "--skill-files=x", "--docss=y"], "did you mean --docs?"),
        (["routing", "--routing-rooom", "all"], "did you mean --routing-room?"),
        (["routing", "--effort", "hgh"], "did you mean high?"),
        (
            ["structural", "catalog"],
            "name the repo's root with --repo catalog or its skills with --skills-dir 'catalog/*'",
        ),
    ],
)
def test_a_mistyped_command_flag_or_choice_names_the_one_it_resembles(
    tmp_path: Path, words, suggested
) -> None:
    run = run_cli(words, cwd=tmp_path)
    assert run.code == 2
    assert run.stderr.rstrip().endswith(suggested), run.stderr


def test_no_command_reads_a_prefix_of_a_flag_as_that_flag() -> None:
    """argparse's abbreviations read `list-skills --skill x` as `--skills-dir x` (an empty list, exit 0),
    and a flag typed short was recorded as the settings file's value. Every command's every flag, cut by
    its last letter where that still names it alone, is left unread instead."""
    parser = cli.build_parser()
    for name in cli.COMMANDS:
        command = cli.command_parser(parser, name)
        actions = [a for a in command._actions if any(o.startswith("--") for o in a.option_strings)]
        flags = [o for a in actions for o in a.option_strings if o.startswith("--")]
        for action in actions:
            flag = next(o for o in action.option_strings if o.startswith("--"))
            short = flag[:-1]
            if short in flags or sum(f.startswith(short) for f in flags) != 1:
                continue  # not an abbreviation argparse would have resolved
            defaults, seen = argparse.Namespace(), argparse.Namespace()
            with contextlib.suppress(SystemExit), contextlib.redirect_stderr(io.StringIO()):
                command.parse_known_args([], defaults)
            with contextlib.suppress(SystemExit), contextlib.redirect_stderr(io.StringIO()) as said:
                command.parse_known_args([short, "1"], seen)
            assert getattr(seen, action.dest, None) == getattr(defaults, action.dest, None), (name, short)
            assert f"argument {flag}" not in said.getvalue(), (name, short)


def test_an_unknown_flag_is_reported_under_the_commands_own_usage(tmp_path: Path) -> None:
    run = run_cli(["structural", "--nothing-like-it"], cwd=tmp_path)
    assert run.stderr.startswith("usage: skillscope structural")
    assert "did you mean" not in run.stderr


def test_a_glob_the_shell_expanded_counts_as_several_values(tmp_path: Path) -> None:
    """`--skills-dir skills/*` unquoted arrives as one word per folder; all of them are skills."""
    for name in ("alpha", "beta", "gamma"):
        make_skill(tmp_path / "skills", name)
    expanded = [f"skills/{name}" for name in ("alpha", "beta", "gamma")]
    (tmp_path / "docs").mkdir()
    for page in ("README.md", "docs/a.md"):
        (tmp_path / page).write_text("# Title\n")
    run, report = structural(tmp_path, "--skills-dir", *expanded, "--docs", "README.md", "docs/a.md")
    assert run.code == 0, run.stdout + run.stderr
    assert report["skills"] == ["alpha", "beta", "gamma"]


PROBE = """
import atexit, sys
from harness.cli.entry import program
atexit.register(lambda: print("torn down", file=sys.stderr, flush=True))
sys.argv = ["skillscope", *sys.argv[1:]]
program()
"""


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["structural", "--repo", "{root}", "--format", "json", "--output", "-"], 0),
        (["structural", "--repo", "{root}", "--no-such-flag"], 2),
    ],
)
def test_every_run_ends_as_python_ends_it_and_loses_no_output(
    tmp_path: Path, argv: list[str], code: int
) -> None:
    """One execution path: no run skips the interpreter's exit, so exit handlers (coverage, profilers,
    a debugger's) run after every command, and its whole output arrives."""
    make_skill(tmp_path, "demo")
    words = [word.format(root=tmp_path) for word in argv]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *words], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert done.returncode == code, done.stderr
    assert "torn down" in done.stderr
    if code == 0:
        report = json.loads(done.stdout)  # the whole report, however large the pipe's buffer
        assert report["command"] == "structural" and report["passed"] is True


def test_a_bounded_run_that_parsed_in_worker_processes_leaves_none_behind(tmp_path: Path) -> None:
    """The run itself ends its workers: a forked worker's command line is its parent's, and none may
    be left once the run has exited."""
    from harness.checks import references

    root = tmp_path / "many-skills"
    for number in range(2 * references.SKILLS_AHEAD + 1):  # enough for the worker pool to start
        make_skill(root, f"skill-{number:03d}")
    marker = str(tmp_path / "report.json")
    words = ["structural", "--repo", str(root), "--skills-dir", "*", "--output", marker]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *words], capture_output=True, text=True, cwd=root, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(Path(marker).read_text(encoding="utf-8"))["passed"] is True
    left = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if marker.encode() in cmdline.read_bytes():
                left.append(cmdline.parent.name)
        except OSError:
            continue  # a process that ended while we looked
    assert left == []


def test_a_structural_run_without_html_or_settings_loads_no_parser_for_them(tmp_path: Path) -> None:
    """html.parser and tomllib are imported on first use: most skills hold no HTML, and a repo without
    settings (or a pyproject.toml without [tool.skillscope]) has nothing to parse."""
    make_skill(tmp_path / "skills", "alpha")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    loaded = "[m for m in sys.modules if m in ('html.parser', 'tomllib', 'tomli')]"
    argv = ["structural", "--skills-dir", "skills/*", "--output", "r.json", "--format", "json"]
    assert exit_and_modules(tmp_path, argv, loaded) == "0 []"


def test_a_settings_key_of_another_command_imports_no_other_command(tmp_path: Path) -> None:
    """`skillscope init` writes routing-room = ["catalog"] into a catalog with partial coverage; refs
    takes no --routing-room, and telling another command's key from a misspelt one once imported every
    command (tune, sweep, history, the report pages): three times the CPU of the refs run itself."""
    make_skill(tmp_path / "skills", "alpha")
    (tmp_path / "skillscope.toml").write_text('skills-dir = ["skills/*"]\nrouting-room = ["catalog"]\n')
    loaded = (
        "sorted(m for m in sys.modules if m.startswith('harness.commands.') and m != 'harness.commands.refs')"
    )
    argv = ["refs", "--no-external", "--output", "r.json", "--format", "json"]
    assert exit_and_modules(tmp_path, argv, loaded) == "0 []"


def exit_and_modules(cwd: Path, argv: list[str], loaded: str) -> str:
    """`skillscope ARGV` run in a fresh interpreter in `cwd`: its exit code and the modules the
    expression `loaded` picks from sys.modules afterwards, as one printed line."""
    probe = f"import sys\nfrom harness.cli import main\ncode = main({argv!r})\nprint(code, {loaded})\n"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=cwd)
    assert done.stdout.strip(), done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_the_top_level_help_fits_an_80_column_terminal(tmp_path: Path, monkeypatch) -> None:
    """The description is printed as written (its blank line kept), so its own lines must fit."""
    monkeypatch.setenv("COLUMNS", "80")
    run = run_cli(["--help"], cwd=tmp_path)
    assert run.code == 0
    assert [line for line in run.stdout.splitlines() if len(line) > 80] == []
