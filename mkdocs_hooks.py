"""Build-time hooks of the documentation site (mkdocs.yml names this file under `hooks:`).

- The rules reference page is generated from harness/data/rules.json, the file SARIF logs take each
  rule's help from, so the page can never disagree with what the harness ships.
- The flag reference page is generated from the CLI's own parser (harness/cli/reference.py): every
  command, flag, help text, default and choice is the one `--help` prints.
- A link from a page to a file outside docs/ (CHANGELOG.md, a schema, a workflow) works on GitHub
  but names no page of the site; it is pointed at that file in the project's home instead, so the
  strict build still fails on every broken link between pages.
"""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

from harness import cli
from harness.authoring import home
from harness.cli import reference

ROOT = Path(__file__).resolve().parent
RULES_JSON = ROOT / "harness" / "data" / "rules.json"
RULES_PAGE = "rules.md"
GENERATED = (RULES_PAGE, reference.PAGE)
# An inline markdown link or image target: `](target)` or `](target "title")`.
LINK = re.compile(r"(\]\()(?P<target>[^)\s]+)((?:\s+\"[^\"]*\")?\))")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)


def rules_page(rules: dict[str, dict[str, str]]) -> str:
    """The markdown of the rules reference: one row per rule, in the order rules.json keeps them."""
    lines = [
        "# Rules reference",
        "",
        "Every finding skillscope reports carries one of these rule ids: in the text output",
        "(`path:line: rule: message`), in SARIF logs, annotations and the JSON report's `rule`.",
        "Errors fail the run, warnings do not. A rule can be demoted to a warning with",
        "`--warn RULE`, or its current findings accepted with `skillscope baseline`",
        "([adopting rules](commands/baseline.md#adopting-rules-step-by-step-baselines-and---warn)).",
        "",
        "This page is generated from `harness/data/rules.json` when the site is built; the",
        "tables it is made from live on each command's page, such as",
        "[what structural asserts](commands/structural.md#what-structural-asserts).",
        "",
        "The last column says which source each rule follows. A rule of the Agent Skills",
        "specification is an error where the specification requires it (a skill that breaks it",
        "is not in the format, and agents refuse or drop it) and a warning where it only",
        "recommends; a rule from the agents is what they were measured to do; a rule of",
        "skillscope's own (its dataset format, its safety checks, its lexical estimates) says so.",
        "",
        "| Rule | What | Bar | Severity | Source |",
        "|---|---|---|---|---|",
    ]
    for rule, entry in rules.items():
        cells = [f"`{rule}`", entry["what"], entry["bar"], entry["severity"], entry["source"]]
        lines.append("| " + " | ".join(cell.replace("\n", " ") for cell in cells) + " |")
    return "\n".join(lines) + "\n"


def outside_links(markdown: str, page: str, source_url: str, docs_dir: Path) -> str:
    """Point links that leave docs/ at the file in the project's home (outside code blocks)."""

    def rewrite(match: re.Match[str]) -> str:
        target = match["target"]
        path, _, fragment = target.partition("#")
        if not path or re.match(r"^[a-z][a-z0-9+.-]*:", path) or path.startswith("/"):
            return match[0]  # an anchor in the page, a URL, or a path from the site's root
        file = (docs_dir / posixpath.dirname(page) / path).resolve()
        if file.is_relative_to(docs_dir.resolve()) or not file.is_relative_to(ROOT):
            return match[0]  # a page of the site (mkdocs checks it), or nothing of this repo
        if not file.exists():
            return match[0]  # broken: left for the strict build to report
        in_repo = file.relative_to(ROOT).as_posix()
        kind = "tree" if file.is_dir() else "blob"
        url = f"{source_url}/{kind}/main/{in_repo}" + (f"#{fragment}" if fragment else "")
        return f"{match[1]}{url}{match[3]}"

    # Code blocks are left alone: a link shown in a code block is an illustration.
    pieces, last = [], 0
    for block in FENCE.finditer(markdown):
        pieces.append(LINK.sub(rewrite, markdown[last : block.start()]))
        pieces.append(block[0])
        last = block.end()
    pieces.append(LINK.sub(rewrite, markdown[last:]))
    return "".join(pieces)


def on_config(config: Any) -> Any:
    # The header's link to the repository: the project's one home, not a second copy of it.
    config["repo_url"] = home.source_url()
    config["repo_name"] = home.repository()
    return config


def on_files(files: Files, config: Any) -> Files:
    rules = json.loads(RULES_JSON.read_text(encoding="utf-8"))
    files.append(File.generated(config, RULES_PAGE, content=rules_page(rules)))
    files.append(File.generated(config, reference.PAGE, content=reference.reference_page(cli.build_parser())))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    return outside_links(markdown, page.file.src_uri, home.source_url(), Path(config["docs_dir"]))
