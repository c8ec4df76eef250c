"""A skill's files as the security rules read them: every file under the skill folder (its evals/ aside,
which no agent is given) read once, sorted into text the rules scan, opaque files they cannot, and files
they could not read whole. Nothing is dropped: what is not scanned is said to be so."""

from __future__ import annotations

import bisect
import hashlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from pathlib import Path

from harness.files import UnreadableFile, git_listed, read_bytes, refused
from harness.model import findings
from harness.model.findings import Finding
from harness.model.skill import Skill
from harness.model.skill_tree import SkillTree

MAX_SCAN_BYTES = 5 * 1024 * 1024  # as the skill reader's own bound: larger is not hand-written text
# A bytecode file's PEP 552 flags: checked against its source's time, or its hash; or run unchecked.
TIME_CHECKED, HASH_CHECKED, UNCHECKED = 0, 0b11, 0b01
MAX_FILES = 5000  # a folder holding more is not a skill someone reads; the rest is reported unscanned
LEFT_OUT = frozenset({"evals"})  # the answer key: installed nowhere, so read by no agent
MARKDOWN = frozenset({".md", ".markdown", ".mdx", ".mdc"})
# The characters re's IGNORECASE takes for an ASCII letter whose lowercase is not that letter: a cue test
# on text lowered without them would skip a file the rule's own pattern matches (`ıgnore ... instructions`).
FOLDS = str.maketrans({"İ": "i", "ı": "i", "ſ": "s"})
LOWERED = (
    "; reported lower, not gated: it lies in a fenced example of a skill whose description is about "
    "security, which quotes such patterns to teach them"
)


# Words of a description that make quoted attack patterns the skill's subject rather than its payload.
@cache
def security_topic() -> re.Pattern[str]:  # compiled on first use: a remembered scan never needs it
    return re.compile(
        r"\b(security|secure|vulnerabilit\w*|exploit\w*|malware|malicious|threat\w*|attack\w*|audit\w*|"
        r"pentest\w*|penetration|injection|cve|owasp|forensic\w*|fuzz\w*|red[- ]team\w*|hardening|"
        r"sanitiz\w*|phishing|secrets?|supply[- ]chain|incident response|sast|dast|semgrep|codeql)\b",
        re.IGNORECASE,
    )


@cache  # per cue list, once: the rules pass the same few tuples for every text
def split_cues(cues: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    """The cues without whitespace, and those with it beside their words."""
    plain = tuple(cue for cue in cues if cue.split() == [cue])
    return plain, tuple((cue, tuple(cue.split())) for cue in cues if cue not in plain)


def folded(text: str) -> str:
    """`text` lowercased as the cue tests compare it: every letter re's IGNORECASE matches to an ASCII
    letter becomes that letter (FOLDS; ASCII text has none)."""
    if not text.isascii() and any(char in text for char in "İıſ"):  # translate costs ~0.1 µs a character
        text = text.translate(FOLDS)
    return text.lower()


class Seen:
    """What the rules' patterns found in each text of one run, by the text's digest: a catalog that ships
    the same file in several skills (anthropics/skills carries its XSD schemas three times) is searched
    once, and each copy's findings are still made at its own path. A pattern's matches depend only on
    the pattern and the string, so a copy gets exactly what a search of its own would find. Keyed by
    digest, the store keeps no text alive but those with a match."""

    def __init__(self) -> None:
        self.found: dict[tuple[re.Pattern[str], bytes], tuple[re.Match[str], ...]] = {}
        self.first: dict[tuple[re.Pattern[str], bytes], re.Match[str] | None] = {}
        self.held: dict[tuple[tuple[str, ...], bytes], bool] = {}


@dataclass(frozen=True)
class TextFile:
    """One file of the skill read as UTF-8 text. `rel` is root-relative; `first_line` is the line of
    `text`'s first character in the file (SKILL.md's body starts below its frontmatter). `seen` is the
    run's store of pattern searches, shared by every file of every skill the run scans."""

    rel: str
    name: str
    text: str
    seen: Seen = field(default_factory=Seen, compare=False, repr=False)

    @cached_property
    def markdown(self) -> bool:
        return Path(self.name).suffix.lower() in MARKDOWN

    @cached_property
    def digest(self) -> bytes:
        return hashlib.blake2b(self.text.encode("utf-8"), digest_size=16).digest()

    @cached_property
    def lower(self) -> str:
        """The text as a cue with whitespace is looked for in it: folded, each whitespace run one space,
        as the patterns allow any run between those words (a line wrapped between "no" and "longer")."""
        return " ".join(folded(self.text).split())

    @cached_property
    def words(self) -> frozenset[str]:
        """The distinct whitespace-separated words, for every rule that looks within words: prose
        repeats its words, so there are a fraction as many (the split list itself is not kept)."""
        return frozenset(self.text.split())

    @cached_property
    def vocabulary(self) -> str:
        """Each distinct word once, lowercase, space-separated: a cue without whitespace lies within one
        word, so it occurs here exactly when it occurs in `lower`, a string several times as long."""
        return folded(" ".join(self.words))

    def holds_any(self, cues: tuple[str, ...]) -> bool:
        """Whether any cue (lowercase) occurs in `lower`: a substring search skips the files a rule's
        patterns cannot match, which keeps the pack's cost near that of reading the files."""
        key = (cues, self.digest)
        if key not in self.seen.held:
            plain, spaced = split_cues(cues)
            within = self.vocabulary.__contains__  # mapped in C, without a Python frame per cue
            # a cue holding whitespace spans words: each of its words must be here before `lower` is read
            self.seen.held[key] = any(map(within, plain)) or any(
                all(map(within, words)) and cue in self.lower for cue, words in spaced
            )
        return self.seen.held[key]

    def finditer(self, pattern: re.Pattern[str]) -> tuple[re.Match[str], ...]:
        """`pattern`'s matches in the text, found once per run for each distinct text."""
        key = (pattern, self.digest)
        if key not in self.seen.found:
            self.seen.found[key] = tuple(pattern.finditer(self.text))
        return self.seen.found[key]

    def search(self, pattern: re.Pattern[str]) -> re.Match[str] | None:
        """`pattern`'s first match in the text, found once per run for each distinct text."""
        key = (pattern, self.digest)
        if key not in self.seen.first:
            self.seen.first[key] = pattern.search(self.text)
        return self.seen.first[key]

    @cached_property
    def line_starts(self) -> list[int]:
        return [0, *(match.end() for match in re.finditer("\n", self.text))]

    def line_at(self, offset: int) -> int:
        """The 1-based line holding character `offset`."""
        return bisect.bisect_right(self.line_starts, offset)

    @cached_property
    def fenced_lines(self) -> tuple[tuple[int, int], ...]:
        """The 1-based line spans (first, last) of the fenced code blocks, as CommonMark reads them."""
        if not self.markdown or ("```" not in self.text and "~~~" not in self.text):
            return ()
        from harness.markdown.sections import parser  # markdown-it only for a file that has a fence

        return tuple(
            (token.map[0] + 1, token.map[1])
            for token in parser().parse(self.text)
            if token.type == "fence" and token.map
        )

    def in_fence(self, line: int) -> bool:
        return any(first <= line <= last for first, last in self.fenced_lines)


@dataclass
class SkillContent:
    """What the security rules see of one skill."""

    skill: Skill
    rel: str  # the skill folder, root-relative
    skill_md: str  # its SKILL.md, root-relative
    texts: list[TextFile] = field(default_factory=list)
    # root-relative path -> (its first bytes, why it is not text): binaries and undecodable files
    undecoded: dict[str, tuple[bytes, str]] = field(default_factory=dict)
    # root-relative path -> why it could not be read at all (too large, not a regular file, too many)
    unread: dict[str, str] = field(default_factory=dict)
    # root-relative paths of the byte-code Python cached from a source beside it, which git ignores and
    # does not track: made by running the skill's scripts, and never shipped (see `local_cache`)
    caches: frozenset[str] = frozenset()

    @cached_property
    def about_security(self) -> bool:
        return bool(security_topic().search(self.skill.description))

    @property
    def words(self) -> str:
        """What the skill says of itself: its description and its instructions."""
        return f"{self.skill.description}\n{self.skill.body}"

    def scripts(self) -> list[TextFile]:
        return [text for text in self.texts if not text.markdown and text.name != "SKILL.md"]

    def matched(
        self,
        rule: str,
        patterns: list[tuple[re.Pattern[str], tuple[str, ...]]],
        say: Callable[[int, str], str],
        unless: Callable[[re.Match[str]], bool] = lambda match: False,
    ) -> list[Finding]:
        """A warning of `rule` at each match of each pattern in a file holding one of its cues (a cheap
        test before the regex), file by file, but for the matches `unless` excuses; `say(line, quoted
        words)` is its message."""
        from harness.checks.security.phrases import quoted  # the phrase patterns only when a rule reads

        out = []
        for text in self.texts:
            for pattern, cues in patterns:
                if not text.holds_any(cues):
                    continue
                for match in text.finditer(pattern):
                    if unless(match):
                        continue
                    line = text.line_at(match.start())
                    made = findings.warning(rule, text.rel, say(line, quoted(match)), line)
                    out.append(self.finding(made, text))
        return out

    def per_text(self, read: Callable[[SkillContent, TextFile], list[Finding]]) -> list[Finding]:
        """`read`'s findings in every text file, in order: the loop of the rules that read file by file."""
        return [finding for text in self.texts for finding in read(self, text)]

    def warning_at(self, rule: str, text: TextFile, at: int, say: Callable[[int], str]) -> Finding:
        """A warning of `rule` on the line of `text` holding character `at`, `say(line)` its message,
        lowered where `finding` says so."""
        line = text.line_at(at)
        return self.finding(findings.warning(rule, text.rel, say(line), line), text)

    def finding(self, made: Finding, text: TextFile) -> Finding:
        """`made` lowered when it lies in a fenced example of a skill about security: still reported,
        with the reason, but never raised to an error."""
        if self.about_security and made.line and text.in_fence(made.line):
            return replace(made, message=made.message + LOWERED, lowered=True)
        return made


def load(
    skill: Skill,
    rel: Callable[[str | os.PathLike[str]], str],
    searches: Seen | None = None,
    tree: SkillTree | None = None,
) -> SkillContent:
    """Every file of `skill`'s folder (links are not followed: the symlink rules report them), its
    texts sharing `searches`, the run's store of pattern searches (one of their own when None), as
    `tree` lists the folder (the run's listing; listed here when None)."""
    content = SkillContent(skill=skill, rel=rel(skill.path), skill_md=rel(skill.skill_md))
    searches = Seen() if searches is None else searches
    tree = SkillTree(skill.path) if tree is None else tree
    seen = 0
    cached: dict[str, str] = {}  # skill-relative path -> root-relative, of each local_cache candidate
    for step in tree.walk(skip=LEFT_OUT):
        if isinstance(step, OSError):  # a folder that cannot be listed is not scanned, and said so
            content.unread[rel(step.filename)] = refused(step.filename, step)
            continue
        here = Path(step.path)
        for name in step.files:
            path = here / name
            try:
                if path.is_symlink():
                    continue
            except OSError as exc:
                content.unread[rel(path)] = refused(path, exc)
                continue
            seen += 1
            where = rel(path)
            if seen > MAX_FILES:
                content.unread[where] = f"the skill holds more than {MAX_FILES} files; the rest were not read"
                return content
            read_one(content, path, where, searches)
            if where in content.undecoded and local_cache(path, content.undecoded[where][0]):
                cached[path.relative_to(skill.path).as_posix()] = where
    ignored = ignored_untracked(skill.path, list(cached))
    content.caches = frozenset(cached[name] for name in ignored)
    return content


def ignored_untracked(folder: Path, names: list[str]) -> frozenset[str]:
    """The `names` (relative to `folder`, with /) that git ignores and does not track: what no commit
    carries. None when there are none to ask about (git never starts), or git cannot say: what git
    cannot speak for is treated as shipped."""
    if not names:
        return frozenset()
    listed = git_listed(folder, "--others", "--ignored", "--exclude-standard", "--", *names, literal=True)
    return frozenset(listed or ()) & frozenset(names)


def local_cache(path: Path, head: bytes) -> bool:
    """Whether `path` is what Python writes when it imports the source beside it (PEP 3147:
    `__pycache__/<module>.<tag>[.opt-N].pyc` next to `<module>.py`), stamped with that source's time or
    checked hash (PEP 552), so Python reads it only while it matches the source. An unchecked-hash file
    runs whatever the source says, and a file without its source is all there is: neither is a cache."""
    if path.parent.name != "__pycache__" or path.suffix != ".pyc":
        return False
    source = path.parent.parent / f"{path.name.partition('.')[0]}.py"
    return bytecode_flags(head) in (TIME_CHECKED, HASH_CHECKED) and source.is_file()


def bytecode_flags(head: bytes) -> int | None:
    """The PEP 552 flags of a CPython bytecode file (TIME_CHECKED, HASH_CHECKED or UNCHECKED); None when
    `head` is no such file's (the marshal magic of every version ends in CR LF)."""
    return int.from_bytes(head[4:8], "little") if head[2:4] == b"\r\n" else None


def read_one(content: SkillContent, path: Path, where: str, searches: Seen) -> None:
    try:
        data = read_bytes(path, MAX_SCAN_BYTES, follow_links=False)
    except UnreadableFile as exc:
        content.unread[where] = exc.reason
        return
    reason = undecodable(data)
    if reason:
        content.undecoded[where] = (data[:16], reason)
        return
    text = data.decode("utf-8").removeprefix("\ufeff")
    content.texts.append(TextFile(rel=where, name=path.name, text=text, seen=searches))


def undecodable(data: bytes) -> str:
    """Why `data` is not UTF-8 text the rules can read (empty when it is)."""
    if utf16(data):
        return "it is UTF-16 text, which agents read but this scan and most tools do not; save it as UTF-8"
    if b"\0" in data:
        return "it holds NUL bytes, so it is binary"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return f"it is not valid UTF-8 (line {line}); save it as UTF-8"
    return ""


def utf16(data: bytes) -> bool:
    """A byte-order mark, or text whose every other byte is NUL (ASCII written as UTF-16 without one)."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return True
    head = data[:64]
    if len(head) < 8:
        return False
    odd, even = head[1::2], head[0::2]
    return (odd.count(0) == len(odd) and 0 not in even) or (even.count(0) == len(even) and 0 not in odd)
