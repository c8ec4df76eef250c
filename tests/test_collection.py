"""The collection walks only packages (tests/conftest.py): a test module in a folder without an
`__init__.py` would never run, so none may sit in one."""

from __future__ import annotations

import os
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_every_test_module_and_conftest_sits_in_a_package():
    stray = []
    for folder, _, files in os.walk(TESTS):
        if "__init__.py" in files:
            continue
        stray += [
            os.path.relpath(os.path.join(folder, name), TESTS)
            for name in files
            if name == "conftest.py" or (name.startswith("test_") and name.endswith(".py"))
        ]
    assert stray == [], "add an __init__.py to their folders, or the collection passes them over"
