"""The flag reference written from the parser: every shown argument, its value, choices and default,
and help text that reads the same once rendered as markdown."""

from __future__ import annotations

import argparse

from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from harness import cli
from harness.cli import reference


def toy() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="skillscope")
    sub = parser.add_subparsers(dest="command")
    command = sub.add_parser("demo", description="do the *demo* thing")
    command.add_argument("source", choices=["one", "two"], help="where from")
    command.add_argument("--engine", choices=["agent", "lexical"], default="agent", help="which engine")
    command.add_argument("--jobs", type=int, default=4, help="workers (default: %(default)s)")
    command.add_argument("--sandbox", action=argparse.BooleanOptionalAction, default=True, help="wrap it")
    command.add_argument("--secret", help=argparse.SUPPRESS)
    command.add_argument("-q", "--quiet", action="store_true", help="say less")
    command.add_argument("--glob", metavar="GLOBS", default="skills/*", help="folders like <repo>/skills/*")
    return parser


def rendered_text(markdown: str) -> str:
    """The words a reader sees: the inline text of the rendered markdown, code spans included."""
    tokens = MarkdownIt("commonmark").parse(markdown)
    inline = [child for token in tokens for child in token.children or []]
    return "".join(child.content for child in inline if child.type != "softbreak")


def test_a_section_lists_every_shown_argument_with_its_value_choices_and_default():
    parser = toy()
    lines = reference.section("demo", reference.commands(parser)["demo"])
    text = "\n".join(lines)
    assert lines[0] == "## demo"
    assert "do the \\*demo\\* thing" in text
    assert "```text\nskillscope demo [-h] [--engine {agent,lexical}]" in text
    assert "- `source`: where from. Choices: `one`, `two`." in text
    engine = "- `--engine {agent,lexical}`: which engine. Choices: `agent`, `lexical`. Default: `agent`."
    assert engine in text
    assert "- `--jobs JOBS`: workers (default: 4)" in text  # said once, by argparse's own %(default)s
    assert "- `--sandbox / --no-sandbox`: wrap it" in text
    assert "- `-q, --quiet`: say less" in text
    assert "--secret" not in text  # hidden from --help, hidden here
    assert "- `--glob GLOBS`: folders like &lt;repo>/skills/\\*. Default: `skills/*`." in text
    assert "[the demo page](commands/demo.md)" in text


def test_the_page_has_the_flags_before_the_command_then_one_section_a_command():
    page = reference.reference_page(cli.build_parser())
    assert page.startswith("# Flag reference\n")
    assert "- `--repo PATH`:" in page.split("## structural")[0]
    headings = [line[3:] for line in page.splitlines() if line.startswith("## ")]
    assert headings == list(cli.COMMANDS)


HELP_TEXT = st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="`")


@given(st.text(alphabet=HELP_TEXT, max_size=80))
def test_help_text_renders_as_the_words_argparse_prints(text):
    words = " ".join(text.split())
    assert rendered_text("x " + reference.markdown_text(text)) == ("x " + words).rstrip()


def test_code_spans_in_help_stay_code():
    assert reference.markdown_text("run `skills/*` or *that*") == "run `skills/*` or \\*that\\*"
