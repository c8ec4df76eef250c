"""The package a repo ships to each agent host, read once from every host's manifests: which plugin
roots there are, what each manifest says, and which skill folders each plugin reaches on disk.

Which skills a repo publishes is its own business: this model keeps no list of what should be
packaged, and a repo without any manifest has an empty package."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from harness import jsonsafe
from harness.files import UnreadableFile, is_inside, read_text, rel_to
from harness.json_positions import path_line

CLAUDE, CODEX, COPILOT = "claude", "codex", "copilot"
HOSTS = (CLAUDE, CODEX, COPILOT)
PLUGIN, MARKETPLACE = "plugin", "marketplace"

# Where each host reads its own manifests, relative to a plugin (or marketplace) root. Copilot CLI
# prefers its root plugin.json to .github/plugin/plugin.json; it also falls back to Claude's files,
# which are then checked as Claude's.
LOCATIONS: dict[str, tuple[str, str]] = {
    ".claude-plugin/plugin.json": (CLAUDE, PLUGIN),
    ".claude-plugin/marketplace.json": (CLAUDE, MARKETPLACE),
    ".codex-plugin/plugin.json": (CODEX, PLUGIN),
    ".agents/plugins/marketplace.json": (CODEX, MARKETPLACE),
    "plugin.json": (COPILOT, PLUGIN),
    ".github/plugin/plugin.json": (COPILOT, PLUGIN),
    ".github/plugin/marketplace.json": (COPILOT, MARKETPLACE),
}
# Places users put a manifest (or a skills folder) that its host never reads: host, where it belongs.
MISPLACED: dict[str, tuple[str, str]] = {
    ".codex-plugin/marketplace.json": (CODEX, ".agents/plugins/marketplace.json"),
    ".agents/plugins/plugin.json": (CODEX, ".codex-plugin/plugin.json"),
    ".agents/marketplace.json": (CODEX, ".agents/plugins/marketplace.json"),
    ".agents/plugin.json": (CODEX, ".codex-plugin/plugin.json"),
    ".codex/plugin.json": (CODEX, ".codex-plugin/plugin.json"),
    ".codex/marketplace.json": (CODEX, ".agents/plugins/marketplace.json"),
    "codex-plugin/plugin.json": (CODEX, ".codex-plugin/plugin.json"),
    ".codex-plugins/plugin.json": (CODEX, ".codex-plugin/plugin.json"),
    ".codex-plugin/skills": (CODEX, "skills/ at the plugin root"),
    ".claude/plugin.json": (CLAUDE, ".claude-plugin/plugin.json"),
    ".claude/marketplace.json": (CLAUDE, ".claude-plugin/marketplace.json"),
    "claude-plugin/plugin.json": (CLAUDE, ".claude-plugin/plugin.json"),
    "claude-plugin/marketplace.json": (CLAUDE, ".claude-plugin/marketplace.json"),
    ".claude-plugins/plugin.json": (CLAUDE, ".claude-plugin/plugin.json"),
    ".claude-plugins/marketplace.json": (CLAUDE, ".claude-plugin/marketplace.json"),
    "marketplace.json": (CLAUDE, ".claude-plugin/marketplace.json"),
    ".claude-plugin/skills": (CLAUDE, "skills/ at the plugin root"),
    ".github/plugins/plugin.json": (COPILOT, ".github/plugin/plugin.json"),
    ".github/plugins/marketplace.json": (COPILOT, ".github/plugin/marketplace.json"),
    ".github/plugin.json": (COPILOT, ".github/plugin/plugin.json"),
    ".github/marketplace.json": (COPILOT, ".github/plugin/marketplace.json"),
    ".copilot-plugin/plugin.json": (COPILOT, "plugin.json at the plugin root"),
    ".github/plugin/skills": (COPILOT, "skills/ at the plugin root"),
}
# A plugin that names no skills path gets its `skills/` folder, on every host.
DEFAULT_SKILLS = "skills"


@dataclass(frozen=True)
class Manifest:
    """One host's plugin or marketplace manifest file, read as text."""

    host: str
    kind: str
    path: Path
    rel: str  # root-relative, as findings name it
    root: Path  # the plugin or marketplace root it describes
    text: str = ""
    data: dict[str, object] | None = None
    problem: str | None = None
    problem_line: int | None = None

    def line(self, *keys: str | int) -> int:
        """The line of the value at `keys`, else the nearest enclosing value's, else 1."""
        for end in range(len(keys), -1, -1):
            found = path_line(self.text, keys[:end])
            if found is not None:
                return found
        return 1


@dataclass(frozen=True)
class Field:
    """One value a manifest gives a plugin: where it is written and what it holds."""

    manifest: Manifest
    keys: tuple[str | int, ...]
    value: object

    @property
    def line(self) -> int:
        return self.manifest.line(*self.keys)


@dataclass
class Plugin:
    """One plugin as one host sees it: a marketplace entry and/or a plugin manifest at its root."""

    host: str
    root: Path | None  # None when the source is remote (GitHub, a URL): nothing on disk to check
    fields: list[Field] = field(default_factory=list)  # the entry's and the manifest's, entry first

    def all(self, key: str) -> list[Field]:
        return [f for f in self.fields if f.keys and f.keys[-1] == key]

    def skill_entries(self) -> list[Field]:
        """Each path a `skills` value names (a string or each item of an array)."""
        out = []
        for given in self.all("skills"):
            items = given.value if isinstance(given.value, list) else [given.value]
            for index, item in enumerate(items):
                keys = (*given.keys, index) if isinstance(given.value, list) else given.keys
                out.append(Field(given.manifest, keys, item))
        return out

    @property
    def anchor(self) -> Field:
        """Where a finding about the plugin as a whole is placed: its first field."""
        return self.fields[0]


@dataclass
class Package:
    """The repo's packaging for agent hosts: its manifests, those in the wrong place, its plugins."""

    root: Path
    manifests: list[Manifest] = field(default_factory=list)
    misplaced: list[tuple[str, str, str]] = field(default_factory=list)  # rel path, host, belongs
    plugins: list[Plugin] = field(default_factory=list)

    def hosts(self) -> list[str]:
        """The hosts with a manifest of their own here, in HOSTS order."""
        own = {m.host for m in self.manifests} | {host for _, host, _ in self.misplaced}
        return [host for host in HOSTS if host in own]

    def host_of(self, rel: str) -> str | None:
        for manifest in self.manifests:
            if manifest.rel == rel:
                return manifest.host
        return next((host for path, host, _ in self.misplaced if path == rel), None)

    def rel(self, path: Path) -> str:
        return rel_to(self.root, path)


def read(root: Path) -> Package:
    """Every manifest at the repo root and at each local plugin root its marketplaces name inside the
    repo (a source leading out of it, through `..` or a link, is another repo's business)."""
    package = Package(root=root)
    roots = [root]
    for place in roots:  # grows as marketplaces name plugin roots; each root read once
        for manifest in manifests_at(root, place):
            package.manifests.append(manifest)
            if manifest.kind == MARKETPLACE:
                for source in local_sources(manifest):
                    if source not in roots and source.is_dir() and is_inside(source, root):
                        roots.append(source)
        package.misplaced += misplaced_at(root, place)
    package.plugins = plugins_of(package)
    return package


def manifests_at(repo: Path, place: Path) -> list[Manifest]:
    out = []
    for where, (host, kind) in LOCATIONS.items():
        path = place / where
        if not path.is_file():
            continue
        rel = rel_to(repo, path)
        try:
            text = read_text(path)
            data = jsonsafe.loads(text, rel)
        except UnreadableFile as exc:
            out.append(Manifest(host, kind, path, rel, place, problem=f"cannot be read: {exc.reason}"))
            continue
        except jsonsafe.JsonProblem as exc:
            out.append(
                Manifest(host, kind, path, rel, place, text, problem=exc.reason, problem_line=exc.line)
            )
            continue
        if not isinstance(data, dict):
            out.append(Manifest(host, kind, path, rel, place, text, problem="is not a JSON object"))
            continue
        out.append(Manifest(host, kind, path, rel, place, text, data))
    return out


def misplaced_at(repo: Path, place: Path) -> list[tuple[str, str, str]]:
    return [
        (rel_to(repo, place / where), host, belongs)
        for where, (host, belongs) in MISPLACED.items()
        if looks_like_one(place / where)
    ]


def looks_like_one(path: Path) -> bool:
    """Whether a file in a misplaced spot is the manifest it seems to be (a `name`, and `plugins` for a
    marketplace), or a misplaced skills folder holds a skill: another tool's file of the same name is
    left alone."""
    if path.suffix != ".json":
        return path.is_dir() and bool(skills_under(path))
    if not path.is_file():
        return False
    try:
        data = jsonsafe.loads(read_text(path), path.name)
    except (UnreadableFile, jsonsafe.JsonProblem):
        return False
    wanted = "plugins" if path.name == "marketplace.json" else "name"
    return isinstance(data, dict) and wanted in data


def local_sources(manifest: Manifest) -> list[Path]:
    return [path for _, _, path in entries(manifest) if path is not None]


def entries(manifest: Manifest) -> list[tuple[int, object, Path | None]]:
    """Each plugin entry of a marketplace (its index, its value) with the local root its source names
    (None: remote or unusable)."""
    data = manifest.data or {}
    plugins = data.get("plugins")
    if not isinstance(plugins, list):
        return []
    base = manifest.root
    meta = data.get("metadata")
    if manifest.host == COPILOT and isinstance(meta, dict) and isinstance(meta.get("pluginRoot"), str):
        base = base / meta["pluginRoot"]
    out = []
    for index, entry in enumerate(plugins):
        source = entry.get("source") if isinstance(entry, dict) else None
        if (
            isinstance(source, dict)
            and source.get("source") == "local"
            and isinstance(source.get("path"), str)
        ):
            source = source["path"]
        out.append((index, entry, inside(base, source) if isinstance(source, str) else None))
    return out


def inside(base: Path, given: str) -> Path | None:
    """`given` resolved under `base`, or None when it leaves it or is absolute."""
    posix = PurePosixPath(given.replace("\\", "/"))
    if posix.is_absolute() or ".." in posix.parts:
        return None
    return Path(os.path.normpath(base / Path(*posix.parts))) if posix.parts else base


def plugins_of(package: Package) -> list[Plugin]:
    """Each marketplace entry with the same host's plugin manifest at its root, then each plugin manifest
    no entry reached."""
    plugins: list[Plugin] = []
    claimed: set[Path] = set()
    own = {(m.host, m.root): m for m in package.manifests if m.kind == PLUGIN and m.data is not None}
    for manifest in package.manifests:
        if manifest.kind != MARKETPLACE or manifest.data is None:
            continue
        for index, entry, root in entries(manifest):
            plugin = Plugin(manifest.host, root)
            if isinstance(entry, dict):
                plugin.fields += [
                    Field(manifest, ("plugins", index, key), value) for key, value in entry.items()
                ]
            else:
                plugin.fields.append(Field(manifest, ("plugins", index), entry))
            found = own.get((manifest.host, root)) if root is not None else None
            if found is not None:
                plugin.fields += [Field(found, (key,), value) for key, value in (found.data or {}).items()]
                claimed.add(found.path)
            plugins.append(plugin)
    seen_copilot: set[Path] = set()
    for (host, root), manifest in own.items():
        if manifest.path in claimed:
            continue
        if host == COPILOT:  # plugin.json at the root wins over .github/plugin/plugin.json
            if root in seen_copilot:
                continue
            seen_copilot.add(root)
        fields = [Field(manifest, (key,), value) for key, value in (manifest.data or {}).items()]
        plugins.append(Plugin(host, root, fields or [Field(manifest, (), manifest.data)]))
    return plugins


def reach(root: Path, entry: str) -> Path | None:
    """The folder a skills path names under a plugin root (None when it leaves the root)."""
    return inside(root, entry)


def skills_under(folder: Path) -> list[Path]:
    """The skill folders a skills path reaches: itself when it holds SKILL.md, else each child that does."""
    if (folder / "SKILL.md").is_file():
        return [folder]
    try:
        children = sorted(p for p in folder.iterdir() if p.is_dir())
    except OSError:
        return []
    return [child for child in children if (child / "SKILL.md").is_file()]


def reached_skills(plugin: Plugin) -> list[Path]:
    """Every skill folder the plugin installs on its host (its `skills/` folder when no path is named)."""
    if plugin.root is None:
        return []
    entries_given = plugin.skill_entries()
    if not plugin.all("skills"):
        return skills_under(plugin.root / DEFAULT_SKILLS) if (plugin.root / DEFAULT_SKILLS).is_dir() else []
    out: list[Path] = []
    for entry in entries_given:
        if not isinstance(entry.value, str):
            continue
        folder = reach(plugin.root, entry.value)
        if folder is not None and folder.is_dir():
            out += [path for path in skills_under(folder) if path not in out]
    return out
