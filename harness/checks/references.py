"""Internal references: every relative link, root-relative link and anchor in the skills' markdown
(and the --docs markdown) must land on a file, and on a heading or id, inside the repository."""

from __future__ import annotations

import difflib
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urldefrag, urlsplit

from markdown_it import MarkdownIt

from harness import findings, links
from harness.catalog import Catalog
from harness.checks import CheckOptions
from harness.errors import UsageError
from harness.files import UnreadableFile, read_text
from harness.findings import Finding
from harness.links import Document, Reference

MARKDOWN_SUFFIXES = (".md", ".markdown")
LINE_ANCHOR = re.compile(r"^L\d+(C\d+)?(-L\d+(C\d+)?)?$")
GITHUB_ID_PREFIX = "user-content-"


@dataclass(frozen=True)
class Source:
    """A markdown file to read: where it is, how reports name it, and the skill folder holding it."""

    path: Path
    rel: str
    skill_dir: Path | None = None


@dataclass(frozen=True)
class Target:
    """What the file system says about a resolved target; `real` has every symlink resolved."""

    real: Path
    exists: bool
    is_file: bool


@dataclass(frozen=True)
class ExternalUse:
    url: str
    path: str
    line: int


@dataclass
class Scan:
    """What the internal pass saw: its findings, and the external URLs it leaves to the network."""

    files: int = 0
    internal: int = 0
    findings: list[Finding] = field(default_factory=list)
    external: list[ExternalUse] = field(default_factory=list)


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    """The internal half, as a structural check; an unreadable SKILL.md is already skill-md's finding."""
    skill_mds = {catalog.repo.rel(skill.skill_md) for skill in catalog.skills.values()}
    return [f for f in scan(catalog, options.docs).findings
            if not (f.rule == "ref-unreadable" and f.path in skill_mds)]


def scan(catalog: Catalog, docs: tuple[str, ...] | list[str] = ()) -> Scan:
    root = catalog.repo.root
    sources, result = collect_sources(catalog, docs)
    resolver = Resolver(root)
    for source in sources:
        document = resolver.document(source.path, source.rel, result.findings)
        if document is None:
            continue
        result.files += 1
        for ref in document.references:
            kind = links.classify(ref.target)
            if kind == links.EXTERNAL:
                result.external.append(ExternalUse(external_url(ref.target), source.rel, ref.line))
            elif kind == links.INTERNAL:
                result.internal += 1
                result.findings.extend(resolver.resolve(source, document, ref))
    result.findings = findings.ordered(result.findings)
    return result


def external_url(target: str) -> str:
    """Scheme-relative URLs are fetched over https; the fragment is the browser's business."""
    url = urldefrag(target).url
    return f"https:{url}" if url.startswith("//") else url


def collect_sources(catalog: Catalog, docs: tuple[str, ...] | list[str]) -> tuple[list[Source], Scan]:
    """Every markdown file under each selected skill (hidden folders skipped), then the --docs globs;
    a glob matching no markdown file is a finding rather than a silent no-op."""
    repo = catalog.repo
    chosen: dict[Path, Source] = {}
    result = Scan()
    for skill in catalog.skills.values():
        for path in markdown_under(skill.path):
            chosen.setdefault(path, Source(path, repo.rel(path), skill.path))
    for pattern in docs:
        if Path(pattern).is_absolute() or ".." in PurePosixPath(pattern).parts:
            raise UsageError(f"--docs: '{pattern}' must be a glob relative to the repo root.")
        matched = [p for p in sorted(repo.root.glob(pattern)) if p.is_file() and is_markdown(p)]
        if not matched:
            result.findings.append(findings.error(
                "docs-unmatched", ".", f"--docs '{pattern}' matches no markdown file; fix the glob "
                "(root-relative, such as docs/**/*.md) or drop it."))
        for path in matched:
            chosen.setdefault(path, Source(path, repo.rel(path)))
    return sorted(chosen.values(), key=lambda s: s.rel), result


def markdown_under(folder: Path) -> list[Path]:
    found = []
    for current, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(Path(current) / name for name in sorted(files) if is_markdown(Path(name)))
    return found


def is_markdown(path: Path) -> bool:
    return path.suffix.lower() in MARKDOWN_SUFFIXES


def is_line_anchor(fragment: str) -> bool:
    return bool(LINE_ANCHOR.match(fragment))


class Resolver:
    """Resolves internal targets against the repo, parsing each markdown file at most once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.real_root = Path(os.path.realpath(root))
        self.md: MarkdownIt = links.parser()
        self.documents: dict[Path, Document | None] = {}
        self.targets: dict[Path, Target] = {}
        self.real_dirs: dict[Path, Path] = {}

    def document(self, path: Path, rel: str, out: list[Finding]) -> Document | None:
        """The parsed file, or None with a finding saying why it cannot be read."""
        key = Path(os.path.normpath(path))
        if key not in self.documents:
            self.documents[key] = None
            try:
                self.documents[key] = links.parse(read_text(path), self.md)
            except UnreadableFile as exc:
                out.append(findings.error("ref-unreadable", rel, f"cannot be read: {exc.reason}."))
            except Exception as exc:  # noqa: BLE001 - a parser bug on odd input must stay a finding
                out.append(findings.error("ref-unparsable", rel, f"the markdown parser failed on this "
                                          f"file ({type(exc).__name__}); simplify its markup."))
        return self.documents[key]

    def resolve(self, source: Source, document: Document, ref: Reference) -> list[Finding]:
        split = urlsplit(ref.target)
        path_part, fragment = unquote(split.path), unquote(split.fragment)
        if not path_part:
            return self.check_anchor(source, ref, source.path, source.rel, document, fragment)
        if path_part.startswith("/"):
            target = Path(os.path.normpath(self.root / path_part.lstrip("/")))
        else:
            target = Path(os.path.normpath(source.path.parent / path_part))
        facts = self.target(target)
        if not facts.real.is_relative_to(self.real_root):
            return [findings.error(
                "ref-outside-repo", source.rel, f"`{ref.target}` leads outside the repository, where "
                "no reader of this repo can follow it; link to a file inside the repo or to a full URL.",
                ref.line)]
        rel = self.rel(target)
        if not facts.exists:
            return [findings.error(
                "ref-missing-file", source.rel, f"`{ref.target}` points at `{rel}`, which does not exist; "
                "fix the path or restore the file.", ref.line)]
        out = []
        if source.skill_dir is not None and not facts.real.is_relative_to(self.real_dir(source.skill_dir)):
            out.append(findings.warning(
                "ref-outside-skill", source.rel, f"`{ref.target}` leaves the skill folder "
                f"`{self.rel(source.skill_dir)}`, and an installed skill carries only its own folder; "
                "copy the file into the skill or link to it by full URL.", ref.line))
        if fragment and facts.is_file and is_markdown(target):
            linked = self.document(target, rel, out)
            if linked is not None:
                out.extend(self.check_anchor(source, ref, target, rel, linked, fragment))
        return out

    def check_anchor(self, source: Source, ref: Reference, target: Path, rel: str, document: Document,
                     fragment: str) -> list[Finding]:
        if not fragment or is_line_anchor(fragment):
            return []
        wanted = fragment.removeprefix(GITHUB_ID_PREFIX)
        if document.has_anchor(wanted):
            return []
        hint = closest_anchor(wanted, document.anchors)
        fix = f"did you mean `#{hint}`?" if hint else "fix the anchor or the heading it names."
        lead = "" if target == source.path else f"`{ref.target}`: "
        where = "this file" if target == source.path else f"`{rel}`"
        return [findings.error(
            "ref-missing-anchor", source.rel, f"{lead}no heading or id in {where} has the anchor "
            f"`#{fragment}`; {fix}", ref.line)]

    def target(self, path: Path) -> Target:
        """Looked up once per path: many links share a target, and realpath is a syscall per part."""
        if path not in self.targets:
            try:
                mode = os.lstat(path).st_mode
            except OSError:
                mode = None
            if mode is not None and stat.S_ISLNK(mode):
                real = Path(os.path.realpath(path))
            else:
                real = self.real_dir(path.parent) / path.name
            self.targets[path] = Target(real, os.path.exists(real), os.path.isfile(real))
        return self.targets[path]

    def real_dir(self, folder: Path) -> Path:
        if folder not in self.real_dirs:
            self.real_dirs[folder] = Path(os.path.realpath(folder))
        return self.real_dirs[folder]

    def rel(self, path: Path) -> str:
        return Path(os.path.relpath(path, self.root)).as_posix()


def closest_anchor(wanted: str, anchors: set[str]) -> str | None:
    near = difflib.get_close_matches(wanted.lower(), sorted(anchors), n=1, cutoff=0.6)
    return near[0] if near else None
