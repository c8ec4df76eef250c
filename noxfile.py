"""skillscope pipelines and this repo's own chores.

Pipeline sessions (structural, refs, routing, behavioral, select) install the
harness at a pinned version into their venv and run it against the repo nox was
invoked from; anything after `--` is passed to `skillscope <command>`.

Version: $SKILLSCOPE_VERSION (a git ref of $SKILLSCOPE_SOURCE, default this
checkout's repository; a PEP 440 version, meaning its tag v<version> there;
skillscope-harness==X from the package index; or a local path) -> for behavioral
of one --skill, that skill's `skillscope_version` pin -> this checkout. An
unchanged version is not reinstalled.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path

import nox

HERE = Path(__file__).resolve().parent
# The agent CLIs the tests drive, each pinned once: package, version, executable name.
AGENT_PINS = json.loads((HERE / "harness" / "data" / "agents.json").read_text(encoding="utf-8"))
PYTHONS = ["3.10", "3.11", "3.12", "3.13"]

nox.options.sessions = ["lint", "tests"]
nox.options.reuse_venv = "yes"


def _launcher():
    # The action's launcher owns version resolution; loading it by path keeps one copy of the rules.
    spec = importlib.util.spec_from_file_location("skillscope_launch", HERE / "action" / "launch.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _install_harness(session: nox.Session, skill: str | None = None) -> None:
    launch = _launcher()
    repo = _repo_under_test(session)
    version, origin = launch.resolve_version(  # $SKILLSCOPE_VERSION first, read by it
        repo=repo,
        skill=skill,
        skills=_flag_value(list(session.posargs), "--skills-dir") or os.environ.get("SKILLSCOPE_SKILLS"),
    )
    spec = launch.install_spec(
        version, source=os.environ.get("SKILLSCOPE_SOURCE") or str(HERE), default=str(HERE)
    )
    # The venv is reused: install only when what the spec names has changed since the last call.
    env_dir, key = Path(session.virtualenv.location), launch.install_key(spec)
    if launch.is_installed(env_dir, key):
        session.log(f"skillscope from {spec} is already installed")
    else:
        if version is not None:
            # Said before pip runs: a pin that names no release must be traced to the file holding it.
            session.log(f"skillscope {version}, from {origin}")
        session.install(spec)
        launch.mark_installed(env_dir, key)
    # Logged, not printed: a select plan must be the only line on stdout.
    session.log(str(session.run("skillscope", "--version", silent=True)).strip())


def _repo_under_test(session: nox.Session) -> str:
    """--repo if given, else the git checkout holding the directory nox was invoked from."""
    explicit = _flag_value(list(session.posargs), "--repo")
    if explicit:
        return explicit
    start = Path(session.invoked_from).resolve()
    return str(next((d for d in (start, *start.parents) if (d / ".git").exists()), start))


def _pipeline(session: nox.Session, command: str, skill: str | None = None) -> None:
    _install_harness(session, skill)
    args = list(session.posargs)
    # Run where nox was invoked: the CLI then finds the repo root and default skill globs itself.
    session.chdir(session.invoked_from)
    # stdin is inherited (select --changed reads paths from it); stderr stays apart from stdout.
    session.run("skillscope", command, *args, stderr=None)


def _flag_value(posargs: list[str], flag: str) -> str | None:
    """The value after `flag` in the session arguments (`--flag V` or `--flag=V`)."""
    for index, arg in enumerate(posargs):
        if arg == flag and index + 1 < len(posargs):
            return posargs[index + 1]
        if arg.startswith(flag + "="):
            return arg.split("=", 1)[1]
    return None


@nox.session
def structural(session: nox.Session) -> None:
    """Check skill format, datasets, policy files and internal links (offline, free)."""
    _pipeline(session, "structural")


@nox.session
def refs(session: nox.Session) -> None:
    """Check internal links and anchors, and external URLs unless --no-external."""
    _pipeline(session, "refs")


@nox.session
def routing(session: nox.Session) -> None:
    """Grade which skill each prompt fires: the room in claude, or ranked offline with --engine lexical."""
    _pipeline(session, "routing")


@nox.session
def behavioral(session: nox.Session) -> None:
    """Run each behavioral case end to end and grade what the agent did (honours a skill's pin)."""
    _pipeline(session, "behavioral", skill=_flag_value(list(session.posargs), "--skill"))


@nox.session
def compare(session: nox.Session) -> None:
    """Compare two versions of a skill (or with and without it), or two reports: regressions, improvements."""
    _pipeline(session, "compare")


@nox.session
def select(session: nox.Session) -> None:
    """Print the CI plan for a change as one line of JSON (changed paths on stdin with --changed)."""
    _pipeline(session, "select")


def _ensure_agent(session: nox.Session, name: str) -> str:
    """One pinned agent CLI the integration tests drive, installed from the npm registry once;
    $SKILLSCOPE_TEST_<NAME> points at an installed one instead."""
    explicit = os.environ.get(f"SKILLSCOPE_TEST_{name.upper()}")
    if explicit:
        return explicit
    pin = AGENT_PINS[name]
    prefix = HERE / ".nox" / "agents" / f"{name}-{pin['version']}"
    binary = prefix / "node_modules" / ".bin" / pin["bin"]
    if not binary.exists():
        session.run(
            "npm",
            "install",
            "--no-audit",
            "--no-fund",
            "--prefix",
            str(prefix),
            f"{pin['package']}@{pin['version']}",
            external=True,
        )
    return str(binary)


# What the whole suite needs beside Python, each with what needs it and how to install it (Debian's
# packages; CI installs them in .ci/run). The fast lane (`-m "not cli"`) needs none of them.
PREREQUISITES = (
    ("bwrap", "the agent CLIs' shell sandbox", "apt-get install bubblewrap"),
    ("socat", "the agent CLIs' shell sandbox", "apt-get install socat"),
    ("git", "the repos the tests build", "apt-get install git"),
)
CHROMIUM = "/usr/bin/chromium"  # tests/support/browser.py's default; $SKILLSCOPE_TEST_CHROMIUM names another


def _missing_prerequisite() -> str | None:
    """One sentence naming the first tool the suite needs that this machine lacks, and how to get it."""
    for tool, why, install in PREREQUISITES:
        if shutil.which(tool) is None:
            return f"`{tool}` is not on PATH ({why} needs it): {install}, then run the tests again"
    chromium = os.environ.get("SKILLSCOPE_TEST_CHROMIUM", CHROMIUM)
    if not Path(chromium).is_file():
        return (
            f"Chromium is not at {chromium} (the report page tests drive it): apt-get install chromium, "
            "or set SKILLSCOPE_TEST_CHROMIUM to its path"
        )
    unset = [name for name in AGENT_PINS if not os.environ.get(f"SKILLSCOPE_TEST_{name.upper()}")]
    if unset and shutil.which("npm") is None:
        return (
            "`npm` is not on PATH (the session installs the pinned agent CLIs with it): install Node.js "
            "and npm (apt-get install nodejs npm), or set SKILLSCOPE_TEST_<NAME> to each installed CLI"
        )
    return None


def _offline_pip(session: nox.Session) -> dict[str, str]:
    """The packages the tests' own installs take (the launcher's and nox's venvs, pre-commit's hook
    environment: the harness's pinned dependencies and its build backend), fetched now into a folder
    that every pip the tests start then reads instead of the package index: no test needs the network."""
    wheelhouse = str(Path(session.virtualenv.location).resolve() / "wheelhouse")
    backend = _pin_of(HERE / "requirements-dev.txt", "setuptools")
    session.run(
        "pip", "download", "--quiet", "--dest", wheelhouse, "-r", str(HERE / "requirements.txt"), backend
    )
    return {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": wheelhouse}


def _pin_of(requirements: Path, name: str) -> str:
    """The line of `requirements` that pins `name` (`name==version`), without its comment."""
    for line in requirements.read_text(encoding="utf-8").splitlines():
        if line.startswith(f"{name}=="):
            return line.split("#", 1)[0].strip()
    raise ValueError(f"{requirements.name} pins no {name}")


def suite_arguments(posargs: list[str]) -> list[str]:
    """pytest's arguments: the user's, else `-q`. The benchmark scripts' small runs (`-m bench`) check
    benchmarks/, not the harness: they run only when a `-m` asks for them, as CI's lane of their own."""
    args = posargs or ["-q"]
    return args if _flag_value(args, "-m") is not None else ["-m", "not bench", *args]


def _fast_lane(posargs: list[str]) -> bool:
    """The run selects only the fast lane (`-m "not cli"`), which starts no agent CLI or browser."""
    return (_flag_value(posargs, "-m") or "").strip() == "not cli"


@nox.session
def tests(session: nox.Session) -> None:
    """Run this repo's test suite against the pinned agent CLIs and scripted local model APIs
    (checks bubblewrap, socat, git, Chromium and npm first; `-- -m "not cli"` is the fast lane,
    `-- -m bench` runs each script in benchmarks/ at a small size)."""
    fast = _fast_lane(list(session.posargs))
    missing = None if fast else _missing_prerequisite()
    if missing:
        session.error(missing)
    session.install("-r", "requirements-dev.txt")  # ripgrep among them: OpenCode's skill tool needs rg
    session.install("-e", ".")
    env: dict[str, str] = {}
    if not fast:
        env.update({f"SKILLSCOPE_TEST_{n.upper()}": _ensure_agent(session, n) for n in AGENT_PINS})
        env.update(_offline_pip(session))
    # pytest caches each test module's rewritten assertions beside it, even where the environment
    # turns Python's bytecode cache off: rewriting them again costs every worker seconds at collection.
    env["PYTHONDONTWRITEBYTECODE"] = ""
    # One worker per core; a module whose fixtures build something once keeps to one worker
    # (xdist_group). Arguments after `--` come later, so `-n 0` there runs the suite in one process.
    session.run(
        "pytest", "-n", "auto", "--dist", "loadgroup", *suite_arguments(list(session.posargs)), env=env
    )


# Strict: a broken link or anchor between pages fails. Never --quiet: it drops the warnings strict counts,
# and the build passes with them (tests/test_docs_build.py).
MKDOCS_BUILD = ("mkdocs", "build", "--strict")
MKDOCS_ENV = {"NO_MKDOCS_2_WARNING": "1"}  # mkdocs-material's banner about its successor, on every build


def _build_docs(session: nox.Session) -> None:
    # site/ is gitignored, outside the tracked tree.
    session.run(*MKDOCS_BUILD, "--config-file", str(HERE / "mkdocs.yml"), env=MKDOCS_ENV)


@nox.session
def docs(session: nox.Session) -> None:
    """Build the documentation site from docs/ into site/, strictly (broken links and anchors fail)."""
    session.install("-r", "requirements-dev.txt")
    _build_docs(session)


@nox.session
def screenshots(session: nox.Session) -> None:
    """Shoot each report page kind into docs/images/ from real runs (the claude CLI named by
    SKILLSCOPE_TEST_CLAUDE against the scripted API) in Debian's Chromium."""
    session.install("-r", "requirements-dev.txt")
    session.install("-e", ".")
    session.run("python", str(HERE / "benchmarks" / "page_screenshots.py"), *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff and mypy over the code; actionlint and GitHub schemas over workflows and action.yml; the docs."""
    session.install("-r", "requirements-dev.txt")
    code = ("harness", "tests", "benchmarks", "noxfile.py", "tasks.py", "action", "mkdocs_hooks.py")
    session.run("ruff", "check", *code)
    session.run("ruff", "format", "--check", *code)
    session.run("mypy")  # the harness, as pyproject.toml's [tool.mypy] configures it
    workflows = sorted(str(p) for p in HERE.glob(".github/workflows/*.yml"))
    examples = sorted(str(p) for p in HERE.glob("examples/workflows/*.yml"))
    if workflows or examples:
        session.run("actionlint", *workflows, *examples)
        session.run("check-jsonschema", "--builtin-schema", "vendor.github-workflows", *workflows, *examples)
    if (HERE / "action.yml").exists():
        session.run("check-jsonschema", "--builtin-schema", "vendor.github-actions", "action.yml")
    _build_docs(session)
