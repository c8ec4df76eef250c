"""The final split never selects: the whole command, its claude runtime scripted (tests/support/
scripted.py) since the choice is the harness's own logic. The real CLI grades the final split
end to end in tests/commands/test_tune.py.

The room (final_room) is tests/tune/room with one change: at the default seed its final split holds the
alpha positives receipt-7, -8 and -11, and those three ask about a *voucher*. The scripted router fires
the installed skill whose description shares the most topic words with the prompt, so VOUCHER passes
every final positive and no validation one, while RECEIPT passes every validation positive and no final
one: VOUCHER is the better candidate on final and the worse on validation. It must not be chosen, its
validation result must say why, and only the chosen one is graded (and reported) on final.
"""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest

from harness.cli import main
from harness.context import Context
from tests.support import scripted as S

ROOM = Path(__file__).resolve().parent / "final_room"
TOPICS = {"receipt", "voucher", "ledger", "weather"}
VOUCHER = "Reads a voucher and works out its total."
RECEIPT = "Reads a receipt and works out its total. Use for any receipt."
FINAL_POSITIVES = {"alpha-receipt-7", "alpha-receipt-8", "alpha-receipt-11"}

pytestmark = pytest.mark.usefixtures("private_temp")


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]+", text.lower()))


def fired(prompt: str, listing: dict[str, str]) -> str | None:
    """The skill the scripted model fires for `prompt` with `listing` installed."""
    asked = words(prompt) & TOPICS
    shared = {name: len(words(text) & asked) for name, text in sorted(listing.items())}
    best = max(shared, key=lambda name: shared[name], default=None)
    return best if best and shared[best] else None


def router(ran: S.Ran) -> S.Answer:
    return S.Answer(fired(ran.prompt, dict(ran.listing)))


def room_cases(repo: Path) -> dict[str, dict]:
    return {
        case["id"]: case
        for name in ("alpha", "beta")
        for case in json.loads((repo / name / "evals" / "evals.json").read_text(encoding="utf-8"))[
            "evaluations"
        ]
    }


def passes(description: str, case: dict, repo: Path) -> bool:
    """What the scripted model makes of `case` with `description` installed as alpha's."""
    listing = {"alpha": description, "beta": "Answers ledger questions: balances and entries in the ledger."}
    expected = "alpha" if case["id"].startswith("alpha-") and case["skill_should_trigger"] else None
    if case["id"].startswith("beta-") and case["skill_should_trigger"]:
        expected = "beta"
    return fired(case["prompt"], listing) == expected


def test_a_candidate_better_on_final_but_worse_on_validation_is_not_chosen(scripted, tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(ROOM, repo)
    (repo / "mine.json").write_text(json.dumps([VOUCHER, RECEIPT]), encoding="utf-8")
    scripted.script(router)
    env = {"HOME": str(tmp_path / "home"), "PATH": "", "ANTHROPIC_API_KEY": "test-key"}
    output = tmp_path / "tune.json"
    ctx = Context(
        environ=dict(env), cwd=repo, stdin=io.StringIO(), stdout=io.StringIO(), stderr=io.StringIO()
    )
    argv = ["tune", "alpha", "--repo", str(repo), "--candidates", "mine.json", "--output", str(output)]
    argv += ["--format", "markdown", "--skip-preflight", "--no-builtin-negatives", "--confidence", "0.8"]
    code = main(argv, ctx)
    assert code == 0, ctx.stderr.getvalue()
    report = json.loads(output.read_text(encoding="utf-8"))
    split = report["split"]["cases"]
    cases = room_cases(repo)

    # The premise, from the split the run reports: VOUCHER wins final and loses validation to RECEIPT.
    final_positives = {
        i for i in split["final"] if i.startswith("alpha-") and cases[i]["skill_should_trigger"]
    }
    assert final_positives == FINAL_POSITIVES
    on_final = {d: sum(passes(d, cases[i], repo) for i in split["final"]) for d in (VOUCHER, RECEIPT)}
    on_validation = {
        d: sum(passes(d, cases[i], repo) for i in split["validation"]) for d in (VOUCHER, RECEIPT)
    }
    assert on_final[VOUCHER] == on_final[RECEIPT] + len(FINAL_POSITIVES)
    assert on_validation[VOUCHER] < on_validation[RECEIPT]

    by_description = {c["description"]: c for c in report["candidates"]}
    voucher, receipt = by_description[VOUCHER], by_description[RECEIPT]
    assert report["chosen"] == receipt["label"] != voucher["label"]
    # VOUCHER finished train (no worse than the current description there) and lost on validation:
    # its validation result is in the report and says why.
    assert voucher["status"] == "scored" and set(voucher["scores"]) == {"train", "validation"}
    judged = voucher["validation"]["claude"]
    assert (judged["wins"], judged["beats_noise"], judged["eligible"]) == (0, False, False)
    assert "the interval reaches zero, so the gain is not beyond noise" in voucher["reason"]
    assert receipt["validation"]["claude"]["wins"] == on_validation[RECEIPT] - on_validation[VOUCHER]
    # Final: graded once, for the chosen candidate and the current description; never for VOUCHER.
    assert report["final"]["candidate"] == receipt["label"]
    assert "final" in receipt["scores"] and "final" not in voucher["scores"]
    final_prompts = {cases[i]["prompt"] for i in split["final"]}
    graded_on_final = [r.listing.get("alpha") for r in scripted.case_runs() if r.prompt in final_prompts]
    assert VOUCHER not in graded_on_final and graded_on_final.count(RECEIPT) == len(final_prompts)
    # The markdown report shows VOUCHER's validation line and the final estimate for the chosen one only.
    shown = ctx.stdout.getvalue()
    row = next(
        [cell.strip() for cell in line.split("|")[1:-1]]
        for line in shown.splitlines()
        if line.startswith(f"| {voucher['label']} ")
    )
    assert row[2] == "scored" and row[5].startswith("+0.000 [+0.000, +0.000]")  # its origin is row[1]
    assert "not beyond noise" in row[6]
    final_section = shown.split("### Final split", 1)[1].split("###", 1)[0]
    assert f"{receipt['label']}: " in final_section and voucher["label"] not in final_section
