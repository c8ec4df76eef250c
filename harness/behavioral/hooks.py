"""`<skill>/evals/hooks.py`: optional setup and checks a dataset cannot express, loaded by path.

Every function is optional: `setup_session(cache_dir)` once per skill, `setup(workspace, case, ctx)`
before each case, `teardown(workspace, case, ctx)` after it (always), `check(run, case, ctx)` to grade.
"""

from __future__ import annotations

import contextlib
import importlib.util
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.files import UnreadableFile, read_bytes
from harness.model.repo import Repo
from harness.printable import clip

HOOKS_FILE = Path("evals") / "hooks.py"
HOOK_NAMES = ("setup_session", "setup", "teardown", "check")
DETAIL_KEEP = 400


class HookError(Exception):
    """A hook crashed or answered something unusable: the case (or skill) errors, never grades."""


@dataclass
class Hooks:
    skill: str
    rel: str  # root-relative path of hooks.py, for messages
    functions: dict[str, Callable[..., Any]] = field(default_factory=dict)
    load_error: str | None = None  # hooks.py exists but could not be loaded

    @property
    def has_check(self) -> bool:
        return "check" in self.functions

    def setup_session(self, cache_dir: Path) -> dict[str, Any]:
        return self._placeholders("setup_session", cache_dir)

    def setup(self, workspace: Path, case: Any, ctx: dict[str, Any]) -> dict[str, Any]:
        return self._placeholders("setup", workspace, case, ctx)

    def teardown(self, workspace: Path, case: Any, ctx: dict[str, Any]) -> None:
        self._call("teardown", workspace, case, ctx)

    def check(self, run: Any, case: Any, ctx: dict[str, Any]) -> str | None:
        """None when the check passed; the reason when it raised AssertionError (or returned False)."""
        function = self.functions.get("check")
        if function is None:
            return None
        try:
            answer = function(run, case, ctx)
        except AssertionError as exc:
            return f"{clip(exc, DETAIL_KEEP) or 'assertion failed'} ({self._where(exc)})"
        except Exception as exc:  # noqa: BLE001 - any other failure is the hook's crash, not a grade
            raise HookError(self._crash("check", exc)) from None
        if answer is False:  # `return ok` instead of `assert ok` must not pass silently
            return f"check returned False ({self.rel}); raise AssertionError with a reason instead"
        return None

    def _placeholders(self, name: str, *args: Any) -> dict[str, Any]:
        answer = self._call(name, *args)
        if answer is None:
            return {}
        if not isinstance(answer, dict) or not all(isinstance(key, str) and key for key in answer):
            raise HookError(
                f"{self.rel}: {name} returned {type(answer).__name__}, not a dict of "
                "placeholder names to values; return a dict such as {'repo': path} or None."
            )
        return dict(answer)

    def _call(self, name: str, *args: Any) -> Any:
        function = self.functions.get(name)
        if function is None:
            return None
        try:
            return function(*args)
        except Exception as exc:  # noqa: BLE001 - reported as the case's (or skill's) error
            raise HookError(self._crash(name, exc)) from None

    def _crash(self, name: str, exc: BaseException) -> str:
        return (
            f"{self.rel}: {name} raised {type(exc).__name__}: {clip(exc, DETAIL_KEEP)} ({self._where(exc)}); "
            "fix the hook, or run it by hand to see the traceback."
        )

    def _where(self, exc: BaseException) -> str:
        """The innermost line of hooks.py the exception passed through."""
        import traceback  # only when a hook raised

        frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).name == "hooks.py"]
        if not frames:
            return self.rel
        frame = frames[-1]
        code = f": {frame.line.strip()}" if frame.line else ""
        return f"{self.rel} line {frame.lineno}{code}"


def declared(skill: str, skill_dir: Path, rel: str) -> Hooks | None:
    """The hooks hooks.py defines, read without running it (a dry run executes no repo code): its
    top-level functions of HOOK_NAMES, each a stand-in that refuses to be called. A file that does
    not parse gives `load_error`, as loading it would."""
    import ast

    path = Path(skill_dir) / HOOKS_FILE
    if not path.is_file():
        return None
    hooks = Hooks(skill=skill, rel=rel)
    try:
        tree = ast.parse(read_bytes(path), filename=rel)
    except UnreadableFile as exc:
        hooks.load_error = f"{rel} could not be read ({exc.reason})."
        return hooks
    except (SyntaxError, ValueError) as exc:
        hooks.load_error = (
            f"{rel} could not be read ({type(exc).__name__}: {clip(exc, DETAIL_KEEP)}); fix it."
        )
        return hooks
    bound: set[str] = set()
    for node in tree.body:  # what the module's top level names: defs, assignments, imports
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            bound.add(node.name)
        elif isinstance(node, ast.Assign):
            bound.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom):
            bound.update(alias.asname or alias.name for alias in node.names)
    for name in HOOK_NAMES:
        if name in bound:
            hooks.functions[name] = not_on_a_dry_run
    return hooks


def not_on_a_dry_run(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("hooks are not run on a dry run")


def load(skill: str, skill_dir: Path, rel: str) -> Hooks | None:
    """The skill's hooks, or None when it has no hooks.py. A broken file gives `load_error`."""
    path = Path(skill_dir) / HOOKS_FILE
    if not path.is_file():
        return None
    hooks = Hooks(skill=skill, rel=rel)
    module_name = "skillscope_hooks_" + re.sub(r"\W", "_", skill)
    try:
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise ImportError("not loadable as a Python module")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # not registered in sys.modules: each run loads its own copy
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - a broken hooks file errors its skill's cases
        hooks.load_error = (
            f"{rel} could not be loaded ({type(exc).__name__}: {clip(exc, DETAIL_KEEP)}); fix it, "
            f"e.g. with `python {rel}` to see the traceback."
        )
        return hooks
    for name in HOOK_NAMES:
        value = getattr(module, name, None)
        if value is None:
            continue
        if not callable(value):
            kind = type(value).__name__
            hooks.load_error = f"{rel}: `{name}` is not a function (it is {kind}); define it with def."
            return hooks
        hooks.functions[name] = value
    return hooks


@dataclass
class Session:
    """One skill's session: its placeholders, or why setup_session failed."""

    placeholders: dict[str, Any] = field(default_factory=dict)
    cache_dir: Path | None = None
    error: str | None = None


def read_all(
    names: Iterable[str], folders: Mapping[str, Path], repo: Repo, dry_run: bool
) -> dict[str, Hooks | None]:
    """Each named skill's hooks, read from its folder in `folders` and named by its place in `repo`; on a
    dry run only declared, since a dry run runs no repo code."""
    read = declared if dry_run else load
    return {name: read(name, folders[name], repo.rel(repo.skill_dirs[name] / HOOKS_FILE)) for name in names}


@contextlib.contextmanager
def session(hooks: Hooks | None, temp_parent: Path | None = None) -> Iterator[Session]:
    """Run setup_session once in a fresh cache dir; the dir is removed however the session ends."""
    if hooks is None:
        yield Session()
        return
    if hooks.load_error:
        yield Session(error=hooks.load_error)
        return
    if "setup_session" not in hooks.functions:
        yield Session()
        return
    safe = re.sub(r"[^\w.-]", "_", hooks.skill)
    cache_dir = Path(tempfile.mkdtemp(prefix=f"skillscope-cache-{safe}-", dir=temp_parent))
    try:
        try:
            placeholders = hooks.setup_session(cache_dir)
        except HookError as exc:
            yield Session(cache_dir=cache_dir, error=str(exc))
            return
        yield Session(placeholders=placeholders, cache_dir=cache_dir)
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)
