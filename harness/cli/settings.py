"""Optional repo settings: `[tool.skillscope]` in pyproject.toml, or skillscope.toml, at the repo root.

Every key is the long name of a flag (`skills-dir = ["skills/*"]`), read as that flag's default:
a flag on the command line wins, then an environment variable the flag documents, then the file.
Every setting stays a flag; the file only saves typing the same flags in every terminal and task.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from harness import tomlsafe
from harness.cli.flags import ENVIRONMENT, NOT_SETTINGS
from harness.errors import UsageError
from harness.files import present

OWN_FILE = "skillscope.toml"
PYPROJECT = "pyproject.toml"


@dataclass
class Settings:
    """The keys of one settings file; `path` is None when the repo has none."""

    path: Path | None = None
    values: dict[str, object] = field(default_factory=dict)
    text: str = ""

    def where(self, key: str) -> str:
        """`file:line` of `key`, for messages that name the line to fix."""
        line = next(
            (
                n
                for n, row in enumerate(self.text.splitlines(), 1)
                if re.match(rf'\s*"?{re.escape(key)}"?\s*=', row)
            ),
            1,
        )
        return f"{self.path}:{line}"


def load(root: Path) -> Settings:
    """skillscope.toml, else pyproject.toml's [tool.skillscope]; both holding settings is an error."""
    found = [s for s in (_read(root / OWN_FILE, ()), _read(root / PYPROJECT, ("tool", "skillscope"))) if s]
    if len(found) > 1:
        raise UsageError(
            f"settings are in both {found[0].path} and {found[1].path} [tool.skillscope]; keep one of them."
        )
    return found[0] if found else Settings()


def pyproject_holds_settings(root: Path, base_text: str | None = None) -> bool:
    """Whether pyproject.toml holds a [tool.skillscope] table on disk under `root`, or in `base_text`
    (its text where a change began). A file that cannot be read or parsed counts: a plan never passes
    over a settings change it cannot read."""
    texts = [] if base_text is None else [base_text]
    path = root / PYPROJECT
    try:
        texts += [tomlsafe.read(path)] if present(path) else []
        return any(_has_table(text) for text in texts)
    except tomlsafe.TomlProblem:
        return True


def _has_table(text: str) -> bool:
    if "skillscope" not in text:
        return False
    tool = tomlsafe.loads(text, PYPROJECT).get("tool")
    return isinstance(tool, dict) and "skillscope" in tool


def _read(path: Path, table: tuple[str, ...]) -> Settings | None:
    if not present(path):
        return None
    try:
        text = tomlsafe.read(path)
        if table and table[-1] not in text:
            return None  # a pyproject.toml without [tool.skillscope]: not parsed, nor its parser imported
        data: object = tomlsafe.loads(text, str(path))
    except tomlsafe.TomlProblem as exc:
        raise UsageError(f"{exc}; fix the file.") from None
    for key in table:
        data = data.get(key) if isinstance(data, dict) else None
    if data is None or (table and not data):
        return None
    if not isinstance(data, dict):
        raise UsageError(f"{path}: [{'.'.join(table)}] must be a table of flag names and values.")
    return Settings(path=path, values=data, text=text)


def apply(
    settings: Settings,
    parser: argparse.ArgumentParser,
    every_flag: Callable[[], set[str]],
    environ: dict[str, str],
) -> list[str]:
    """Make each key the default of its flag in `parser`; returns the keys taken from the file.

    A key of another command is skipped here; a key no command has (`every_flag()`, asked only
    then, as it imports every command) is an error naming its line.
    """
    flags = {o[2:]: a for a in parser._actions for o in a.option_strings if o.startswith("--")}
    used = []
    for key, value in settings.values.items():
        if key in NOT_SETTINGS or (key not in flags and key not in every_flag()):
            why = _close(key, every_flag() - NOT_SETTINGS)  # every_flag imports all
            raise UsageError(f"{settings.where(key)}: `{key}` is not a skillscope setting; {why}")
        if key not in flags or environ.get(ENVIRONMENT.get(key, "")):
            continue
        action = flags[key]
        parser.set_defaults(**{action.dest: _value(action, key, value, settings)})
        used.append(key)
    return used


def from_file(parser: argparse.ArgumentParser, used: list[str]) -> dict[str, object]:
    """dest -> the default the settings file's `used` keys gave each flag in `parser`."""
    keys = set(used)
    return {
        action.dest: parser.get_default(action.dest)
        for action in parser._actions
        if any(o.startswith("--") and o[2:] in keys for o in action.option_strings)
    }


class FromFile(list):
    """A repeatable flag's values from the settings file: the command line's first use of the flag
    starts a new list (argparse copies a default that is not a plain list), so the flag wins."""

    def __copy__(self) -> list:
        return []


def _value(action: argparse.Action, key: str, value: object, settings: Settings) -> object:
    """What the flag would have parsed to, so a bad value fails here, naming the file's line."""
    if action.nargs == 0:  # a switch: store_true or --x/--no-x
        if not isinstance(value, bool):
            raise UsageError(f"{settings.where(key)}: `{key}` is a switch; write true or false.")
        return value if action.const is not False else not value
    if isinstance(action.nargs, int) and action.nargs > 1:  # --reports OLD NEW: a list of that many
        if (
            not isinstance(value, list)
            or len(value) != action.nargs
            or not all(isinstance(w, str) for w in value)
        ):
            raise UsageError(f"{settings.where(key)}: `{key}` takes a list of {action.nargs} strings.")
        return [_typed(action, key, word, settings) for word in value]
    if action.nargs in ("+", "*") or isinstance(action, argparse._AppendAction):
        words = [value] if isinstance(value, str) else value
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            raise UsageError(f"{settings.where(key)}: `{key}` takes a string or a list of strings.")
        if isinstance(action, argparse._AppendAction):  # each item as one use of the flag
            return FromFile(_typed(action, key, word, settings) for word in words)
        return words
    if isinstance(value, bool) or not isinstance(value, (str, int, float, list)):
        raise UsageError(f"{settings.where(key)}: `{key}` takes a value, as its flag --{key} does.")
    text = json.dumps(value) if isinstance(value, list) else str(value)  # lists reach parse_list as JSON
    parsed = _typed(action, key, text, settings)
    if action.choices is not None and parsed not in action.choices:
        raise UsageError(
            f"{settings.where(key)}: `{key}` must be one of {', '.join(map(str, action.choices))}."
        )
    return parsed


def _typed(action: argparse.Action, key: str, text: str, settings: Settings) -> object:
    """`text` through the flag's type, as argparse would take it from the command line."""
    try:
        return action.type(text) if callable(action.type) else text
    except (argparse.ArgumentTypeError, TypeError, ValueError) as exc:
        raise UsageError(
            f"{settings.where(key)}: `{key}` = {text!r} is not what --{key} takes ({exc})."
        ) from None


def _close(key: str, known: set[str]) -> str:
    import difflib

    close = difflib.get_close_matches(key.removeprefix("--"), sorted(known), n=1)
    return f"did you mean `{close[0]}`?" if close else "keys are the long flag names, such as skills-dir."


def effective(
    args: argparse.Namespace,
    parser: argparse.ArgumentParser,
    settings: Settings,
    used: list[str],
    words: list[str],
) -> dict:
    """The settings in force for this run, for the JSON report: every flag's value, and the keys that
    came from the file (those applied and not given again on the command line)."""
    typed = {w.split("=", 1)[0] for w in words if w.startswith("--")}
    from_file = sorted(k for k in used if not typed & {f"--{k}", f"--no-{k}"})
    values = {}
    for action in parser._actions:
        name = next((o[2:] for o in action.option_strings if o.startswith("--")), None)
        if name and name not in NOT_SETTINGS and hasattr(args, action.dest):
            value = getattr(args, action.dest)
            values[name] = (
                value if isinstance(value, (str, int, float, bool, list, type(None))) else str(value)
            )
    return {
        "file": str(settings.path) if settings.path else None,
        "from_file": from_file,
        "values": values,
    }
