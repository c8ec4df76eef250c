"""What the paid legs are handed, followed through the YAML: the API endpoint input reaches the command's
environment, the model input its --model, the harness wheel is built once per run and fetched by the
legs, and the result cache is restored and saved under a key of the harness version and the skills'
content, in a folder outside the checkout that the graded step names with --cache."""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness import cli
from harness.authoring import home
from harness.cli.flags import NOT_SETTINGS
from tests.support.yamlfiles import ACTION, ROOT, WORKFLOWS, jobs, load, triggers

PIPELINES = [p for p in WORKFLOWS if p.name in ("reusable.yml", "skill-evals.yml")]
pipelines = pytest.mark.parametrize("path", PIPELINES, ids=lambda p: p.name)
ACTION_USES = f"{home.repository()}@"
GRADED = {"routing", "behavioral", "compare"}
WHEELHOUSE = "${{ runner.temp }}/skillscope-wheels"
CACHE = "${{ runner.temp }}/skillscope-cache"


def _launcher():
    spec = importlib.util.spec_from_file_location("skillscope_launch_wiring", ROOT / "action" / "launch.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


launch = _launcher()


def action_steps(job: dict) -> list[dict]:
    return [s for s in job.get("steps") or [] if str(s.get("uses", "")).startswith(ACTION_USES)]


def graded_jobs(path: Path) -> dict[str, dict]:
    """Jobs whose action runs an agent; lexical routing ranks offline, with no endpoint or cache."""
    return {
        name: job
        for name, job in jobs(load(path)).items()
        if any(
            s["with"]["command"] in GRADED and "--engine lexical" not in str(s["with"].get("args", ""))
            for s in action_steps(job)
        )
    }


def action_env_for(input_name: str) -> str:
    """The variable the action's launch step maps one of its inputs onto."""
    (launch_step,) = [s for s in load(ACTION)["runs"]["steps"] if s.get("id") == "launch"]
    (variable,) = [k for k, v in launch_step["env"].items() if v == f"${{{{ inputs.{input_name} }}}}"]
    return variable


# ---------------------------------------------------------------- the API endpoint


@pipelines
def test_the_endpoint_input_reaches_every_graded_command_as_anthropic_base_url(path, tmp_path):
    declared = triggers(load(path))["workflow_call"]["inputs"]["api_base_url"]
    assert declared["type"] == "string" and declared["default"] == ""
    assert "api-base-url" in load(ACTION)["inputs"]
    variable = action_env_for("api-base-url")
    for name, job in graded_jobs(path).items():
        for step in action_steps(job):
            if step["with"]["command"] not in GRADED:
                continue
            assert step["with"].get("api-base-url") == "${{ inputs.api_base_url }}", name
            # What the workflow passes is what the launcher hands the command.
            child = launch.child_environment(
                {variable: "https://gateway.example/anthropic"}, "v1", tmp_path, "skills/*"
            )
            assert child["ANTHROPIC_BASE_URL"] == "https://gateway.example/anthropic"


def test_other_agents_endpoints_fit_the_same_input(tmp_path):
    variable = action_env_for("api-base-url")
    text = '{"ANTHROPIC_BASE_URL": "https://gw.example/a", "OPENAI_BASE_URL": "https://gw.example/o/v1"}'
    child = launch.child_environment({variable: text}, "v1", tmp_path, "")
    assert child["ANTHROPIC_BASE_URL"] == "https://gw.example/a"
    assert child["OPENAI_BASE_URL"] == "https://gw.example/o/v1"


def test_a_blank_endpoint_leaves_the_steps_own_environment_alone(tmp_path):
    variable = action_env_for("api-base-url")
    child = launch.child_environment(
        {variable: "", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}, "v1", tmp_path, ""
    )
    assert child["ANTHROPIC_BASE_URL"] == "http://127.0.0.1:9"


# ---------------------------------------------------------------- one wheel per run


@pipelines
def test_discover_builds_the_wheel_and_shares_it(path):
    discover = load(path)["jobs"]["discover"]
    assert all(s["with"]["wheelhouse"] == WHEELHOUSE for s in action_steps(discover))
    (upload,) = [s for s in discover["steps"] if s.get("name") == "Share the harness wheel with the legs"]
    assert upload["uses"].startswith("actions/upload-artifact@")
    assert upload["with"]["name"] == "skillscope-wheel" and upload["with"]["path"] == f"{WHEELHOUSE}/"


@pipelines
def test_every_leg_after_discover_fetches_the_wheel_before_running_the_action(path):
    legs = {name: job for name, job in jobs(load(path)).items() if "discover" in str(job.get("needs", ""))}
    legs = {name: job for name, job in legs.items() if action_steps(job)}
    assert legs, "no leg runs the action"
    for name, job in legs.items():
        names = [s.get("name") for s in job["steps"]]
        fetch = job["steps"][names.index("Fetch the harness wheel")]
        assert fetch["uses"].startswith("actions/download-artifact@")
        assert fetch["with"] == {"name": "skillscope-wheel", "path": WHEELHOUSE}
        assert fetch["continue-on-error"] is True, "a missing wheel only costs a build"
        first_action = job["steps"].index(action_steps(job)[0])
        assert names.index("Fetch the harness wheel") < first_action, name
        assert all(s["with"]["wheelhouse"] == WHEELHOUSE for s in action_steps(job)), name


def test_the_action_maps_the_wheelhouse_for_the_launcher():
    assert action_env_for("wheelhouse") == "SKILLSCOPE_WHEELHOUSE"


# ---------------------------------------------------------------- the result cache


@pipelines
def test_graded_legs_restore_and_save_the_result_cache(path):
    for name, job in graded_jobs(path).items():
        names = [s.get("name") for s in job["steps"]]
        restore = job["steps"][names.index("Restore the result cache")]
        save = job["steps"][names.index("Save the result cache")]
        graded = max(job["steps"].index(s) for s in action_steps(job))
        assert names.index("Restore the result cache") < graded < names.index("Save the result cache"), name
        assert restore["uses"].startswith("actions/cache/restore@") and save["uses"].startswith(
            "actions/cache/save@"
        )
        # Outside the checkout: a pull request's committed files are never restored over, nor read as, it.
        assert restore["with"]["path"] == CACHE == save["with"]["path"]
        assert not CACHE.startswith((".", "${{ github.workspace }}"))
        (graded_step,) = [s for s in action_steps(job) if s["with"]["command"] in GRADED]
        assert f"--cache '{CACHE}'" in graded_step["with"]["args"], name
        key = restore["with"]["key"]
        assert "needs.discover.outputs.skills_hash" in key and "runner.os" in key
        assert re.search(r"version", key), f"{name}: the key names the harness version"
        assert key.startswith(restore["with"]["restore-keys"].strip()), name
        assert save["with"]["key"] == "${{ steps.cache.outputs.cache-primary-key }}"
        # Harmless until the harness writes a cache: nothing to save, no warning. hashFiles sees only the
        # workspace, so a step looks for entries and says so.
        entries = job["steps"][names.index("Find new result cache entries")]
        assert names.index("Find new result cache entries") < names.index("Save the result cache")
        assert entries["env"]["CACHE_DIR"] == CACHE and "${{" not in entries["run"]
        assert "cache-hit != 'true'" in entries["if"] and "always()" in entries["if"]
        assert save["if"] == f"always() && steps.{entries['id']}.outputs.found == 'true'"


@pipelines
def test_the_entries_step_finds_entries_and_says_nothing_of_an_empty_folder(path, tmp_path):
    job = next(iter(graded_jobs(path).values()))
    (step,) = [s for s in job["steps"] if s.get("name") == "Find new result cache entries"]
    output = tmp_path / "output"

    def found(folder: Path) -> str:
        output.write_text("")
        env = {**os.environ, "CACHE_DIR": str(folder), "GITHUB_OUTPUT": str(output)}
        subprocess.run(["bash", "-e", "-c", step["run"]], env=env, check=True)
        return output.read_text()

    assert found(tmp_path / "missing") == ""
    (tmp_path / "cache" / "ab").mkdir(parents=True)
    (tmp_path / "cache" / "signing.key").write_text("k")
    assert found(tmp_path / "cache") == ""
    (tmp_path / "cache" / "ab" / f"{'ab' * 32}.json").write_text("{}")
    assert found(tmp_path / "cache") == "found=true\n"


def run_hash_step(path: Path, globs: str, cwd: Path, tmp_path: Path) -> str:
    (step,) = [s for s in load(path)["jobs"]["discover"]["steps"] if s.get("id") == "hash"]
    output = tmp_path / "hash-output"
    output.write_text("")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    env.update(GLOBS=globs, GITHUB_OUTPUT=str(output))
    done = subprocess.run(
        [sys.executable, "-c", step["run"]], env=env, cwd=cwd, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    (line,) = output.read_text().splitlines()
    name, _, value = line.partition("=")
    assert name == "skills_hash" and re.fullmatch(r"[0-9a-f]{16}", value)
    return value


@pipelines
def test_the_skills_hash_follows_the_skills_content_only(path, tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "examples" / "skills", repo / "skills")
    (repo / "README.md").write_text("# not a skill\n")
    first = run_hash_step(path, "skills/*", repo, tmp_path)
    assert run_hash_step(path, '["./skills/*"]', repo, tmp_path) == first
    (repo / "README.md").write_text("# still not a skill\n")
    (repo / ".skillscope" / "runs").mkdir(parents=True)
    (repo / ".skillscope" / "runs" / "routing.json").write_text("{}")
    assert run_hash_step(path, "skills/*", repo, tmp_path) == first
    reference = next((repo / "skills").glob("*/SKILL.md"))
    reference.write_text(reference.read_text() + "\nOne more line.\n")
    assert run_hash_step(path, "skills/*", repo, tmp_path) != first


# ---------------------------------------------------------------- the model


# A grader's mode choosing a value: `${{ inputs.routing == 'optional' && 'warnings' || 'errors' }}`.
BY_MODE = re.compile(r"\$\{\{ inputs\.(\w+) == 'optional' && '([^']*)' \|\| '([^']*)' \}\}")
# A flag passed only when its value holds something: `${{ V != '' && format('--x ''{0}''', V) || '' }}`,
# or `${{ V && format(...) || '' }}`; V is an input, the plan's model or a matrix value.
WHEN_GIVEN = re.compile(r"\$\{\{ ([^}]+?) && format\('(.*?)', ([^}]+?)\) \|\| '' \}\}")


def expand(text: str, values: dict[str, str]) -> str:
    """`text` with `${{ V }}` and `${{ V && format(...) || '' }}` evaluated for each V in `values`; an
    input `values` does not name is blank."""

    def when_given(match: re.Match) -> str:
        value = values.get(match[3], "" if match[3].startswith("inputs.") else None)
        if value is None:
            return match[0]
        return match[2].replace("''", "'").format(value) if value else ""

    text = WHEN_GIVEN.sub(when_given, text)
    for name, value in values.items():
        text = text.replace(f"${{{{ {name} }}}}", value)
    return text


def harness_args(
    args: str, command: str, model: str, modes: dict[str, str] | None = None, **inputs: str
) -> argparse.Namespace:
    """A step's `args` as the harness parses them, with the `model` input set to `model` and any other
    as `inputs` gives it (blank when unnamed), each grader in its mode from `modes` (default: required)
    and the matrix on copilot; a whole-token expression (discover's shared arguments) drops out, any
    other reads x."""
    chosen = modes or {}
    text = BY_MODE.sub(lambda m: m[2] if chosen.get(m[1]) == "optional" else m[3], args)
    # The select-driven pipeline plans the model (select --models gets `models || model`): with
    # `models` blank, the plan's model and each leg's are the `model` input.
    planned = ("fromJSON(needs.discover.outputs.plan).model", "matrix.model")
    values = {f"inputs.{name}": value for name, value in inputs.items()}
    values |= {"inputs.model": model, "matrix.agent": "copilot"} | dict.fromkeys(planned, model)
    text = expand(text, values)
    text = re.sub(r"(?<!\S)\$\{\{.*?\}\}(?!\S)", "", text)
    text = re.sub(r"\$\{\{.*?\}\}", "x", text)
    # The launcher splits the action's args like a shell and hands the words to the command.
    return cli.parse(cli.build_parser(only=command), [command, *shlex.split(text)])


@pipelines
@pytest.mark.parametrize("model", ["claude-sonnet-4-5", ""])
def test_the_model_input_reaches_every_agent_graded_command_as_its_model(path, model):
    declared = triggers(load(path))["workflow_call"]["inputs"]["model"]
    assert declared["type"] == "string" and declared["default"] == ""
    graded = graded_jobs(path)
    assert {"routing"} < set(graded), "routing and the behavioral legs take the model"
    for name, job in graded.items():
        for step in action_steps(job):
            command = step["with"]["command"]
            if command not in GRADED:  # the page of the run, rendered after it
                continue
            parsed = harness_args(step["with"]["args"], command, model)
            # Blank is each agent's own default: the harness sees no model at all.
            assert parsed.model == (model or None), name
            if command == "behavioral":
                assert parsed.judge_model is None, "the judge follows --model"


@pipelines
@pytest.mark.parametrize("negatives", ["eval/negatives.json", ""])
def test_a_blank_negatives_input_leaves_the_settings_negatives_in_force(path, negatives):
    """A blank input passes no --negatives, so the `negatives` of the repo's settings file (which init
    writes) apply; `--negatives ''` would replace them with none, and CI would route without them."""
    steps = [
        step
        for job in jobs(load(path)).values()
        for step in action_steps(job)
        if "inputs.negatives" in str(step["with"].get("args", ""))
    ]
    assert steps, "structural and the agent routing legs take the negatives input"
    for step in steps:
        args = step["with"]["args"]
        assert "--negatives '${{ inputs.negatives }}'" not in args
        parsed = harness_args(args, step["with"]["command"], "", negatives=negatives)
        assert parsed.negatives == ([negatives] if negatives else None), step.get("name")


# ---------------------------------------------------------------- inputs a settings file can also give

GIVEN = "from-the-input"


def runner_inputs(path: Path, **given: str) -> dict[str, str]:
    """Every input at its default, `given` overriding some, as the strings a runner sees."""
    declared = triggers(load(path))["workflow_call"]["inputs"]
    values = {name: spec.get("default", "") for name, spec in declared.items()} | given
    return {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in values.items()}


def run_args_step(job: dict, inputs: dict[str, str], tmp_path: Path) -> dict[str, str]:
    """The outputs of a job's `args` step (a `shell: python` script building its commands' flags), run
    on a dispatched event with its env from `inputs`; none when the job has no such step."""
    step = next((s for s in job["steps"] if s.get("id") == "args"), None)
    if step is None:
        return {}
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    for name, expression in step["env"].items():
        names = re.findall(r"inputs\.(\w+)", expression)  # `inputs.a || inputs.b`: the first not blank
        env[name] = next((inputs[n] for n in names if inputs[n]), "") if names else ""
    env["EVENT"] = "workflow_dispatch"
    output = tmp_path / "args-output"
    output.unlink(missing_ok=True)
    env.update(GITHUB_OUTPUT=str(output), RUNNER_TEMP=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-c", step["run"]], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    text = output.read_text(encoding="utf-8")
    blocks = re.findall(r"^(\w+)<<(\S+)\n(.*?)\n\2$", text, re.M | re.S)
    return {name: value for name, _, value in blocks} | dict(re.findall(r"^(\w+)=(.*)$", text, re.M))


def command_words(path: Path, inputs: dict[str, str], tmp_path: Path) -> dict[str, list[str]]:
    """Every action step's command and arguments, as the launcher splits them, with the workflow's
    inputs set to `inputs`, the plan's model what select plans from them, and discover's arguments
    built by its own script."""
    doc = load(path)
    built = {name: run_args_step(job, inputs, tmp_path) for name, job in jobs(doc).items()}
    discover = jobs(doc).get("discover", {}).get("outputs") or {}
    values = {f"inputs.{name}": value for name, value in inputs.items()}
    planned = inputs.get("models") or inputs.get("model", "")
    values |= dict.fromkeys(("fromJSON(needs.discover.outputs.plan).model", "matrix.model"), planned)
    for output, expression in discover.items():
        step_output = re.fullmatch(r"\$\{\{ steps\.args\.outputs\.(\w+) \}\}", expression)
        if step_output:
            values[f"needs.discover.outputs.{output}"] = built["discover"].get(step_output[1], "")
    words = {}
    for name, job in jobs(doc).items():
        own = {f"steps.args.outputs.{k}": v for k, v in built[name].items()}
        for index, step in enumerate(action_steps(job)):
            text = expand(str(step["with"].get("args", "")), values | own)
            text = re.sub(r"\$\{\{.*?\}\}", "x", text)
            words[f"{name}/{index}"] = [step["with"]["command"], *shlex.split(text)]
    return words


def values_of(command: list[str], flag: str) -> list[str]:
    """Every value `command` gives `flag`, as `--flag value` or `--flag=value`."""
    spaced = [word for before, word in zip(command, command[1:], strict=False) if before == flag]
    return spaced + [w.split("=", 1)[1] for w in command if w.startswith(f"{flag}=")]


def flags_holding(words: dict[str, list[str]], value: str) -> set[tuple[str, str]]:
    """(step, flag) for each flag whose value holds `value`."""
    return {
        (step, word.split("=", 1)[0])
        for step, command in words.items()
        for word in command
        if word.startswith("--") and any(value in v for v in values_of(command, word.split("=", 1)[0]))
    }


@pipelines
def test_an_input_the_settings_file_can_give_passes_its_flag_only_when_set(path, tmp_path):
    """A flag on the command line wins over the repo's settings file, so an input that becomes a flag
    a settings file can hold defaults to blank and, blank, passes no flag: the file's value (else the
    command's own default) applies. `--min-accuracy '1'` from a default would grade a catalog whose
    skillscope.toml sets 0.8 at 1, and `--model ''` would drop the file's model."""
    declared = triggers(load(path))["workflow_call"]["inputs"]
    at_default = command_words(path, runner_inputs(path), tmp_path)
    mapped = {}
    for name, spec in declared.items():
        if spec["type"] != "string":  # a boolean input always holds true or false: it cannot be blank
            continue
        shown = command_words(path, runner_inputs(path, **{name: GIVEN}), tmp_path)
        reached = {(s, f) for s, f in flags_holding(shown, GIVEN) if f.removeprefix("--") not in NOT_SETTINGS}
        if not reached:
            continue
        mapped[name] = {f for _, f in reached}
        assert spec.get("default", "") == "", (
            f"{name} defaults to {spec['default']!r}, over the settings file"
        )
        # A value the step passes whatever the input holds is its own (lexical routing's --min-accuracy 0).
        still = {(s, f) for s, f in reached if set(values_of(at_default[s], f)) - set(values_of(shown[s], f))}
        assert not still, f"{name} blank still passes {sorted(still)}"
    # Not vacuous: the inputs each pipeline is known to turn into settings flags.
    assert {"min_accuracy", "model", "negatives"} <= set(mapped), mapped
    if path.name == "skill-evals.yml":
        assert {"behavior_runner", "behavior_os", "agents", "models", "routing_room"} <= set(mapped), mapped


def test_the_plan_takes_the_models_input_else_the_model_input():
    """skill-evals plans its legs per model: select gets --models from `models`, else `model`."""
    path = next(p for p in PIPELINES if p.name == "skill-evals.yml")
    declared = triggers(load(path))["workflow_call"]["inputs"]["models"]
    assert declared["type"] == "string" and declared["default"] == ""
    steps = jobs(load(path))["discover"]["steps"]
    planning = next(s for s in steps if "MODELS" in (s.get("env") or {}))
    assert planning["env"]["MODELS"] == "${{ inputs.models || inputs.model }}"
    assert 'flag("--models", "MODELS")' in planning["run"]


def test_the_lexical_ranking_takes_no_model():
    routing = jobs(load(next(p for p in PIPELINES if p.name == "skill-evals.yml")))["routing-lexical"]
    (step,) = action_steps(routing)
    assert "inputs.model" not in step["with"]["args"]  # --engine lexical refuses --model


# ---------------------------------------------------------------- what the artifact holds


@pipelines
def test_every_agent_leg_keeps_its_logs_and_renders_its_report_as_a_page(path):
    """Each routing and behavioral leg keeps the agents' logs beside its report, and a step after it
    writes the report's page (skillscope show --html) into the uploaded folder. The page is a reading
    aid: it may fail without failing the leg, and it holds no secret."""
    legs = 0
    for name, job in graded_jobs(path).items():
        steps = job["steps"]
        for index, step in enumerate(steps):
            command = str(step.get("with", {}).get("command", ""))
            if not str(step.get("uses", "")).startswith(ACTION_USES) or command not in (
                "routing",
                "behavioral",
            ):
                continue
            legs += 1
            graded = harness_args(step["with"]["args"], command, "m")
            assert graded.keep_logs == "skillscope-reports/logs", name
            page = steps[index + 1]
            assert page["with"]["command"] == "show" and page["uses"] == step["uses"], name
            shown = harness_args(page["with"]["args"], "show", "m")
            assert shown.logs == graded.output and shown.html == graded.output.removesuffix(".json") + ".html"
            assert page["continue-on-error"] is True and "always()" in page["if"], name
            assert "secrets." not in str(page) and page["with"]["wheelhouse"] == WHEELHOUSE, name
            for key in ("version", "skill", "skills"):  # the harness the leg ran
                assert page["with"].get(key) == step["with"].get(key), (name, key)
            assert page.get("env", {}).get("SKILLSCOPE_DEFAULT_VERSION") == step.get("env", {}).get(
                "SKILLSCOPE_DEFAULT_VERSION"
            ), name
            upload = next(
                s for s in steps[index:] if str(s.get("uses", "")).startswith("actions/upload-artifact")
            )
            assert upload["with"]["path"].rstrip("/") == "skillscope-reports", name
    assert legs >= 2


@pytest.mark.parametrize("mode", ["required", "optional"])
def test_an_optional_grader_annotates_warnings_and_a_required_one_errors(mode):
    """An optional leg's failing cases are reported, not enforced: no red ::error on the pull request's
    files. The harness is told so by --annotations; its exit status (the leg's outcome) is unchanged."""
    path = ROOT / ".github" / "workflows" / "reusable.yml"
    found = {}
    for name, job in jobs(load(path)).items():
        for step in action_steps(job):
            if step.get("id") == "grade":
                command = step["with"]["command"]
                parsed = harness_args(step["with"]["args"], command, "", {name: mode})
                found[name] = parsed.annotations
    expected = "warnings" if mode == "optional" else "errors"
    assert found == {"structural": expected, "routing": expected, "behavioral": expected, "compare": None}
