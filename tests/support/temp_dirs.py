"""Fixtures that give a test's runs a temporary folder of their own and check that nothing of a run
outlives it, and each test's `tmp_path`. Registered for the whole suite in tests/conftest.py; a module
that wants them on every test says `pytestmark = pytest.mark.usefixtures(...)`.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.routing import live_processes_under


@pytest.fixture(scope="session")
def test_folders(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("t")


@pytest.fixture
def tmp_path(test_folders: Path, request: pytest.FixtureRequest) -> Path:
    """pytest's `tmp_path` (a fresh folder per test, kept after the run), made in constant time.

    pytest's own numbers the folder by listing the whole base folder first, so each test paid for every
    folder made before it: half of the suite's tests take one, a worker makes about 1,300."""
    name = re.sub(r"\W", "_", request.node.name)[:30]
    return Path(tempfile.mkdtemp(prefix=f"{name}-", dir=test_folders))


@contextlib.contextmanager
def temp_under(temp: Path) -> Iterator[Path]:
    """While open, the harness's temporary folders go in `temp`; no process may be left running under
    it. For a fixture wider than one test (a real run shared by a module), as private_temp is for one."""
    temp.mkdir(parents=True, exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tempfile, "tempdir", str(temp))
        yield temp
    assert live_processes_under(temp) == []


@pytest.fixture
def private_temp(tmp_path):
    """The harness's temporary folders go here; no process may be left running under it."""
    with temp_under(tmp_path / "temp") as temp:
        yield temp


@pytest.fixture
def clean_runs(private_temp):
    """As private_temp, and no `skillscope-*` folder may be left behind in it either."""
    yield private_temp
    # Processes first: one still running would explain a folder left behind.
    assert live_processes_under(private_temp) == []
    assert sorted(p.name for p in private_temp.iterdir() if p.name.startswith("skillscope-")) == []


def built_once(tmp_path_factory, name: str, build: Callable[[Path], Any]) -> Any:
    """`build(folder)`'s JSON value, made once a run: in a parallel run (pytest-xdist) the first worker
    to ask builds it and the others read it back, whichever tests they were given."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # the run's own folder
    made = shared / f"{name}.json"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not made.exists():
            made.write_text(json.dumps(build(tmp_path_factory.mktemp(name))), encoding="utf-8")
    return json.loads(made.read_text(encoding="utf-8"))
