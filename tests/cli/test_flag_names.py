"""harness/data/flags.json, which settings read to tell another command's key from a misspelt one
without importing every command, names exactly the flags the parsers declare."""

from __future__ import annotations

from harness.cli import declared_flags, every_flag


def test_the_flag_list_is_in_step_with_the_parsers():
    listed, declared = every_flag(), declared_flags()
    assert not declared - listed, f"add to harness/data/flags.json: {sorted(declared - listed)}"
    assert not listed - declared, f"drop from harness/data/flags.json: {sorted(listed - declared)}"
