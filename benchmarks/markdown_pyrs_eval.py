"""Could markdown-it-pyrs replace harness.markdown.links' parser? A differential run and a timing.

For every markdown file in this repository (docs, examples, test fixtures) and in a generated catalog,
it reads references (links, images, autolinks, bare URLs) with their lines, and heading anchors, once
with the harness (`links.parse`, the block-plan fast path) and once from markdown-it-pyrs' tree
(GitHub heading anchors, byte source maps turned into lines), then prints how many files differ, the
first differences, and the time each takes. markdown-it-pyrs is not a dependency of skillscope:

    pip install markdown-it-pyrs==0.4.0 && python benchmarks/markdown_pyrs_eval.py
"""

from __future__ import annotations

import bisect
import re
import sys
import tempfile
import time
from pathlib import Path

from structural_bench import generate

from harness.markdown import links

ROOT = Path(__file__).resolve().parent.parent
NEWLINE = re.compile(b"\n")
KINDS = {"link": links.LINK, "image": links.IMAGE, "autolink": links.AUTOLINK, "linkify": links.BARE_URL}


def rust_parser():
    import markdown_it_pyrs

    return markdown_it_pyrs.MarkdownIt("commonmark").enable_many(["linkify", "heading_anchors"])


def harness_view(text: str, reader: links.Parser) -> tuple[set, set]:
    document = links.parse(text, reader)
    refs = {(r.kind, r.target, r.line) for r in document.references if r.kind in KINDS.values()}
    return refs, set(document.anchors)


def rust_view(text: str, md) -> tuple[set, set]:
    body = links.normalized(links.blank_frontmatter(text)).encode()
    starts = [0, *(match.end() for match in NEWLINE.finditer(body))]  # source maps count bytes
    refs, anchors = set(), set()

    def walk(node, last: int) -> None:
        if node.srcmap:
            last = node.srcmap[0]
        if node.name in KINDS:
            refs.add((KINDS[node.name], node.meta.get("url", ""), bisect.bisect_right(starts, last)))
        if node.name == "heading_anchor":
            anchors.add(node.meta.get("id", ""))
        for child in node.children:
            walk(child, last)

    walk(md.tree(body.decode()), 0)
    return refs, anchors


def markdown_files(tmp: Path) -> list[Path]:
    catalog = generate(tmp / "catalog", 50)
    ours = [
        p
        for p in ROOT.rglob("*.md")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(ROOT).parts)
    ]
    return sorted(ours) + sorted(catalog.rglob("*.md"))


def main() -> int:
    try:
        md = rust_parser()
    except ImportError:
        print("markdown-it-pyrs is not installed: pip install markdown-it-pyrs==0.4.0")
        return 2
    with tempfile.TemporaryDirectory(prefix="skillscope-pyrs-") as tmp:
        files = markdown_files(Path(tmp))
        texts = [path.read_text(encoding="utf-8", errors="replace") for path in files]
        started = time.process_time()  # CPU seconds: a shared host's load does not inflate them
        [harness_view(text, links.Parser(fast=False)) for text in texts]
        every_rule_s = time.process_time() - started
        reader = links.Parser()
        started = time.process_time()
        ours = [harness_view(text, reader) for text in texts]
        harness_s = time.process_time() - started
        started = time.process_time()
        theirs = [rust_view(text, md) for text in texts]
        rust_s = time.process_time() - started
    differing = [(f, a, b) for f, a, b in zip(files, ours, theirs, strict=True) if a != b]
    print(
        f"{len(files)} markdown files, CPU seconds: markdown-it-py with every rule {every_rule_s:.3f}, "
        f"with the block-plan fast path {harness_s:.3f}, markdown-it-pyrs {rust_s:.3f} "
        f"({every_rule_s / rust_s:.1f}x and {harness_s / rust_s:.1f}x faster)"
    )
    print(f"files whose references or anchors differ: {len(differing)}")
    for path, (our_refs, our_anchors), (rust_refs, rust_anchors) in differing[:8]:
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
        only_ours = [sorted(our_refs - rust_refs)[:3], sorted(our_anchors - rust_anchors)[:3]]
        print(f"- {where}: only harness {only_ours[0]} {only_ours[1]}")
        print(f"  only pyrs {sorted(rust_refs - our_refs)[:3]} {sorted(rust_anchors - our_anchors)[:3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
