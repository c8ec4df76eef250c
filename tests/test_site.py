"""The documentation site: its hooks, its navigation, and a strict build of the real docs."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import mkdocs_hooks
from harness import cli
from harness.authoring import home
from harness.cli import reference

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def nav_pages(entries) -> list[str]:
    """Every page file the mkdocs.yml navigation names, sections flattened."""
    pages = []
    for entry in entries:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        pages.extend(nav_pages(value) if isinstance(value, list) else [value])
    return pages


def config() -> dict:
    # mkdocs.yml holds a python tag (the heading slugger); a loader that ignores tags reads the rest.
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)


def test_the_rules_page_lists_every_rule_of_rules_json():
    rules = json.loads(mkdocs_hooks.RULES_JSON.read_text(encoding="utf-8"))
    page = mkdocs_hooks.rules_page(rules)
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| .+ \| (error|warning) \| (.+?) \|$", page, re.MULTILINE)
    assert [rule for rule, _, _ in rows] == list(rules)
    assert [(severity, source) for _, severity, source in rows] == [
        (entry["severity"], entry["source"]) for entry in rules.values()
    ]
    assert "which source each rule follows" in page
    assert len(rows) >= 60


def test_a_link_out_of_docs_points_at_the_file_in_the_home():
    source = home.source_url()
    text = "See [the changelog](../CHANGELOG.md#unreleased) and [a schema](../schema/) and [x](usage.md#a)."
    out = mkdocs_hooks.outside_links(text, "index.md", source, DOCS)
    assert f"[the changelog]({source}/blob/main/CHANGELOG.md#unreleased)" in out
    assert f"[a schema]({source}/tree/main/schema)" in out  # a folder: GitHub's tree view
    assert "[x](usage.md#a)" in out  # a page of the site stays as written, for mkdocs to check


def test_a_broken_or_illustrative_link_out_of_docs_is_left_for_the_build_to_judge():
    source = home.source_url()
    text = "[gone](../no-such-file.md)\n\n```markdown\n[shown](../CHANGELOG.md)\n```\n"
    out = mkdocs_hooks.outside_links(text, "commands/x.md", source, DOCS)
    assert "[gone](../no-such-file.md)" in out  # the strict build reports it
    assert "[shown](../CHANGELOG.md)" in out  # inside a code block: an illustration


def test_the_navigation_holds_every_page_and_every_command_has_one():
    pages = nav_pages(config()["nav"])
    on_disk = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))
    assert sorted(set(pages) - set(mkdocs_hooks.GENERATED)) == on_disk
    assert set(mkdocs_hooks.GENERATED) <= set(pages)
    missing = sorted(c for c in cli.COMMANDS if f"commands/{c}.md" not in pages)
    assert not missing, f"commands without a page under docs/commands/: {missing}"


def test_the_site_builds_strictly_with_the_generated_pages(tmp_path):
    site = tmp_path / "site"
    environ = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    # Not --quiet: it hides the warnings strict mode counts, and a broken anchor would pass.
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml")]
        + ["--site-dir", str(site)],
        capture_output=True,
        text=True,
        env=environ,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    html = (site / "rules" / "index.html").read_text(encoding="utf-8")
    rules = json.loads(mkdocs_hooks.RULES_JSON.read_text(encoding="utf-8"))
    missing = [rule for rule in rules if f"<code>{rule}</code>" not in html]
    assert not missing, f"rules missing from the built rules page: {missing}"
    flags = (site / "reference" / "index.html").read_text(encoding="utf-8")
    for name, parser in reference.commands(cli.build_parser()).items():
        assert f'id="{name}"' in flags, f"no section for {name} in the built flag reference"
        shown = [o for a in reference.shown(parser) for o in a.option_strings if o.startswith("--")]
        missing = [flag for flag in shown if not re.search(rf"<code>[^<]*{re.escape(flag)}(?![\w-])", flags)]
        assert not missing, f"flags of {name} missing from the built flag reference: {missing}"
    usage = (site / "usage" / "index.html").read_text(encoding="utf-8")
    assert f'href="{home.source_url()}/blob/main/CHANGELOG.md"' in usage


def _uses_steps(node):
    """Every mapping with a `uses:` key in a loaded YAML example, at any depth."""
    if isinstance(node, dict):
        if isinstance(node.get("uses"), str):
            yield node
        for value in node.values():
            yield from _uses_steps(value)
    elif isinstance(node, list):
        for value in node:
            yield from _uses_steps(value)


def _declared_inputs(target: str) -> set[str] | None:
    """The inputs a `uses:` target of this project declares (None for someone else's)."""
    path, _, _ = target.partition("@")
    if path == home.repository():
        return set(yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["inputs"])
    prefix = home.repository() + "/"
    if not path.startswith(prefix):
        return None
    workflow = yaml.safe_load((ROOT / path.removeprefix(prefix)).read_text(encoding="utf-8"))
    return set(workflow[True]["workflow_call"]["inputs"])  # PyYAML reads the key `on` as True


def test_the_yaml_examples_of_the_docs_pass_only_inputs_that_exist():
    from tests.test_docs import FENCE

    checked = 0
    for page in ["README.md", *sorted(p.relative_to(ROOT).as_posix() for p in DOCS.rglob("*.md"))]:
        for match in FENCE.finditer((ROOT / page).read_text(encoding="utf-8")):
            if not match.group(0).startswith(("```yaml", "~~~yaml")):
                continue
            for step in _uses_steps(yaml.safe_load(match.group(2))):
                declared = _declared_inputs(step["uses"])
                if declared is None:
                    continue
                unknown = set(step.get("with") or {}) - declared
                assert not unknown, f"{page}: `uses: {step['uses']}` is given inputs it lacks: {unknown}"
                checked += 1
    assert checked >= 6


PAGE_KINDS = ("routing", "behavioral", "compare", "cost", "tune", "history")


@pytest.mark.parametrize("kind", PAGE_KINDS)
def test_every_page_kind_has_a_screenshot_the_docs_show(kind):
    # benchmarks/page_screenshots.py (nox -s screenshots) shoots them; a page kind without one, or a
    # reference to a file that is gone, is a hole in the docs.
    image = DOCS / "images" / f"page-{kind}.png"
    assert image.is_file(), f"no screenshot of the {kind} page: run nox -s screenshots"
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    referenced = [
        p.relative_to(DOCS).as_posix()
        for p in DOCS.rglob("*.md")
        if f"](../images/page-{kind}.png)" in p.read_text(encoding="utf-8")
        or f"](images/page-{kind}.png)" in p.read_text(encoding="utf-8")
    ]
    assert referenced, f"no docs page shows images/page-{kind}.png"
    assert f"commands/{kind}.md" in referenced
