"""The flag reference of the documentation site, written from the parser itself.

mkdocs_hooks.py renders it into the site's reference page at build time, so every command, flag,
help text, default and choice there is the one `--help` prints: a flag cannot be added, renamed or
dropped without the page following.
"""

from __future__ import annotations

import argparse
import re

PAGE = "reference.md"
USAGE_WIDTH = 100
# Outside code spans, characters markdown would read as emphasis, links or HTML.
SPECIAL = re.compile(r"([\\*_\[\]])")
CODE_SPAN = re.compile(r"(`[^`]*`)")


def markdown_text(text: str) -> str:
    """Help text as literal markdown: code spans kept, everything else escaped."""
    pieces = CODE_SPAN.split(" ".join(text.split()))
    return "".join(piece if piece.startswith("`") else escaped(piece) for piece in pieces)


def escaped(plain: str) -> str:
    return SPECIAL.sub(r"\\\1", plain.replace("&", "&amp;").replace("<", "&lt;"))


def commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Each command's own parser, in the order `--help` lists them."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def shown(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The arguments `--help` shows (neither help itself nor a hidden one)."""
    return [
        action
        for action in parser._actions
        if action.help != argparse.SUPPRESS
        and not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction))
    ]


def help_text(action: argparse.Action, prog: str) -> str:
    """The help argparse prints, `%(default)s` and the like filled in as argparse fills them."""
    text = action.help or ""
    if "%" in text:
        text = text % {**vars(action), "prog": prog}
    return text


def value_of(action: argparse.Action) -> str:
    """What follows the flag on the command line: its metavar, its choices, or nothing for a switch."""
    if action.nargs == 0:
        return ""
    if action.metavar is not None:
        return str(action.metavar)
    if action.choices:
        return "{" + ",".join(str(choice) for choice in action.choices) + "}"
    return action.dest.upper()


def default_of(action: argparse.Action, text: str) -> str:
    """The default, where the help does not already say it and a reader could type it."""
    default = action.default
    if "default" in text or default in (None, argparse.SUPPRESS) or action.nargs == 0:
        return ""
    return f"Default: `{default}`." if isinstance(default, (str, int, float)) else ""


def entry(action: argparse.Action, prog: str) -> str:
    """One list item: the flag's spellings and value, then its help, choices and default."""
    names = ", ".join(action.option_strings) or str(action.metavar or action.dest)
    value = value_of(action) if action.option_strings else ""
    if isinstance(action, argparse.BooleanOptionalAction):
        names, value = " / ".join(action.option_strings), ""
    head = f"`{names} {value}`" if value else f"`{names}`"
    text = help_text(action, prog)
    extra = []
    if action.choices and not isinstance(action.choices, dict):
        extra.append("Choices: " + ", ".join(f"`{choice}`" for choice in action.choices) + ".")
    extra.append(default_of(action, text))
    sentences = [markdown_text(text)] if text else []
    if any(extra) and sentences:
        sentences[0] = sentences[0].rstrip(".") + "."
    body = " ".join(part for part in [*sentences, *extra] if part)
    return f"- {head}: {body}" if body else f"- {head}"


def synopsis(parser: argparse.ArgumentParser) -> str:
    """The usage line `--help` starts with, wrapped at a fixed width (not the terminal's)."""
    formatter = argparse.HelpFormatter(parser.prog, width=USAGE_WIDTH)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups, prefix="")
    return formatter.format_help().strip()


def section(name: str, parser: argparse.ArgumentParser) -> list[str]:
    """A command's heading, what it does, its usage line, its arguments and then its flags."""
    lines = [f"## {name}", "", markdown_text(parser.description or ""), ""]
    lines += ["```text", synopsis(parser), "```", ""]
    arguments = shown(parser)
    positional = [action for action in arguments if not action.option_strings]
    options = [action for action in arguments if action.option_strings]
    if positional:
        lines += ["Arguments:", "", *(entry(action, parser.prog) for action in positional), ""]
    lines += ["Flags:", "", *(entry(action, parser.prog) for action in options), ""]
    lines += [f"Task by task: [the {name} page](commands/{name}.md).", ""]
    return lines


def reference_page(parser: argparse.ArgumentParser) -> str:
    """The markdown of the whole reference: the flags every command takes, then one section a command."""
    top = [entry(action, parser.prog) for action in shown(parser) if action.option_strings]
    lines = [
        "# Flag reference",
        "",
        "Every command and every flag, written from the parser when the site is built: the same",
        "words `skillscope COMMAND --help` prints, so this page cannot disagree with the harness.",
        "What each command is for, with examples and what its report says, is on its own page",
        "under Commands; settings files, exit codes and reports are in [Using skillscope](usage.md).",
        "",
        "Before the command name:",
        "",
        *top,
        "",
    ]
    for name, command in commands(parser).items():
        lines += section(name, command)
    return "\n".join(lines).rstrip("\n") + "\n"
