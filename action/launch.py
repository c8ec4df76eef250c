"""Resolve a skillscope version, install it into a venv, run one command with it.

This is the whole of the composite action's logic, and it is deliberately
standard library only: it imports nothing from ``harness``, so the launcher
at any ``uses:`` ref can install and run a harness version newer (or older)
than itself. The noxfile loads it by path for the same resolution rules.

Which version runs, first non-empty wins:

1. the ``version`` input (``SKILLSCOPE_REQUESTED``);
2. ``$SKILLSCOPE_VERSION``;
3. ``skillscope_version`` at the top of ``<skill>/evals/evals.json`` for the
   skill(s) named by the ``skill`` input, found through the ``skills`` globs;
4. ``$SKILLSCOPE_DEFAULT_VERSION``, a caller's fallback that a skill's pin
   overrides (the reusable workflow maps its ``version`` input here for
   behavioral legs, so a pinned skill keeps its pin);
5. the action's own checkout (``$SKILLSCOPE_ACTION_PATH``), reported as the
   action's ref (``$SKILLSCOPE_ACTION_REF``) or, without one, as its path, so
   that whatever the command echoes (``select`` puts it in its plan) can be
   handed back to this launcher and installs the same thing.

What a version means:

- a local path (absolute, or starting with ``.`` or ``~``) -> ``pip install PATH``;
- a PEP 440 release such as ``0.2.0`` or ``0.2.0rc1`` -> the git tag ``v0.2.0``
  of the source, never a bare name on a package index (the name ``skillscope``
  there belongs to an unrelated project);
- ``skillscope-harness==0.2.0`` -> that release from the package index, opt-in
  and only under this project's own distribution name;
- anything else is a git ref of ``$SKILLSCOPE_SOURCE`` (a local repository
  path, a git URL, or ``owner/repo`` on ``$GITHUB_SERVER_URL``) -> pip installs
  ``git+<source>@<ref>``. Without ``$SKILLSCOPE_SOURCE`` the source is the
  repository the action was used from (``$SKILLSCOPE_ACTION_REPOSITORY``), else
  the project's home: the ``Source`` URL of ``[project.urls]`` in the
  ``pyproject.toml`` beside this launcher, where the home is declared once.

Inputs arrive as environment variables (the action maps ``inputs.*`` onto
them); outputs ``version`` and ``stdout`` (the last non-empty line the
command printed) go to ``$GITHUB_OUTPUT``. The exit code is the command's;
a problem before the command starts (a bad version, a failed install) is 2.

Also read: ``$SKILLSCOPE_VENVS`` (where venvs go; default ``$RUNNER_TEMP``),
``$SKILLSCOPE_PIP_ARGS`` (extra ``pip install`` arguments, shell-quoted; when a
wheel is built, those of them ``pip wheel`` takes too, see ``BUILD_OPTIONS``,
go to the build as well),
``$SKILLSCOPE_WHEELHOUSE`` (a directory holding the harness wheel of each
version, built there when missing, so the legs of one run build it once) and
``$SKILLSCOPE_API_BASE_URL`` (the model API endpoint(s), see ``endpoints``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import uuid
import venv
from collections.abc import Iterable, Mapping, Sequence
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "skillscope-harness"
PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def declared_home(pyproject: Path) -> str | None:
    """The ``Source`` URL of ``[project.urls]`` in ``pyproject``, read line by line: Python 3.10
    has no TOML parser, and this launcher installs nothing before it knows what to install."""
    try:
        text = pyproject.read_text(encoding="utf-8")
    except OSError:
        return None
    table = None
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("["):
            table = line.replace(" ", "")
            continue
        entry = re.match(r"""^["']?Source["']?\s*=\s*["']([^"']+)["']$""", line)
        if table == "[project.urls]" and entry:
            return entry.group(1)
    return None


# Where a version that names no source is installed from; None only in a copy of this file alone.
DEFAULT_SOURCE = declared_home(PYPROJECT)

# A git ref we are willing to hand to pip and git: no whitespace, no shell or URL
# metacharacters, no `..`, no leading dash (it would read as an option).
_REF = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._/+-]*$")
# A PEP 440 public release with at least one dot, so that a hex commit id (no dots)
# is never mistaken for a version: 0.2, 0.2.0, 1.0.0rc1, 1.2.post1, 2.0.dev3.
_PEP440 = re.compile(r"^\d+(\.\d+)+((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?$")
# An explicit index requirement: the only form that reaches a package index, with an exact version.
_INDEX = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)$")
# A commit id, abbreviated or whole: what it installs never changes.
_COMMIT = re.compile(r"^[0-9a-f]{7,40}$")
INSTALLED_MARKER = ".skillscope-installed"
_PATHLIKE = ("/", "./", "../", ".\\", "..\\", "~")


# The endpoint variable a bare URL sets: the default agent's. Other agents' variables
# (OPENAI_BASE_URL, GOOGLE_GEMINI_BASE_URL, ...) are named in the JSON form.
DEFAULT_ENDPOINT = "ANTHROPIC_BASE_URL"
_ENDPOINT_NAME = re.compile(r"^[A-Z][A-Z0-9_]*_BASE_URL$")
_URL = re.compile(r"^https?://[^\s/?#]+\S*$")

# Commands whose stdout is data for the next step; they get no step-summary line.
_MACHINE_COMMANDS: Iterable[str] = frozenset({"select", "list-skills", "template", "--version"})


class LaunchError(Exception):
    """A problem the user can fix; printed as `error: ...`, exit code 2."""


# ---------------------------------------------------------------- resolution


def split_list(text: str | None) -> list[str]:
    """A list input: a JSON array, or items separated by commas and/or newlines."""
    if not text or not text.strip():
        return []
    text = text.strip()
    if text.startswith("["):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LaunchError(f"invalid JSON list {text!r}: {exc.msg}") from None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise LaunchError(f"expected a JSON array of strings, got {text!r}")
        return [v.strip() for v in value if v.strip()]
    return [part.strip() for part in re.split(r"[,\n]", text) if part.strip()]


def skill_pin(repo: str | os.PathLike, skill: str, skills: str | None = None) -> str | None:
    """The `skillscope_version` pinned by one skill's evals.json, or None.

    The skill is found by directory name among the directories the `skills`
    globs match (default: every directory at the repo root), or by its
    root-relative path. An unreadable or pin-less dataset has no pin.
    """
    root = Path(repo)
    candidates = []
    if "/" in skill.strip("/"):
        candidates.append(root / skill)
    for pattern in split_list(skills) or settings_list(root, "skills-dir") or ["*"]:
        pattern = pattern.removeprefix("./").strip("/")
        if pattern in ("", "."):
            continue
        candidates += [hit for hit in sorted(root.glob(pattern)) if hit.name == Path(skill).name]
    for directory in candidates:
        dataset = directory / "evals" / "evals.json"
        try:
            data = json.loads(dataset.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        pin = data.get("skillscope_version") if isinstance(data, dict) else None
        if isinstance(pin, str) and pin.strip():
            return pin.strip()
    return None


def settings_list(repo: Path, key: str) -> list[str]:
    """A list key of the repo's skillscope settings (skillscope.toml, else pyproject's
    [tool.skillscope]), the file the harness reads too; empty without one or without tomllib (3.10)."""
    try:
        import tomllib
    except ModuleNotFoundError:
        return []
    for name, table in (("skillscope.toml", ()), ("pyproject.toml", ("tool", "skillscope"))):
        try:
            data = tomllib.loads((repo / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for part in table:
            data = data.get(part, {}) if isinstance(data, dict) else {}
        value = data.get(key) if isinstance(data, dict) else None
        if isinstance(value, str):
            return split_list(value)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return value
    return []


def resolve_version(
    explicit: str | None = None,
    repo: str | os.PathLike = ".",
    skill: str | None = None,
    skills: str | None = None,
    environ: Mapping[str, str] | None = None,
    default: str | None = None,
) -> tuple[str | None, str]:
    """The version to run: explicit -> $SKILLSCOPE_VERSION -> the skill's pin -> default, and where it
    came from, in the words of what the user sets (an install that fails must say which input or file
    to change).

    `skill` may name several skills (a comma list); their pins must then agree. The version is None
    when nothing names one and no default is given; the caller installs its own checkout then.
    """
    environ = os.environ if environ is None else environ
    for value, origin in (
        (explicit, "the `version` input"),
        (environ.get("SKILLSCOPE_VERSION"), "$SKILLSCOPE_VERSION"),
    ):
        if value and value.strip():
            return value.strip(), origin
    names = split_list(skill)
    pins = {name: skill_pin(repo, name, skills) for name in names}
    distinct = sorted({pin for pin in pins.values() if pin})
    if len(distinct) > 1:
        listed = ", ".join(f"{name}={pin}" for name, pin in pins.items() if pin)
        raise LaunchError(
            f"the skills pin different skillscope versions ({listed}); run them in separate "
            "steps, or pass the `version` input to pick one."
        )
    if distinct:
        pinned = ", ".join(name for name, pin in pins.items() if pin)
        return distinct[0], f"the skillscope_version pin in evals/evals.json of {pinned}"
    if default and default.strip():
        return default.strip(), "$SKILLSCOPE_DEFAULT_VERSION"
    return None, "the action's own checkout"


def kind_of(version: str) -> str:
    """'path', 'release', 'index' or 'ref' for a version string (see the module docstring)."""
    if os.path.isabs(version) or version.startswith(_PATHLIKE):
        return "path"
    if _PEP440.match(version):
        return "release"
    index = _INDEX.match(version)
    if index:
        return _index_kind(*index.groups())
    if _REF.match(version) and ".." not in version and not version.endswith((".lock", "/")):
        return "ref"
    raise LaunchError(
        f"{version!r} is not a version skillscope can install: expected a git ref (a tag, "
        "branch or commit), a release such as 0.2.0 (its tag v0.2.0), "
        f"{DISTRIBUTION}==0.2.0 from the package index, or a local path starting with ./ or /."
    )


def _index_kind(name: str, release: str) -> str:
    """A `name==X` version is accepted only for this project's distribution and a PEP 440 release."""
    if re.sub(r"[-_.]+", "-", name).lower() != DISTRIBUTION:
        raise LaunchError(
            f"{name}=={release} names another project on the package index; skillscope installs "
            f"from an index only as {DISTRIBUTION}=={release}, or pass the release alone ({release}) "
            f"to install the git tag v{release}."
        )
    if not _PEP440.match(release):
        raise LaunchError(f"{name}=={release}: {release!r} is not a release such as 0.2.0.")
    return "index"


def source_url(source: str | None, environ: Mapping[str, str] | None = None) -> str:
    """A pip-installable git URL for SKILLSCOPE_SOURCE: a local repo, a URL, or owner/repo."""
    environ = os.environ if environ is None else environ
    source = (
        (source or "").strip()
        or environ.get("SKILLSCOPE_ACTION_REPOSITORY")
        or environ.get("GITHUB_ACTION_REPOSITORY")
        or DEFAULT_SOURCE
    )
    if not source:
        raise LaunchError(
            f"no source to install from: {PYPROJECT} declares no Source URL; set SKILLSCOPE_SOURCE "
            "to a git URL, owner/repo, or a local clone."
        )
    if source.startswith("git+"):
        return source
    if re.match(r"^[a-z][a-z0-9+.-]*://", source):
        return f"git+{source}"
    local = Path(source).expanduser()
    if local.is_dir() or os.path.isabs(source) or source.startswith(_PATHLIKE):
        return f"git+{local.resolve().as_uri()}"
    if re.match(r"^[\w.-]+/[\w.-]+$", source):
        server = environ.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/")
        return f"git+{server}/{source}.git"
    raise LaunchError(
        f"SKILLSCOPE_SOURCE {source!r} is neither a local repository, a git URL, nor owner/repo."
    )


def install_spec(
    version: str | None,
    source: str | None = None,
    default: str | None = None,
    environ: Mapping[str, str] | None = None,
) -> str:
    """One pip requirement that installs `version` (or `default`, a local path, when it is None)."""
    if not version:
        if not default:
            raise LaunchError(
                "no skillscope version to run: pass the `version` input, set "
                "SKILLSCOPE_VERSION, or pin skillscope_version in the skill's evals.json."
            )
        return str(Path(default).expanduser().resolve())
    kind = kind_of(version)
    if kind == "path":
        path = Path(version).expanduser().resolve()
        if not (path / "pyproject.toml").is_file():
            raise LaunchError(f"version {version!r} is a path, but {path} holds no pyproject.toml.")
        return str(path)
    if kind == "index":
        return f"{DISTRIBUTION}=={version.split('==', 1)[1]}"
    if kind == "release":
        version = f"v{version}"  # a release is its tag in the source; no index is asked by a bare name
    # The bare `git+URL@ref` form: older pips reject `name @ git+file:...@ref` as a requirement.
    return f"{source_url(source, environ)}@{version}"


def endpoints(text: str | None) -> dict[str, str]:
    """The `api-base-url` input as environment variables for the command.

    A URL is the default agent's endpoint (ANTHROPIC_BASE_URL); a JSON object maps
    endpoint variables, whose names end in _BASE_URL, to URLs, one per agent.
    """
    if not text or not text.strip():
        return {}
    text = text.strip()
    if not text.startswith("{"):
        return {DEFAULT_ENDPOINT: _endpoint_url(DEFAULT_ENDPOINT, text)}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LaunchError(
            f"the `api-base-url` input is not valid JSON ({exc.msg}); pass a URL, or an object "
            'such as {"ANTHROPIC_BASE_URL": "https://gateway.example/anthropic"}.'
        ) from None
    unknown = [name for name in value if not _ENDPOINT_NAME.match(name)]
    if unknown:
        raise LaunchError(
            f"the `api-base-url` input names {', '.join(unknown)}, which is not an endpoint "
            "variable; use names ending in _BASE_URL, such as ANTHROPIC_BASE_URL or OPENAI_BASE_URL."
        )
    return {name: _endpoint_url(name, url) for name, url in value.items()}


def _endpoint_url(name: str, url: object) -> str:
    if not isinstance(url, str) or not _URL.match(url.strip()):
        raise LaunchError(
            f"the `api-base-url` input gives {name} {url!r}, which is not an http(s) URL; pass one "
            "such as https://gateway.example/anthropic."
        )
    return url.strip()


# ---------------------------------------------------------------- install and run


def venv_dir(spec: str, parent: str | os.PathLike) -> Path:
    """One venv per requirement, so two steps at the same version in a job share it."""
    digest = hashlib.sha256(spec.encode()).hexdigest()[:12]
    return Path(parent) / f"skillscope-{digest}"


def executable(env_dir: Path, name: str) -> Path:
    scripts = env_dir / ("Scripts" if os.name == "nt" else "bin")
    return scripts / (f"{name}.exe" if os.name == "nt" else name)


def install_key(spec: str) -> str | None:
    """What `spec` installs right now, so an unchanged install is skipped; None when that is unknowable."""
    if _INDEX.match(spec):
        return spec  # an exact release
    if spec.startswith("git+"):
        url, _, ref = spec[len("git+") :].rpartition("@")
        commit = ref if _COMMIT.match(ref) else _remote_commit(url, ref)
        return f"{spec} {commit}" if commit else None
    return _tree_key(Path(spec))


def _remote_commit(url: str, ref: str) -> str | None:
    """The commit a tag or branch names now (one `git ls-remote`); None if git cannot tell."""
    try:
        listed = subprocess.run(
            ["git", "ls-remote", "--", url, ref, f"{ref}^{{}}"],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = dict(reversed(line.split("\t", 1)) for line in listed.splitlines() if "\t" in line)
    for name in (f"refs/tags/{ref}^{{}}", f"refs/tags/{ref}", f"refs/heads/{ref}"):
        if name in found:  # a tag's peeled commit first: an annotated tag's own id is not a commit
            return found[name]
    return None


def _tree_key(path: Path) -> str | None:
    """A checkout's package files by size and mtime: an edit anywhere in them means reinstall."""
    package = path / "harness"  # the import package of every skillscope checkout
    if not package.is_dir():
        return None
    files = [path / "pyproject.toml", path / "requirements.txt", *sorted(package.rglob("*"))]
    digest = hashlib.sha256(str(path).encode())
    for file in files:
        if file.is_file() and "__pycache__" not in file.parts:
            stat = file.stat()
            digest.update(f"{file.relative_to(path)} {stat.st_size} {stat.st_mtime_ns}\n".encode())
    return f"{path} {digest.hexdigest()}"


def is_installed(env_dir: Path, key: str | None) -> bool:
    """True when `env_dir` holds skillscope installed from exactly `key` (see install_key)."""
    marker = env_dir / INSTALLED_MARKER
    return (
        key is not None
        and executable(env_dir, "skillscope").exists()
        and marker.is_file()
        and marker.read_text(encoding="utf-8") == key
    )


def mark_installed(env_dir: Path, key: str | None) -> None:
    marker = env_dir / INSTALLED_MARKER
    if key is None:
        marker.unlink(missing_ok=True)
    else:
        marker.write_text(key, encoding="utf-8")


def install(
    spec: str, env_dir: Path, pip_args: Sequence[str] = (), wheels: tuple[Path, str] | None = None
) -> Path:
    """Create `env_dir` and pip-install `spec` into it (skipped when already done); returns its skillscope.

    `wheels` is (wheelhouse, version label): install the wheel built there for that label, building it
    from `spec` first when the wheelhouse has none.
    """
    key = install_key(spec)
    if is_installed(env_dir, key):
        return executable(env_dir, "skillscope")
    borrowed = borrows_pip()
    venv.EnvBuilder(with_pip=not borrowed, clear=True).create(env_dir)
    pip = pip_command(executable(env_dir, "python"), borrowed)
    requirement = wheel(pip, spec, *wheels, build_args(pip_args)) if wheels else spec
    command = [*pip, "install", "--quiet", "--disable-pip-version-check", *pip_args]
    print(f"[skillscope] installing {requirement}", file=sys.stderr, flush=True)
    done = subprocess.run([*command, requirement], stdout=sys.stderr)
    if done.returncode != 0:
        raise LaunchError(
            f"could not install {requirement} (pip exited {done.returncode}); see the pip output above."
        )
    mark_installed(env_dir, key)
    return executable(env_dir, "skillscope")


def borrows_pip() -> bool:
    """Whether this interpreter's pip can install into a venv it does not run in (`pip --python`, pip
    22.3 on): the venv then gets no pip of its own, whose seeding is most of what making one costs."""
    try:
        version = metadata.version("pip")
    except metadata.PackageNotFoundError:
        return False
    return tuple(int(part) for part in re.findall(r"\d+", version)[:2]) >= (22, 3)


def pip_command(python: Path, borrowed: bool) -> list[str]:
    """The command that runs pip for the venv of `python`: this interpreter's pip run under it, when
    `borrowed` (see borrows_pip), else the venv's own."""
    if borrowed:
        return [sys.executable, "-m", "pip", "--python", str(python)]
    return [str(python), "-m", "pip"]


# The options of $SKILLSCOPE_PIP_ARGS that the wheel build gets as well (each: whether it takes a value):
# where packages come from and how pip reaches them, how it builds, what it logs. Everything else there is
# about what and where to install (--no-compile, --user, --force-reinstall, --target, --report, -r, more
# requirements...): `pip wheel` refuses most of it, so it goes to `pip install` alone.
_BUILD_VALUED = (
    *("--index-url", "-i", "--extra-index-url", "--find-links", "-f", "--trusted-host"),
    *("--cert", "--client-cert", "--proxy", "--timeout", "--retries", "--keyring-provider"),
    *("--only-binary", "--no-binary", "--config-settings", "-C", "--global-option", "--exists-action"),
    *("--cache-dir", "--log", "--progress-bar", "--use-feature", "--use-deprecated"),
)
_BUILD_FLAGS = (
    *("--no-index", "--pre", "--prefer-binary", "--no-build-isolation", "--use-pep517", "--no-clean"),
    *("--check-build-dependencies", "--ignore-requires-python", "--isolated", "--no-cache-dir"),
    *("--no-input", "--no-color", "--debug", "--verbose", "-v", "--quiet", "-q"),
)
BUILD_OPTIONS = {**dict.fromkeys(_BUILD_VALUED, True), **dict.fromkeys(_BUILD_FLAGS, False)}


def build_args(pip_args: Sequence[str]) -> list[str]:
    """The part of `pip_args` (arguments of `pip install`) that the wheel build takes too, values and
    all: `--opt value`, `--opt=value`, `-i value`, `-ivalue`, or a run of short flags such as `-vv`."""
    taken: list[str] = []
    args = iter(pip_args)
    for arg in args:
        name = arg.split("=", 1)[0] if arg.startswith("--") else arg[:2]
        flags = arg[1:] if arg.startswith("-") and not arg.startswith("--") else ""
        if BUILD_OPTIONS.get(name):  # an option with a value, in this argument or the next
            value = next(args, None) if arg == name else None
            taken += [arg] if value is None else [arg, value]
        elif name in BUILD_OPTIONS and (arg == name or flags):  # flags: `--pre`, `-v`, `-vv`, not `-vU`
            taken += [arg] if all(BUILD_OPTIONS.get(f"-{flag}") is False for flag in flags) else []
    return taken


def wheel_dir(wheelhouse: str | os.PathLike, label: str) -> Path:
    """Where the wheel of one version label lives: a leg asking for the label finds what discover built."""
    return Path(wheelhouse) / hashlib.sha256(label.encode()).hexdigest()[:12]


def wheel(
    pip: Sequence[str], spec: str, wheelhouse: str | os.PathLike, label: str, pip_args: Sequence[str] = ()
) -> str:
    """The harness wheel for `label` in the wheelhouse, built from `spec` by the `pip` command (see
    pip_command) when missing; `pip_args` are arguments `pip wheel` takes (see build_args)."""
    folder = wheel_dir(wheelhouse, label)
    built = sorted(folder.glob("*.whl"))
    if not built:
        print(f"[skillscope] building a wheel of {spec} into {folder}", file=sys.stderr, flush=True)
        command = [*pip, "wheel", "--quiet", "--disable-pip-version-check", "--no-deps"]
        done = subprocess.run([*command, *pip_args, "--wheel-dir", str(folder), spec], stdout=sys.stderr)
        built = sorted(folder.glob("*.whl"))
        if done.returncode != 0 or not built:
            raise LaunchError(
                f"could not build a wheel of {spec} (pip exited {done.returncode}); see the pip output above."
            )
    if len(built) > 1:
        raise LaunchError(
            f"{folder} holds {len(built)} wheels for version {label}; empty that directory so one is built."
        )
    return str(built[0])


def run(
    program: Path, argv: Sequence[str], cwd: Path, env: Mapping[str, str], stdin_path: str | None = None
) -> tuple[int, str]:
    """Run the installed CLI, teeing its stdout; returns (exit code, last non-empty stdout line)."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL  # noqa: SIM115 - closed below
    last = ""
    try:
        with subprocess.Popen(
            [str(program), *argv], cwd=cwd, env=dict(env), stdin=stdin, stdout=subprocess.PIPE
        ) as child:
            assert child.stdout is not None
            for raw in child.stdout:
                sys.stdout.buffer.write(raw)
                sys.stdout.flush()
                line = raw.decode("utf-8", "replace").strip()
                if line:
                    last = line
        return child.returncode, last
    finally:
        if stdin_path:
            stdin.close()


def github_output(path: str | None, values: Mapping[str, str]) -> None:
    """Append name/value pairs to $GITHUB_OUTPUT with a random heredoc delimiter per value."""
    if not path:
        return
    with open(path, "a", encoding="utf-8") as out:
        for name, value in values.items():
            delimiter = f"skillscope_{uuid.uuid4().hex}"
            while delimiter in value:
                delimiter = f"skillscope_{uuid.uuid4().hex}"
            out.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")


def _temp_parent(environ: Mapping[str, str]) -> Path:
    parent = environ.get("SKILLSCOPE_VENVS") or environ.get("RUNNER_TEMP")
    if parent:
        return Path(parent)
    import tempfile

    return Path(tempfile.gettempdir())


def child_environment(environ: Mapping[str, str], label: str, repo: Path, skills: str) -> dict[str, str]:
    """The command's environment: the step's, plus the version that runs, the repo, skills and endpoints."""
    child_env = dict(environ)
    child_env["SKILLSCOPE_VERSION"] = label
    child_env["SKILLSCOPE_REPO"] = str(repo)
    if skills.strip():
        child_env["SKILLSCOPE_SKILLS"] = ",".join(split_list(skills))
    child_env.update(endpoints(environ.get("SKILLSCOPE_API_BASE_URL")))
    return child_env


# The commands that take --model, and select, which plans legs per model with --models.
MODEL_COMMANDS = {"routing": "--model", "behavioral": "--model", "cost": "--model", "select": "--models"}


def model_args(command: str, models: str | None) -> list[str]:
    """The `models` input as the command's flag (select: --models, else --model); none when blank."""
    value = (models or "").strip()
    if not value:
        return []
    if command not in MODEL_COMMANDS:
        raise LaunchError(
            f"the `models` input applies to {', '.join(MODEL_COMMANDS)}, not {command}; leave it blank."
        )
    return [MODEL_COMMANDS[command], value]


def main(environ: Mapping[str, str] | None = None) -> int:
    environ = dict(os.environ if environ is None else environ)
    try:
        command = environ.get("SKILLSCOPE_COMMAND", "").strip()
        if not command:
            raise LaunchError(
                "the `command` input is required (structural, refs, routing, behavioral, "
                "select, list-skills, template)."
            )
        repo = Path(environ.get("SKILLSCOPE_REPO_INPUT") or ".").expanduser().resolve()
        if not repo.is_dir():
            raise LaunchError(f"the `repo` input names {repo}, which is not a directory.")
        skills = environ.get("SKILLSCOPE_SKILLS_INPUT", "")
        action_path = environ.get("SKILLSCOPE_ACTION_PATH") or str(Path(__file__).resolve().parent.parent)
        version, origin = resolve_version(
            environ.get("SKILLSCOPE_REQUESTED"),
            repo=repo,
            skill=environ.get("SKILLSCOPE_SKILL"),
            skills=skills,
            environ=environ,
            default=environ.get("SKILLSCOPE_DEFAULT_VERSION"),
        )
        spec = install_spec(
            version, source=environ.get("SKILLSCOPE_SOURCE"), default=action_path, environ=environ
        )
        label = (
            version
            or (environ.get("SKILLSCOPE_ACTION_REF") or "").strip()
            or str(Path(action_path).resolve())
        )
        args = shlex.split(environ.get("SKILLSCOPE_ARGS", ""))
        args += model_args(command, environ.get("SKILLSCOPE_MODELS_INPUT"))
        stdin_path = environ.get("SKILLSCOPE_STDIN") or None
        if stdin_path and not Path(stdin_path).is_file():
            raise LaunchError(f"the `stdin` input names {stdin_path}, which is not a file.")
        child_env = child_environment(environ, label, repo, skills)
        wheelhouse = (environ.get("SKILLSCOPE_WHEELHOUSE") or "").strip()
        try:
            program = install(
                spec,
                venv_dir(spec, _temp_parent(environ)),
                shlex.split(environ.get("SKILLSCOPE_PIP_ARGS", "")),
                wheels=(Path(wheelhouse), label) if wheelhouse else None,
            )
        except LaunchError as exc:
            if version is None:
                raise
            raise LaunchError(
                f"{exc} The version {version} is {origin}: set it to a release, git ref or path that "
                "exists, or pass the `version` input."
            ) from None
    except LaunchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    code, last = run(program, [command, *args], cwd=repo, env=child_env, stdin_path=stdin_path)
    github_output(environ.get("GITHUB_OUTPUT"), {"version": label, "stdout": last})
    if command not in _MACHINE_COMMANDS and environ.get("GITHUB_STEP_SUMMARY"):
        with open(environ["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as summary:
            summary.write(f"\n<sub>skillscope <code>{command}</code> ran at <code>{label}</code>.</sub>\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
