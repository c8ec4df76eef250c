"""Packaging: the plugin and marketplace manifests a repo has, checked against what each host accepts and
against the files on disk. Off when the repo has no manifest: publishing is never required.

Every finding names the host whose manifest it is about and sits on the manifest's line."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from harness.checks import CheckOptions
from harness.model import findings, package
from harness.model import skill as skill_mod
from harness.model.catalog import Catalog
from harness.model.findings import Finding
from harness.model.package import MARKETPLACE, PLUGIN, Field, Manifest, Package, Plugin
from harness.model.package_hosts import (
    ENTRY_KEYS,
    ENTRY_OBJECT_FIELDS,
    LABELS,
    NEEDS_DOT_SLASH,
    OBJECT_FIELDS,
    TOP_KEYS,
)

KEBAB_NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
KEBAB = "lowercase letters, digits and hyphens (`my-plugin`)"
# Why a host's line reads ✗, by the first failing rule: a few words.
REASONS = {
    "packaging-manifest-json": "manifest is not valid JSON",
    "packaging-manifest-misplaced": "manifest in the wrong folder",
    "packaging-field-type": "a field of the wrong type",
    "packaging-name-format": "plugin name refused",
    "packaging-skills-entry-file": "skills entry is a file",
    "packaging-path-outside-root": "path leaves the plugin root",
    "packaging-path-not-relative": "path lacks ./",
    "packaging-path-missing": "skills path not found",
}


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    """The repo's manifests, checked whenever this is called: `options.packaging` is tested once, by the
    registry that imports this module (harness/checks/structural.py)."""
    return [finding for _, finding in host_findings(package.read(catalog.repo.root), catalog)]


def host_findings(pkg: Package, catalog: Catalog) -> list[tuple[str, Finding]]:
    """Each finding with the host it is about."""
    out: list[tuple[str, Finding]] = []
    for rel, host, belongs in pkg.misplaced:
        out.append((host, misplaced(rel, host, belongs)))
    for manifest in pkg.manifests:
        out += [(manifest.host, f) for f in manifest_findings(manifest)]
    catalog_dirs = {os.path.realpath(skill.path) for skill in catalog.skills.values()}
    for plugin in pkg.plugins:
        out += [(plugin.host, f) for f in plugin_findings(pkg, plugin, catalog_dirs)]
    out += unlisted(pkg)
    out += drift(pkg, {os.path.realpath(skill.path): skill for skill in catalog.skills.values()})
    return out


def misplaced(rel: str, host: str, belongs: str) -> Finding:
    return findings.error(
        "packaging-manifest-misplaced",
        rel,
        f"{LABELS[host]} never reads `{rel}`, so what it declares is not installed there; move it to "
        f"{belongs if ' ' in belongs else '`' + belongs + '`'}.",
    )


def manifest_findings(manifest: Manifest) -> list[Finding]:
    label, rel = LABELS[manifest.host], manifest.rel
    if manifest.problem is not None:
        return [
            findings.error(
                "packaging-manifest-json",
                rel,
                f"{label} cannot load it: it {manifest.problem.removeprefix('it ')}; fix the JSON (one "
                "object "
                "at the top) so the plugin installs.",
                manifest.problem_line,
            )
        ]
    data = manifest.data or {}
    out = list(unknown_keys(manifest, (), data, TOP_KEYS[manifest.host][manifest.kind]))
    out += object_fields(manifest, (), data, OBJECT_FIELDS[manifest.host][manifest.kind])
    if manifest.kind == MARKETPLACE:
        plugins = data.get("plugins")
        if not isinstance(plugins, list):
            out.append(
                findings.error(
                    "packaging-field-type",
                    rel,
                    f"{label} refuses this marketplace: `plugins` must be an array of plugin entries "
                    f"(it is {kind_of(plugins)}); list each plugin as an object with `name` and `source`.",
                    manifest.line("plugins"),
                )
            )
            plugins = []
        for index, entry in enumerate(plugins):
            if not isinstance(entry, dict):
                out.append(type_error(manifest, ("plugins", index), "an object", entry))
                continue
            out += unknown_keys(manifest, ("plugins", index), entry, ENTRY_KEYS[manifest.host])
            out += object_fields(manifest, ("plugins", index), entry, ENTRY_OBJECT_FIELDS[manifest.host])
            out += source_findings(manifest, index, entry)
    return out


def source_findings(manifest: Manifest, index: int, entry: dict) -> list[Finding]:
    """A local plugin source stays inside the marketplace root, is written as its host reads it, and
    exists."""
    source = entry.get("source")
    keys: tuple[str | int, ...] = ("plugins", index, "source")
    if isinstance(source, dict) and manifest.host == package.CODEX:
        source, keys = source.get("path"), (*keys, "path")
    if not isinstance(source, str):
        return []  # remote (GitHub, a URL) or already reported as the wrong type
    label, line = LABELS[manifest.host], manifest.line(*keys)
    placed = path_placement(manifest.host, manifest.rel, line, "the plugin source", source, SOURCE_PATH)
    if placed:
        return placed
    found = next((path for at, _, path in package.entries(manifest) if at == index), None)
    if found is not None and not found.is_dir():
        return [
            findings.error(
                "packaging-path-missing",
                manifest.rel,
                f"{label} cannot install the plugin at `{source}`: no folder is there; fix the source path.",
                line,
            )
        ]
    return []


@dataclass(frozen=True)
class PathRole:
    """How the findings on a local path word what it is relative to: a marketplace's plugin source or a
    plugin's skills entry."""

    root: str  # what the path is written from
    outside: str  # why leaving it matters, and the fix
    rule: str  # which paths must start with `./`
    dropped: str  # what a host that does not refuse does with a path lacking `./`


SOURCE_PATH = PathRole(
    "marketplace root",
    "marketplace root; move the plugin inside the repository and write its path from the root "
    "(`./plugins/<name>`)",
    "local sources",
    "silently drops",
)
SKILLS_PATH = PathRole(
    "plugin root",
    "plugin root, which is all that is installed; move the skill inside the plugin and name it "
    "`./skills/<name>`",
    "its paths",
    "silently ignores",
)


def path_placement(
    host: str, rel: str, line: int | None, what: str, value: str, role: PathRole
) -> list[Finding]:
    """The finding on a local path that leaves its root, or lacks the `./` its host requires; [] when it
    does neither."""
    label = LABELS[host]
    posix = PurePosixPath(value.replace("\\", "/"))
    if posix.is_absolute() or ".." in posix.parts:
        said = f"{label} refuses {what} `{value}`: it leaves the {role.outside}."
        return [findings.error("packaging-path-outside-root", rel, said, line)]
    if NEEDS_DOT_SLASH[host] and not value.startswith("./"):
        verb = "refuses" if host == package.CLAUDE else role.dropped
        said = (
            f"{label} {verb} {what} `{value}`: {role.rule} start with `./` (relative to the {role.root}); "
            f"write `./{value.lstrip('/')}`."
        )
        return [findings.error("packaging-path-not-relative", rel, said, line)]
    return []


def unknown_keys(manifest: Manifest, at: tuple, data: dict, known: frozenset[str]) -> Iterator[Finding]:
    where = dotted(at)
    for key in data:
        if key not in known:
            yield findings.warning(
                "packaging-unknown-key",
                manifest.rel,
                f"{LABELS[manifest.host]} does not know `{key}` in {where or 'this ' + manifest.kind} and "
                f"ignores it; remove it, or check the spelling against the host's {manifest.kind} reference.",
                manifest.line(*at, key),
            )


def object_fields(manifest: Manifest, at: tuple, data: dict, keys: frozenset[str]) -> Iterator[Finding]:
    for key in sorted(keys):
        if key in data and not isinstance(data[key], dict):
            yield type_error(manifest, (*at, key), "an object", data[key])


def type_error(manifest: Manifest, keys: tuple, wanted: str, value: object) -> Finding:
    name = dotted(keys)
    example = ' such as {"name": "Ada"}' if keys and keys[-1] in ("author", "owner") else ""
    return findings.error(
        "packaging-field-type",
        manifest.rel,
        f"{LABELS[manifest.host]} expects `{name}` to be {wanted}, not {kind_of(value)}; write it as "
        f"{wanted}{example}.",
        manifest.line(*keys),
    )


def dotted(keys: tuple[str | int, ...]) -> str:
    """`plugins[0].skills[1]`: where a value sits, as the hosts' own messages write it."""
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys).lstrip(".")


def kind_of(value: object) -> str:
    if value is None:
        return "missing"
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}.get(
        type(value), "a number"
    )


def plugin_findings(pkg: Package, plugin: Plugin, catalog_dirs: set[str]) -> list[Finding]:
    out = [f for given in plugin.all("name") for f in name_format(plugin.host, given)]
    out += names_agree(plugin)
    if plugin.root is None:
        return out
    for entry in plugin.skill_entries():
        out += entry_findings(pkg, plugin, entry, catalog_dirs)
    return out


def entry_findings(pkg: Package, plugin: Plugin, entry: Field, catalog_dirs: set[str]) -> list[Finding]:
    label, rel, line = LABELS[plugin.host], entry.manifest.rel, entry.line
    where = f"`{dotted(entry.keys)}`"
    value = entry.value
    if not isinstance(value, str):
        return [type_error(entry.manifest, entry.keys, "a path string (`./skills/name`)", value)]
    placed = path_placement(plugin.host, rel, line, where, value, SKILLS_PATH)
    if placed:
        return placed
    posix = PurePosixPath(value.replace("\\", "/"))
    if not posix.parts or posix.parts == (".",):
        # Codex drops it; the others install the root as one skill, which is all the warning is about.
        return [root_itself(plugin.host, rel, where, value, line)]
    assert plugin.root is not None
    folder = package.reach(plugin.root, value)
    if folder is None:
        return []
    out = []
    if folder.is_file():
        parent = "./" + pkg.rel(folder.parent) if folder.parent != pkg.root else "./"
        out.append(
            findings.error(
                "packaging-skills-entry-file",
                rel,
                f"{label} refuses {where} `{value}`: it is a file, and skills entries are folders holding "
                f"SKILL.md; name the folder (`{plugin_rel(plugin, folder.parent) or parent}`).",
                line,
            )
        )
        return out
    if not folder.is_dir():
        out.append(
            findings.error(
                "packaging-path-missing",
                rel,
                f"{label} cannot load {where} `{value}`: nothing is there; fix the path or add the skill "
                "folder.",
                line,
            )
        )
        return out
    out += skill_folder_findings(plugin, entry, folder, catalog_dirs)
    return out


def plugin_rel(plugin: Plugin, folder: Path) -> str:
    assert plugin.root is not None
    rel = os.path.relpath(folder, plugin.root).replace(os.sep, "/")
    return "./" if rel == "." else f"./{rel}"


def root_itself(host: str, rel: str, where: str, value: str, line: int) -> Finding:
    if host == package.CODEX:
        return findings.error(
            "packaging-path-outside-root",
            rel,
            f"Codex silently ignores {where} `{value}`: a path may not be the plugin root itself; put the "
            "skill "
            "in a folder (`./skills/<name>/SKILL.md`) and name that folder.",
            line,
        )
    return findings.warning(
        "packaging-path-outside-root",
        rel,
        f"{LABELS[host]} reads {where} `{value}` as the plugin root itself: older Claude Code versions "
        "refuse "
        "it as escaping the plugin root and the claude.ai marketplace sync refuses a SKILL.md at the root; "
        "put the skill in a folder (`./skills/<name>/SKILL.md`) and name that folder.",
        line,
    )


def skill_folder_findings(
    plugin: Plugin, entry: Field, folder: Path, catalog_dirs: set[str]
) -> list[Finding]:
    label, rel, line = LABELS[plugin.host], entry.manifest.rel, entry.line
    where = f"`{dotted(entry.keys)}`"
    out = []
    skills = package.skills_under(folder)
    deeper = None if (folder / "SKILL.md").is_file() else nested(folder)
    if deeper:
        out.append(
            findings.warning(
                "packaging-skill-nested",
                rel,
                f"{label} never installs `{deeper}` through {where} `{entry.value}`: it sits more than one "
                "folder down, and hosts read one level only; move the skill folder directly under "
                f"`{entry.value}`.",
                line,
            )
        )
    elif not skills:
        out.append(
            findings.warning(
                "packaging-path-missing",
                rel,
                f"{label} finds no skill through {where} `{entry.value}`: neither it nor any folder "
                "directly in it "
                "holds a SKILL.md; fix the path.",
                line,
            )
        )
    for skill_dir in skills:
        name = plugin_rel(plugin, skill_dir)
        if skill_dir.is_symlink() or folder.is_symlink():
            out.append(
                findings.warning(
                    "packaging-skill-link",
                    rel,
                    f"{label} packages `{name}` through a symbolic link: a checkout without links (Windows "
                    "by "
                    "default) installs a one-line text file in its place; copy the skill folder in.",
                    line,
                )
            )
        inner = nested(skill_dir, below=True)
        if inner:
            out.append(
                findings.warning(
                    "packaging-skill-nested",
                    rel,
                    f"{label} installs `{name}` as one skill, and the SKILL.md in `{inner}` inside it is "
                    "never "
                    "listed; move that skill beside it and name it on its own.",
                    line,
                )
            )
        if os.path.realpath(skill_dir) not in catalog_dirs:
            out += frontmatter_name(plugin, entry, skill_dir)
    return out


def nested(folder: Path, below: bool = False) -> str | None:
    """The first SKILL.md hosts never reach: anywhere under a skill folder (`below`), or under a child of a
    skills folder that is not a skill itself."""
    starts = (
        [folder]
        if below
        else [c for c in sorted(folder.iterdir()) if c.is_dir() and not (c / "SKILL.md").is_file()]
    )
    for start in starts:
        for current, dirs, files in os.walk(start):
            dirs.sort()
            here = Path(current)
            if here != start and "SKILL.md" in files:
                return here.relative_to(folder).as_posix()
            if len(here.relative_to(start).parts) >= 4:
                dirs[:] = []
    return None


def frontmatter_name(plugin: Plugin, entry: Field, skill_dir: Path) -> list[Finding]:
    """A packaged skill outside the catalog: its frontmatter name is its folder's (catalog skills get
    `name-mismatch` from skill-md already)."""
    skill = skill_mod.load(skill_dir.name, skill_dir)
    data = skill.frontmatter if isinstance(skill.frontmatter, dict) else {}
    given = data.get("name")
    if isinstance(given, str) and given != skill_dir.name:
        return [
            findings.warning(
                "packaging-name-mismatch",
                entry.manifest.rel,
                f"{LABELS[plugin.host]} packages `{plugin_rel(plugin, skill_dir)}`, whose SKILL.md is named "
                f"`{given}`; name the folder and the frontmatter alike.",
                entry.line,
            )
        ]
    return []


def name_format(host: str, given: Field) -> list[Finding]:
    value = given.value
    label, rel = LABELS[host], given.manifest.rel
    if not isinstance(value, str):
        return [type_error(given.manifest, given.keys, "a string", value)]
    if host == package.CODEX and not value.strip():
        return []  # Codex names the plugin after its folder then
    if not value.strip() or any(c.isspace() for c in value):
        return [
            findings.error(
                "packaging-name-format",
                rel,
                f"{label} refuses the plugin name `{value}`: it is empty or holds spaces; use {KEBAB}.",
                given.line,
            )
        ]
    if len(value) > 64 or not KEBAB_NAME.fullmatch(value):
        return [
            findings.warning(
                "packaging-name-format",
                rel,
                f"The plugin name `{value}` is not kebab-case: {label} may refuse to install it from a "
                "marketplace "
                f"and the claude.ai marketplace sync requires it; use {KEBAB}, at most 64 characters.",
                given.line,
            )
        ]
    return []


def names_agree(plugin: Plugin) -> list[Finding]:
    """A marketplace entry's name and the plugin manifest's at its root agree."""
    named = [f for f in plugin.all("name") if isinstance(f.value, str) and f.value.strip()]
    entry = [f for f in named if f.manifest.kind == MARKETPLACE]
    own = [f for f in named if f.manifest.kind == PLUGIN]
    if entry and own and entry[0].value != own[0].value:
        return [
            findings.warning(
                "packaging-name-mismatch",
                entry[0].manifest.rel,
                f"{LABELS[plugin.host]}'s marketplace lists the plugin as `{entry[0].value}`, and its "
                f"`{own[0].manifest.rel}` names it `{own[0].value}`; the install id and the skills' prefix "
                "then "
                "differ: use one name in both.",
                entry[0].line,
            )
        ]
    return []


def unlisted(pkg: Package) -> list[tuple[str, Finding]]:
    """A skill one host's manifests package and another host's, which package others, leave out. A skill no
    manifest reaches at all is the repo's choice (amd/skills keeps planned skills unlisted) and is only
    counted in the packaging line."""
    reached: dict[str, set[str]] = {}
    anchors: dict[str, Field] = {}
    for plugin in pkg.plugins:
        if plugin.root is None:
            continue
        skills = {pkg.rel(path) for path in package.reached_skills(plugin)}
        if skills:
            reached.setdefault(plugin.host, set()).update(skills)
            anchors.setdefault(plugin.host, next(iter(plugin.all("skills")), plugin.anchor))
    out = []
    for host, skills in reached.items():
        for other, theirs in reached.items():
            for missing in sorted(theirs - skills):
                anchor = anchors[host]
                out.append(
                    (
                        host,
                        findings.warning(
                            "packaging-skill-unlisted",
                            anchor.manifest.rel,
                            f"`{missing}` is packaged for {LABELS[other]} but no {LABELS[host]} manifest "
                            "reaches "
                            f"it, while it packages other skills; add it here too, or drop it from "
                            f"{LABELS[other]}'s manifest.",
                            anchor.line,
                        ),
                    )
                )
    return list(dict.fromkeys(out))


def drift(pkg: Package, loaded: dict[str, skill_mod.Skill]) -> list[tuple[str, Finding]]:
    """The versions one plugin root is given (by each host's manifest and entry, and by the SKILL.md
    metadata of a plugin that is a single skill) are one version. `loaded`: the catalog's skills by real
    path, read once already (through the frontmatter memo)."""
    by_root: dict[Path, list[tuple[str, str, Field]]] = {}
    for plugin in pkg.plugins:
        if plugin.root is None:
            continue
        for given in plugin.all("version"):
            if isinstance(given.value, str) and given.value.strip():
                by_root.setdefault(plugin.root, []).append((plugin.host, given.value.strip(), given))
    out = []
    for root, versions in by_root.items():
        values = {value for _, value, _ in versions}
        skill_version = single_skill_version(pkg, root, loaded)
        if skill_version:
            values.add(skill_version[0])
        if len(values) < 2:
            continue
        said = [f"`{value}` in {given.manifest.rel}:{given.line}" for _, value, given in versions]
        if skill_version:
            said.append(f"`{skill_version[0]}` in {skill_version[1]} (metadata.version)")
        host, _, given = versions[-1]
        out.append(
            (
                host,
                findings.warning(
                    "packaging-version-drift",
                    given.manifest.rel,
                    f"The plugin at `{pkg.rel(root) if root != pkg.root else './'}` has drifted versions: "
                    f"{', '.join(dict.fromkeys(said))}; hosts install whichever their manifest says, so bump "
                    "them together.",
                    given.line,
                ),
            )
        )
    return out


def single_skill_version(
    pkg: Package, root: Path, loaded: dict[str, skill_mod.Skill]
) -> tuple[str, str] | None:
    skills = {
        path for plugin in pkg.plugins if plugin.root == root for path in package.reached_skills(plugin)
    }
    if len(skills) != 1:
        return None
    (folder,) = skills
    skill = loaded.get(os.path.realpath(folder)) or skill_mod.load(folder.name, folder)
    data = skill.frontmatter if isinstance(skill.frontmatter, dict) else {}
    meta = data.get("metadata")
    version = meta.get("version") if isinstance(meta, dict) else None
    return (str(version), pkg.rel(folder / "SKILL.md")) if isinstance(version, (str, int, float)) else None


@dataclass(frozen=True)
class HostVerdict:
    """One host's packaging verdict, and why it failed."""

    host: str
    status: str  # pass, fail, none (no manifest of its own)
    reason: str | None = None
    manifests: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"status": self.status, "reason": self.reason, "manifests": list(self.manifests)}

    def text(self) -> str:
        if self.status == "none":
            return f"{self.host} – (no manifest)"
        mark = "✓" if self.status == "pass" else "✗"
        return f"{self.host} {mark}" + (f" ({self.reason})" if self.reason else "")


def verdicts(catalog: Catalog, found: list[Finding]) -> dict[str, HostVerdict]:
    """One verdict per host, from the run's findings as adopted (a baselined or demoted error does not
    fail a host); empty when the repo has no manifest. Every packaging finding sits on a manifest (or a
    misplaced one) of the host it is about, so the file names the host."""
    pkg = package.read(catalog.repo.root)
    hosts = pkg.hosts()
    if not hosts:
        return {}
    failing = [f for f in found if f.fails and f.rule.startswith("packaging-")]
    out = {}
    for host in package.HOSTS:
        if host not in hosts:
            out[host] = HostVerdict(host, "none")
            continue
        mine = [f for f in failing if pkg.host_of(f.path) == host]
        own = tuple(m.rel for m in pkg.manifests if m.host == host)
        reason = REASONS.get(mine[0].rule, mine[0].rule) if mine else None
        out[host] = HostVerdict(host, "fail" if mine else "pass", reason, own)
    return out


def line(verdicts_: dict[str, HostVerdict]) -> str:
    """`packaging: claude ✓, codex ✗ (manifest in the wrong folder), copilot – (no manifest)`."""
    return "packaging: " + ", ".join(v.text() for v in verdicts_.values()) if verdicts_ else ""
