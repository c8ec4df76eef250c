"""Links and anchors of one markdown file, read with a CommonMark parser rather than line regexes.

`parse(text)` returns every reference the rendered page would follow (inline links and images,
reference definitions, autolinks, bare URLs, `href`/`src` in raw HTML), each with its exact source
line, and every anchor the page offers (GitHub heading slugs and HTML `id`/`name` attributes).
Code spans, code blocks and HTML comments never yield anything: they are illustrations.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from harness.markdown import budget

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

LINK = "link"
IMAGE = "image"
DEFINITION = "definition"
AUTOLINK = "autolink"
BARE_URL = "bare-url"
HTML = "html"

EXTERNAL = "external"
INTERNAL = "internal"
IGNORED = "ignored"

# Characters an inline rule could act on; text without them comes out of inline parsing unchanged.
PLAIN_BREAKERS = frozenset("\\`*_[]!<&\n")
# Inline rules that push the tokens whose source position we need; each is wrapped to record it.
# Each rule's name in the inline ruler, and its function's name in markdown_it.rules_inline.
POSITIONED_RULES = {
    "link": "link",
    "image": "image",
    "autolink": "autolink",
    "html_inline": "html_inline",
    "linkify": "linkify",
    "newline": "newline",
    "escape": "escape",
    "backticks": "backtick",
}
# What a paragraph can hold across a line end that hides or makes a reference (see `crosses_items`).
SPANNING = ("link_open", "image", "code_inline", "html_inline")
URL_ATTRIBUTES = ("href", "src")
ANCHOR_ATTRIBUTES = ("id", "name")
SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
FRONTMATTER_FENCE = "---"
CARRIAGE_RETURNS = re.compile(r"\r\n?")
NEWLINE = re.compile("\n")


@dataclass(frozen=True)
class Reference:
    """`target` as written (entities and backslash escapes resolved, nothing percent-encoded)."""

    target: str
    line: int
    kind: str


@dataclass
class Document:
    """What one markdown file holds for the link check: its references and anchors."""

    references: list[Reference] = field(default_factory=list)
    anchors: set[str] = field(default_factory=set)

    def has_anchor(self, fragment: str) -> bool:
        return fragment in self.anchors or fragment.lower() in {a.lower() for a in self.anchors}


def classify(target: str) -> str:
    """external (http, https, scheme-relative), internal (a path and/or fragment), or ignored."""
    if not target.strip():
        return IGNORED
    if target.startswith("//"):
        return EXTERNAL
    scheme = SCHEME.match(target)
    if scheme is None:
        return INTERNAL
    return EXTERNAL if scheme.group(1).lower() in ("http", "https") else IGNORED


def slugify(text: str) -> str:
    """GitHub's heading slug: lower-case; keep letters, marks, numbers, `_`-like, space and `-`;
    then every space becomes `-` (runs are not collapsed, as on GitHub)."""
    kept = [
        ch
        for ch in text.lower()
        if ch in " -" or unicodedata.category(ch)[0] in "LMN" or unicodedata.category(ch) == "Pc"
    ]
    return "".join(kept).replace(" ", "-")


class Slugger:
    """Hands out unique slugs the way GitHub numbers repeated headings: `x`, `x-1`, `x-2`."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def slug(self, text: str) -> str:
        base = candidate = slugify(text)
        while candidate in self.seen:
            self.seen[base] += 1
            candidate = f"{base}-{self.seen[base]}"
        self.seen[candidate] = 0
        return candidate


def parser_fingerprint() -> str:
    """A digest of the code that turns a file into a Document (this package's markdown modules and the
    parser libraries' own files): memoized parses of another version of any of them must not be read back."""
    from harness.memo import code_digest

    here = Path(__file__).resolve().parent
    files = [here / "links.py", here / "block_plan.py", here / "budget.py"]
    return code_digest(files, ("markdown_it", "linkify_it", "mdurl"))


def preload() -> None:
    """Imports what a parse needs (the parser and the block plan), ahead of forked processes that
    will parse: each then inherits the modules instead of importing them on its first parse."""
    from harness.markdown import block_plan  # noqa: F401 - imported for the forked workers

    parser()


def parser() -> MarkdownIt:
    """CommonMark with bare URLs that carry a scheme (linkify), definition tokens, targets kept as
    written, and source offsets recorded on the tokens we read. GFM tables need no rule of their
    own: a table read as a paragraph yields the same links on the same lines."""
    # Imported on first parse: a run whose every file is in the parse memo never loads the parser.
    from markdown_it import MarkdownIt, rules_inline

    md = MarkdownIt("commonmark", {"linkify": True, "inline_definitions": True})
    md.inline.ruler.enable("linkify")
    # Without this, "SKILL.md" would be a link to a Moldovan host.
    assert md.linkify is not None  # linkify-it-py is a dependency, so markdown-it made its linkifier
    md.linkify.set({"fuzzy_link": False, "fuzzy_email": False, "fuzzy_ip": False})
    md.normalizeLink = _as_written  # type: ignore[method-assign]  # markdown-it's way to keep targets as written
    for name, function in POSITIONED_RULES.items():
        md.inline.ruler.at(name, _positioned(getattr(rules_inline, function)))
    md.core.ruler.at("inline", _inline_where_needed)
    return md


class Parser:
    """Parses with only the block rules a text can need (see `block_plan`), keeping one markdown-it
    instance per rule set (a handful per run). `fast=False` runs every rule: the reference the fast
    path is tested against."""

    def __init__(self, fast: bool = True) -> None:
        self.fast = fast
        self._by_off: dict[frozenset[str], MarkdownIt] = {}

    def markdown(self, off: frozenset[str] = frozenset()) -> MarkdownIt:
        if off not in self._by_off:
            md = parser()
            if off:
                md.block.ruler.disable(sorted(off))
            self._by_off[off] = md
        return self._by_off[off]

    def tokens(self, text: str) -> list[Token]:
        if not self.fast:
            return self.markdown().parse(text)
        from harness.markdown import block_plan  # with the parser: a run from the parse memo needs neither

        chosen = block_plan.plan(text)
        tokens = self.markdown(chosen.off).parse(block_plan.blank_inert(text, chosen.off))
        if not chosen.items:
            return tokens
        if crosses_items(tokens, chosen.items):
            return self.markdown(chosen.off - {"list"}).parse(text)
        return tokens


def parse(text: str, reader: Parser | None = None) -> Document:
    """References and anchors of one markdown file. A leading YAML frontmatter block is not
    markdown and is skipped, keeping every line number."""
    text = normalized(blank_frontmatter(text))
    budget.refuse_too_many_link_marks(text)
    tokens = (reader or Parser()).tokens(text)
    doc = Document()
    slugger = Slugger()
    for index, token in enumerate(tokens):
        if token.type == "definition":
            doc.references.append(Reference(token.meta["url"], _first_line(token), DEFINITION))
        elif token.type == "html_block":
            _read_html(token.content, _first_line(token), doc)
        elif token.type == "heading_open" and index + 1 < len(tokens):
            heading = tokens[index + 1]
            text = heading.content if heading.meta.get("plain") else plain_text(heading.children or [])
            doc.anchors.add(slugger.slug(text))
        elif token.type == "inline" and token.children:
            _read_inline(token, doc)
    return doc


def normalized(text: str) -> str:
    """Line ends and NUL as markdown-it's own first step leaves them, so the block plan sees its lines."""
    if "\r" in text:
        text = CARRIAGE_RETURNS.sub("\n", text)
    return text.replace("\0", "\ufffd") if "\0" in text else text


def crosses_items(tokens: list[Token], items: frozenset[int]) -> bool:
    """Read as a list, each item is inline-parsed on its own; read as one paragraph, a link, code span
    or HTML tag may run from one item into the next. Any construct over a line end in a paragraph
    holding an item line means the fast parse may differ, and the full one must run."""
    for token in tokens:
        if token.type != "inline" or not token.children or not token.map or "\n" not in token.content:
            continue
        if not any(line in items for line in range(*token.map)):
            continue
        for child in token.children:
            span = child.meta.get("span") if child.meta else None
            if span and child.type in SPANNING and "\n" in token.content[span[0] : span[1]]:
                return True
    return False


def plain_text(children: Iterable[Token]) -> str:
    """What a heading reads as once rendered: text, code and link text, without markup or tags."""
    parts = []
    for child in children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append("\n")
    return "".join(parts)


def blank_frontmatter(text: str) -> str:
    lines = text.split("\n")
    if not lines or lines[0].strip() != FRONTMATTER_FENCE:
        return text
    for end in range(1, len(lines)):
        if lines[end].strip() in (FRONTMATTER_FENCE, "..."):
            return "\n" * end + "\n" + "\n".join(lines[end + 1 :])
    return text


def _as_written(url: str) -> str:
    return url


def _inline_where_needed(state) -> None:
    """Inline-parses headings (their text makes the slug) and only the other blocks that could hold
    a reference: prose without `[`, `<` or `://` has none, and skipping it is most of the speed."""
    previous = None
    for token in state.tokens:
        in_heading = previous is not None and previous.type == "heading_open"
        if token.type != "inline":
            pass
        elif in_heading and is_plain(token.content) and not might_refer(token.content):
            token.meta = {**token.meta, "plain": True}  # the slug reads the content itself
        elif in_heading or might_refer(token.content):
            token.children = []
            state.md.inline.parse(token.content, state.md, state.env, token.children)
        previous = token


def is_plain(text: str) -> bool:
    """Inline parsing would give back this text unchanged: no markup, escape, entity or line break.
    A heading's slug then comes from its content directly, without an inline parse."""
    return not PLAIN_BREAKERS.intersection(text)


def might_refer(text: str) -> bool:
    return "[" in text or "<" in text or "://" in text


def _positioned(rule: Callable) -> Callable:
    """Tags each token a rule pushes with the (start, end) offsets of its source in the inline text.
    Nested rules tag first, so a link inside an image label keeps its own position."""

    def run(state, silent: bool) -> bool:
        start, count = state.pos, len(state.tokens)
        matched = rule(state, silent)
        if matched and not silent:
            for token in state.tokens[count:]:
                if "span" not in token.meta:
                    token.meta = {**token.meta, "span": (start, state.pos)}
        return matched

    return run


def _first_line(token: Token) -> int:
    return token.map[0] + 1 if token.map else 1


def _read_inline(inline: Token, doc: Document) -> None:
    source = inline.content
    first = line = _first_line(inline)
    breaks = [match.start() for match in NEWLINE.finditer(source)] if "\n" in source else []
    for child in inline.children or []:
        span = child.meta.get("span") if child.meta else None
        if span is not None and breaks:
            line = first + bisect.bisect_left(breaks, span[0])
        if child.type == "link_open":
            kind = {"autolink": AUTOLINK, "linkify": BARE_URL}.get(child.markup, LINK)
            if not _via_definition(source, span, kind):
                doc.references.append(Reference(str(child.attrs.get("href", "")), line, kind))
        elif child.type == "image":
            if not _via_definition(source, span, IMAGE):
                doc.references.append(Reference(str(child.attrs.get("src", "")), line, IMAGE))
        elif child.type == "html_inline":
            _read_html(child.content, line, doc)


def _via_definition(source: str, span: tuple[int, int] | None, kind: str) -> bool:
    """`[text][label]`, `[label][]` and `[label]` end in `]`; their target is checked once, at the
    definition, which is where it gets fixed."""
    return kind in (LINK, IMAGE) and span is not None and source[span[1] - 1 : span[1]] == "]"


def _read_html(html: str, first_line: int, doc: Document) -> None:
    from harness.markdown.html_tags import TagReader  # on first use: most skills hold no HTML

    tags = TagReader(URL_ATTRIBUTES + ANCHOR_ATTRIBUTES)
    tags.feed(html)
    tags.close()
    for line, name, value in tags.attributes:
        if name in URL_ATTRIBUTES:
            doc.references.append(Reference(value, first_line + line - 1, HTML))
        elif name in ANCHOR_ATTRIBUTES:
            doc.anchors.add(value)
