"""`--install plugin`: the room installed as users install it, through a host CLI's own `plugin
marketplace add` and plugin install commands into a throwaway home, then listed before any case.

The repo is staged first as a copy without its skills' `evals/` folders (a directory marketplace is
read in place, and the answer key must stay out of the agent's reach). Hosts name a plugin's skills
`<plugin>:<skill>`. Each runtime module says which marketplace file its host reads and how it lists.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from harness.files import UnreadableFile, read_text

from .spec import AgentUnavailable
from .workspace import ANSWER_KEY_DIR, copy_tree

SKIPPED_TOP = (".git", ".skillscope")
CLI_TIMEOUT_S = 300.0


@dataclass(frozen=True)
class Host:
    """What installing plugins takes on one host: its CLI's name, the marketplace file it reads (from the
    marketplace root) and the `plugin` subcommand that installs `<plugin>@<marketplace>`."""

    runtime: str
    marketplace: Path
    install_verb: str = "install"


@dataclass(frozen=True)
class PluginRoom:
    """The installed plugins: the home each run copies, the plugins to enable, and each listed
    `<plugin>:<skill>` name with the room skill it is."""

    config: Path
    enabled: tuple[str, ...]
    qualified: Mapping[str, str] = field(default_factory=dict)
    staged: Mapping[str, Path] = field(default_factory=dict)  # room skill -> its staged folder


def marketplace(root: Path, host: Host) -> tuple[str, list[str]]:
    """The marketplace's name and its plugins' names, from the host's marketplace file under `root`."""
    rel = host.marketplace.as_posix()
    path = root / host.marketplace
    if not path.exists():
        raise AgentUnavailable(
            f"--install plugin on {host.runtime} needs {rel} in the repo: add one listing the plugins "
            "that package the room, or install by copying (--install copy)"
        )
    try:
        data = json.loads(read_text(path))
    except (UnreadableFile, ValueError) as exc:
        raise AgentUnavailable(f"{rel} cannot be read ({exc}): run structural") from None
    plugins = data.get("plugins") if isinstance(data, dict) else None
    name = data.get("name") if isinstance(data, dict) else None
    if not isinstance(name, str) or not isinstance(plugins, list):
        raise AgentUnavailable(f"{rel} has no name or plugins list: run structural")
    return name, [p["name"] for p in plugins if isinstance(p, dict) and isinstance(p.get("name"), str)]


def stage(repo: Path, skill_dirs: Mapping[str, Path], under: Path) -> tuple[Path, dict[str, Path]]:
    """A copy of `repo` under `under`, without its version control, its runs or any skill's `evals/`;
    and where each of `skill_dirs` is in it."""
    copy = under / "catalog"
    copy_tree(repo, copy, skip_top=SKIPPED_TOP)
    root = repo.resolve()
    staged = {name: copy / Path(folder).resolve().relative_to(root) for name, folder in skill_dirs.items()}
    for folder in staged.values():
        shutil.rmtree(folder / ANSWER_KEY_DIR, ignore_errors=True)
    return copy, staged


def install(cli: str, env: Mapping[str, str], catalog: Path, host: Host) -> tuple[str, ...]:
    """Add `catalog` as a marketplace and install each of its plugins in `env`'s home; the installed
    plugin ids."""
    market, plugins = marketplace(catalog, host)
    plugin_cli(cli, env, host, "marketplace", "add", str(catalog))
    ids = tuple(f"{plugin}@{market}" for plugin in plugins)
    for plugin_id in ids:
        plugin_cli(cli, env, host, host.install_verb, plugin_id)
    return ids


def plugin_cli(cli: str, env: Mapping[str, str], host: Host, *args: str) -> None:
    done = host_command([cli, "plugin", *args], env, CLI_TIMEOUT_S, f"{host.runtime} plugin {' '.join(args)}")
    if done.returncode:
        said = " ".join((done.stderr or done.stdout).split())[:300]
        raise AgentUnavailable(
            f"`{host.runtime} plugin {args[0]} {args[1] if len(args) > 1 else ''}` failed on the repo's "
            f"{host.marketplace.as_posix()} ({said}): run structural, whose packaging rules say what to fix"
        )


def host_command(
    argv: list[str], env: Mapping[str, str], timeout: float, shown: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """A host CLI's plugin or listing command, which sends nothing to a model; AgentUnavailable in one
    sentence (naming it as `shown`) when it cannot start or does not end in time."""
    try:
        return subprocess.run(
            argv,
            cwd=cwd,
            env=dict(env),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise AgentUnavailable(f"`{shown}` could not run ({exc})") from None


def qualified_names(listed: list[str], room: list[str]) -> tuple[dict[str, str], list[str]]:
    """Each listed `<plugin>:<skill>` naming a room skill, and the room skills no plugin lists."""
    qualified = {}
    for name in listed:
        plugin, colon, skill = name.removeprefix("/").partition(":")
        if colon and plugin and skill in room:
            qualified[f"{plugin}:{skill}"] = skill
    missing = [skill for skill in room if skill not in qualified.values()]
    return qualified, missing


def missing_sentence(missing: list[str], host: Host) -> str:
    names = ", ".join(missing)
    return (
        f"{names} {'is' if len(missing) == 1 else 'are'} not listed by {host.runtime} after installing the "
        f"plugins of {host.marketplace.as_posix()}: add {'it' if len(missing) == 1 else 'them'} to a "
        "plugin's skills there, or leave them out of the run (--routing-room, --skill); no case was run"
    )
