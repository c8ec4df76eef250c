"""Internal references: every relative link, root-relative link and anchor in the skills' markdown
(and the --docs markdown) must land on a file, and on a heading or id, inside the repository."""

from __future__ import annotations

import os
import posixpath
import re
import stat
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urldefrag, urlsplit

from harness import workers
from harness.checks import CheckOptions
from harness.errors import UsageError
from harness.files import RealPaths, UnreadableFile, read_text, rel_to, within
from harness.markdown import budget, links
from harness.markdown.links import Document, Reference
from harness.memo import Memo
from harness.model import findings
from harness.model.catalog import Catalog
from harness.model.findings import Finding
from harness.model.repo import Repo

MARKDOWN_SUFFIXES = (".md", ".markdown")
LINE_ANCHOR = re.compile(r"^L\d+(C\d+)?(-L\d+(C\d+)?)?$")
GITHUB_ID_PREFIX = "user-content-"
PATH_MAX = 4096  # bytes, Linux's limit for a path handed to a system call
LINKS = "links"  # the parse memo's kind for parsed markdown
WARM_CHUNKS_PER_WORKER = 2  # chunks per worker once the repo has a parse memo (see scan_ahead)
SKILLS_AHEAD = 50  # skills (about 4 markdown files each) before parsing in worker processes pays


def is_reference_rule(rule: str) -> bool:
    """Whether `refs` checks this rule: the rules of the links and URLs it checks are all ref-*, so
    a baseline entry of another rule (a structural one) is not one refs could see fixed."""
    return rule.startswith("ref-")


@dataclass(frozen=True)
class Source:
    """A markdown file to read: where it is, how reports name it, and the skill folder holding it (paths
    as strings: a catalog has tens of thousands of links, and a Path costs more than the look-ups)."""

    path: str
    rel: str
    skill_dir: str | None = None


@dataclass(frozen=True)
class Target:
    """What the file system says about a resolved target; `real` has every symlink resolved."""

    real: str
    exists: bool
    is_file: bool
    denied: bool = False  # the system refused to look (EACCES): neither there nor missing


@dataclass(frozen=True)
class ExternalUse:
    """An external URL and the line linking to it."""

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


@dataclass(frozen=True)
class Failure:
    """Why a file yields no document: the finding's rule and message."""

    rule: str
    message: str
    line: int | None = None


@dataclass
class FileScan:
    """One markdown file's share of a scan, small enough to come back from a worker process."""

    rel: str
    read: bool  # False when the file could not be read or parsed; its finding says why
    internal: int = 0
    findings: list[Finding] = field(default_factory=list)
    external: list[ExternalUse] = field(default_factory=list)
    learned: dict[str, object] = field(default_factory=dict)  # parse memo entries this scan made


def check(catalog: Catalog, options: CheckOptions, ahead: workers.Prefetch | None = None) -> list[Finding]:
    """The internal half, as a structural check; an unreadable SKILL.md is already skill-md's finding."""
    skill_mds = {catalog.repo.rel(skill.skill_md) for skill in catalog.skills.values()}
    return [
        f
        for f in scan(catalog, options.docs, ahead).findings
        if not (f.rule == "ref-unreadable" and f.path in skill_mds and f.line is None)
    ]


def scan_ahead(repo: Repo) -> workers.Prefetch:
    """Starts scanning the markdown of every skill the repo holds in worker processes (large catalogs
    only), to be collected by `scan`; a skill it did not cover is scanned then, in-process."""
    skills = [(os.fspath(repo.skill_dirs[name]), repo.rel(repo.skill_dirs[name])) for name in repo.names]
    salt = links.parser_fingerprint()  # worked out once here, not once per chunk
    first = not Memo.file_of(repo.root, LINKS).exists()
    if first and len(skills) > SKILLS_AHEAD:
        # A first run parses every file: the parser is imported once here, and the forked workers
        # inherit it, rather than each importing it again.
        links.preload()
    # Each chunk reads the parse memo whole. Once it holds the files, a chunk is mostly that read and
    # the links' look-ups, even from skill to skill: a few large chunks keep the cores as busy as many
    # small ones, and read the memo a quarter as often.
    per_worker = workers.CHUNKS_PER_WORKER if first else WARM_CHUNKS_PER_WORKER
    return workers.Prefetch(partial(scan_skills, repo.root, salt), skills, SKILLS_AHEAD, per_worker)


def scan_skills(root: Path, salt: str, skills: list[tuple[str, str]]) -> dict[str, dict[str, FileScan]]:
    """{folder: {path: FileScan}} for (folder, root-relative name) pairs: one chunk of the pool's work.
    The worker reads the parse memo (salted with `salt`, see links_memo) and hands its new entries back
    for the caller to keep."""
    resolver = Resolver(root, Memo.of_repo(root, LINKS, salt))
    return {folder: scan_skill(resolver, folder, prefix) for folder, prefix in skills}


def scan_skill(resolver: Resolver, folder: str, prefix: str) -> dict[str, FileScan]:
    """Every markdown file under a skill folder (hidden folders skipped), keyed by normalized path."""
    scans = {}
    for path in markdown_files(folder):
        scans[os.path.normpath(path)] = found = scan_file(
            resolver, Source(path, rel_under(prefix, folder, path), folder)
        )
        if resolver.memo is not None:
            found.learned = resolver.memo.take_added()
    return scans


def scan_file(resolver: Resolver, source: Source) -> FileScan:
    out = FileScan(source.rel, read=False)
    document = resolver.document(source.path, source.rel, out.findings)
    if document is None:
        return out
    out.read = True
    for ref in document.references:
        kind = links.classify(ref.target)
        if kind == links.EXTERNAL:
            out.external.append(ExternalUse(external_url(ref.target), source.rel, ref.line))
        elif kind == links.INTERNAL:
            out.internal += 1
            out.findings.extend(resolver.resolve(source, document, ref))
    return out


def scan(
    catalog: Catalog, docs: tuple[str, ...] | list[str] = (), ahead: workers.Prefetch | None = None
) -> Scan:
    """Every selected skill's markdown (from `ahead` where it covered them), then the --docs files."""
    repo = catalog.repo
    scanned = ahead.results() if ahead is not None else {}
    resolver = Resolver(repo.root, links_memo(repo.root))
    files: dict[str, FileScan] = {}  # a file under two selected skill folders counts for the first
    for skill in catalog.skills.values():
        folder = os.fspath(skill.path)
        part = scanned[folder] if folder in scanned else scan_skill(resolver, folder, repo.rel(skill.path))
        for path, file_scan in part.items():
            files.setdefault(path, file_scan)
            if file_scan.learned and resolver.memo is not None:
                resolver.memo.learn(file_scan.learned)
    result = Scan()
    for source in doc_sources(repo, docs, result.findings):
        key = os.path.normpath(source.path)
        if key not in files:
            files[key] = scan_file(resolver, source)
    for file_scan in sorted(files.values(), key=lambda f: f.rel):
        result.files += file_scan.read
        result.internal += file_scan.internal
        result.findings.extend(file_scan.findings)
        result.external.extend(file_scan.external)
    # ordered() drops repeats: a file unreadable as a target in one worker and a source in another
    result.findings = findings.ordered(result.findings)
    if resolver.memo is not None:
        resolver.memo.save()
    return result


def links_memo(root: Path) -> Memo:
    """The repo's memo of parsed markdown, salted with the code that parses it: an edit to the
    extraction or an upgraded parser retires every entry."""
    return Memo.of_repo(root, LINKS, links.parser_fingerprint())


def read(path: str | os.PathLike[str], reader: links.Parser, memo: Memo | None = None) -> Document | Failure:
    """The file's references and anchors; from the memo when a file of the same content was parsed
    before (the parse is a function of the text alone)."""
    try:
        text = read_text(path)
    except UnreadableFile as exc:
        return Failure("ref-unreadable", f"cannot be read: {exc.reason}.")
    key = memo.key(text) if memo is not None else ""
    known = memo.get(key) if memo is not None else None
    if isinstance(known, dict):  # what to_memo made (JSON keeps nothing else under this key)
        return from_memo(known)
    try:
        outcome = parse(text, reader)
    except Exception as exc:  # noqa: BLE001 - a parser bug on odd input must stay a finding (not memoized)
        return Failure(
            "ref-unparsable",
            f"the markdown parser failed on this file ({type(exc).__name__}); simplify its markup.",
        )
    if memo is not None:
        memo.put(key, to_memo(outcome))
    return outcome


def parse(text: str, reader: links.Parser) -> Document | Failure:
    try:
        return links.parse(text, reader)
    except budget.TooManyLinkMarks as exc:
        return Failure(
            "ref-unparsable",
            f"holds {exc}, more than a hand-written page needs and too many to parse in reasonable "
            "time; its links are not checked, so split the file or drop the stray brackets.",
            exc.line,
        )


def to_memo(outcome: Document | Failure) -> dict:
    if isinstance(outcome, Failure):
        return {"failure": [outcome.rule, outcome.message, outcome.line]}
    return {
        "references": [[ref.target, ref.line, ref.kind] for ref in outcome.references],
        "anchors": sorted(outcome.anchors),
    }


def from_memo(entry: dict) -> Document | Failure:
    if "failure" in entry:
        return Failure(*entry["failure"])
    return Document(
        [Reference(target, line, kind) for target, line, kind in entry["references"]], set(entry["anchors"])
    )


def external_url(target: str) -> str:
    """Scheme-relative URLs are fetched over https; the fragment is the browser's business."""
    url = urldefrag(target).url
    return f"https:{url}" if url.startswith("//") else url


def doc_sources(repo: Repo, docs: tuple[str, ...] | list[str], out: list[Finding]) -> list[Source]:
    """The markdown files the --docs globs match; a glob matching none is a finding, not a silent no-op."""
    chosen: dict[Path, Source] = {}
    for pattern in docs:
        if Path(pattern).is_absolute() or ".." in PurePosixPath(pattern).parts:
            raise UsageError(f"--docs: '{pattern}' must be a glob relative to the repo root.")
        matched = [p for p in sorted(repo.root.glob(pattern)) if p.is_file() and is_markdown(p)]
        if not matched:
            out.append(
                findings.error(
                    "docs-unmatched",
                    ".",
                    f"--docs '{pattern}' matches no markdown file; fix the glob "
                    "(root-relative, such as docs/**/*.md) or drop it.",
                )
            )
        for path in matched:
            chosen.setdefault(path, Source(os.fspath(path), repo.rel(path)))
    return list(chosen.values())


def rel_under(prefix: str, folder: str, path: str) -> str:
    """The root-relative name of a file `markdown_files(folder)` found (`folder` being named `prefix`),
    cut from the walked path rather than asking relpath for each of thousands of files."""
    return posixpath.normpath(posixpath.join(prefix, path[len(folder) + 1 :].replace(os.sep, "/")))


def markdown_files(folder: str) -> list[str]:
    """Markdown files under `folder`, hidden folders skipped, in walk order (as strings: a catalog has
    thousands, and a Path per file costs more than the walk)."""
    found: list[str] = []
    for current, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(
            os.path.join(current, name) for name in sorted(files) if name.lower().endswith(MARKDOWN_SUFFIXES)
        )
    return found


def is_markdown(path: Path) -> bool:
    return path.suffix.lower() in MARKDOWN_SUFFIXES


def is_line_anchor(fragment: str) -> bool:
    return bool(LINE_ANCHOR.match(fragment))


class Resolver:
    """Resolves internal targets against the repo, parsing each markdown file at most once. Paths are
    plain normalized strings here: a catalog has tens of thousands of links, and pathlib objects cost
    more than the lookups themselves."""

    def __init__(self, root: Path, memo: Memo | None = None) -> None:
        self.root = root
        self.memo = memo
        self.root_str = os.path.normpath(root)
        self.real_root = os.path.realpath(root)
        self.reader = links.Parser()
        self.documents: dict[str, Document | None] = {}
        self.targets: dict[str, Target] = {}
        self.real_dir = RealPaths()
        self.rels: dict[str, str] = {}
        self.splits: dict[str, tuple[str, str]] = {}

    def document(self, path: Path | str, rel: str, out: list[Finding]) -> Document | None:
        """The parsed file, or None with a finding saying why it cannot be read."""
        key = os.path.normpath(path)
        if key not in self.documents:
            outcome = read(path, self.reader, self.memo)
            if isinstance(outcome, Failure):
                out.append(findings.error(outcome.rule, rel, outcome.message, outcome.line))
            self.documents[key] = None if isinstance(outcome, Failure) else outcome
        return self.documents[key]

    def split(self, target: str) -> tuple[str, str]:
        """(path, fragment), percent-decoded; the same target string recurs across a catalog."""
        if target not in self.splits:
            parts = urlsplit(target)
            self.splits[target] = (unquote(parts.path), unquote(parts.fragment))
        return self.splits[target]

    def resolve(self, source: Source, document: Document, ref: Reference) -> list[Finding]:
        path_part, fragment = self.split(ref.target)
        if not path_part:
            return self.check_anchor(source, ref, source.path, source.rel, document, fragment)
        if path_part.startswith("/"):
            target = os.path.normpath(os.path.join(self.root_str, path_part.lstrip("/")))
        else:
            target = os.path.normpath(os.path.join(os.path.dirname(source.path), path_part))
        facts = self.target(target)
        if not within(facts.real, self.real_root):
            return [
                findings.error(
                    "ref-outside-repo",
                    source.rel,
                    f"`{ref.target}` leads outside the repository, where "
                    "no reader of this repo can follow it; link to a file inside the repo or to a full URL.",
                    ref.line,
                )
            ]
        rel = self.rel(target)
        if facts.denied:
            return [
                findings.error(
                    "ref-unreadable",
                    source.rel,
                    f"`{ref.target}` points at `{rel}`, which cannot be read: permission denied; "
                    "fix the permissions of the file or the folders above it.",
                    ref.line,
                )
            ]
        if not facts.exists:
            return [
                findings.error(
                    "ref-missing-file",
                    source.rel,
                    f"`{ref.target}` points at `{rel}`, which does not exist; "
                    "fix the path or restore the file.",
                    ref.line,
                )
            ]
        out = []
        skill_dir = source.skill_dir
        if skill_dir is not None and not within(facts.real, self.real_dir(skill_dir)):
            out.append(
                findings.warning(
                    "ref-outside-skill",
                    source.rel,
                    f"`{ref.target}` leaves the skill folder "
                    f"`{self.rel(os.path.normpath(skill_dir))}`, and an installed skill carries only its "
                    "own folder; copy the file into the skill or link to it by full URL.",
                    ref.line,
                )
            )
        if fragment and facts.is_file and target.lower().endswith(MARKDOWN_SUFFIXES):
            linked = self.document(target, rel, out)
            if linked is not None:
                out.extend(self.check_anchor(source, ref, target, rel, linked, fragment))
        return out

    def check_anchor(
        self, source: Source, ref: Reference, target: str, rel: str, document: Document, fragment: str
    ) -> list[Finding]:
        if not fragment or is_line_anchor(fragment):
            return []
        wanted = fragment.removeprefix(GITHUB_ID_PREFIX)
        if document.has_anchor(wanted):
            return []
        hint = closest_anchor(wanted, document.anchors)
        fix = f"did you mean `#{hint}`?" if hint else "fix the anchor or the heading it names."
        same = target == source.path
        lead = "" if same else f"`{ref.target}`: "
        where = "this file" if same else f"`{rel}`"
        return [
            findings.error(
                "ref-missing-anchor",
                source.rel,
                f"{lead}no heading or id in {where} has the anchor `#{fragment}`; {fix}",
                ref.line,
            )
        ]

    def target(self, path: str) -> Target:
        """Looked up once per path: many links share a target, and realpath is a syscall per part."""
        if path not in self.targets and len(os.fsencode(path)) > PATH_MAX:
            # No system call takes a path this long, so nothing is there; resolving it part by part
            # would cost time and memory quadratic in its length.
            under_root = path.startswith(self.root_str + os.sep)
            real = self.real_root + path[len(self.root_str) :] if under_root else path
            self.targets[path] = Target(real, False, False)
        if path not in self.targets:
            try:
                mode = os.lstat(path).st_mode
            except (OSError, ValueError):  # ValueError: a NUL in the name, which no file has
                mode = None
            if mode is not None and stat.S_ISLNK(mode):
                real = os.path.realpath(path)
            else:
                real = os.path.join(self.real_dir(os.path.dirname(path)), os.path.basename(path))
            self.targets[path] = target_facts(real)
        return self.targets[path]

    def rel(self, path: str) -> str:
        if path not in self.rels:
            self.rels[path] = rel_to(self.root_str, path)
        return self.rels[path]


def target_facts(real: str) -> Target:
    """One stat for what `os.path.exists` and `os.path.isfile` would each have asked."""
    try:
        mode = os.stat(real).st_mode
    except PermissionError:  # something may be there; a folder on the way is closed to us
        return Target(real, False, False, denied=True)
    except (OSError, ValueError):
        return Target(real, False, False)
    return Target(real, True, stat.S_ISREG(mode))


def closest_anchor(wanted: str, anchors: set[str]) -> str | None:
    import difflib  # only for a missing anchor

    near = difflib.get_close_matches(wanted.lower(), sorted(anchors), n=1, cutoff=0.6)
    return near[0] if near else None
