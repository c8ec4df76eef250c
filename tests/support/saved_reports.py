"""The paid commands' reports as real runs wrote them (tests/support/reports.py: the claude CLI against the
scripted API), saved under tests/report/html/saved/ so the page tests read them without starting an agent.

Each file is checked against its report schema by the page tests, and a small real run of each command
still renders in them (tests/report/html/conftest.py `small_real_reports`). After a change to what a
command writes, write them again from real runs (needs the claude CLI):

    python -m tests.support.saved_reports [/path/to/claude]
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from tests.fakeapi.cli import hermetic_env
from tests.fakeapi.server import FakeAPI
from tests.support import reports

# The paid commands whose pages read a saved report; tune's is saved too (tests/report/html/conftest.py).
PAID = ("routing", "routing-matrix", "compare", "compare-matrix", "cost", "behavioral", "behavioral-matrix")
SAVED = Path(__file__).resolve().parent.parent / "report" / "html" / "saved"
TWO_MODELS = ("--model", "claude-fake-1,claude-fake-2")  # one leg per model: the matrix pages
# Where the saved files say the run happened, and the CLI they name: no folder of the machine that ran it.
RUN_FOLDER = "/tmp/skillscope-saved-run"
CLI_PATH = "claude"


def load(name: str) -> dict:
    return json.loads((SAVED / f"{name}.json").read_text(encoding="utf-8"))


def builders(claude: str) -> dict[str, Callable[[Path, FakeAPI], dict]]:
    def behavioral(tmp: Path, api: FakeAPI, models: str = "claude-fake-1") -> dict:
        env = hermetic_env(api.base_url, tmp / "env", config_dir=False)
        return reports.behavioral(tmp, api, claude, env, models=models)

    return {
        "routing": lambda tmp, api: reports.routing(tmp, api, claude),
        "routing-matrix": lambda tmp, api: reports.routing(tmp, api, claude, *TWO_MODELS),
        "compare": lambda tmp, api: reports.compare(tmp, api, claude),
        "compare-matrix": lambda tmp, api: reports.compare(tmp, api, claude, *TWO_MODELS),
        "cost": lambda tmp, api: reports.cost(tmp, api, claude),
        "behavioral": behavioral,
        "behavioral-matrix": lambda tmp, api: behavioral(tmp, api, TWO_MODELS[1]),
        "tune": lambda tmp, api: reports.tune(tmp, api, claude),
    }


def scrubbed(report: dict, folder: Path, claude: str) -> dict:
    """`report` with the run's temporary folder and the CLI's path replaced by fixed names."""
    text = json.dumps(report, ensure_ascii=False)
    for found, fixed in ((str(folder.resolve()), RUN_FOLDER), (str(folder), RUN_FOLDER), (claude, CLI_PATH)):
        text = text.replace(json.dumps(found)[1:-1], fixed)
    return json.loads(text)


def regenerate(claude: str, names: list[str]) -> None:
    made = builders(claude)
    for name in names or list(made):
        with tempfile.TemporaryDirectory() as tmp, FakeAPI() as api:
            report = scrubbed(made[name](Path(tmp), api), Path(tmp), claude)
        text = json.dumps(report, indent=1, ensure_ascii=False) + "\n"
        (SAVED / f"{name}.json").write_text(text, encoding="utf-8")
        print(f"wrote {name}.json")


if __name__ == "__main__":
    from tests.fakeapi.cli import find_claude

    found = sys.argv[1] if len(sys.argv) > 1 else find_claude()
    if found is None:
        sys.exit("the claude CLI is needed: pass its path or set SKILLSCOPE_TEST_CLAUDE")
    regenerate(found, sys.argv[2:])
