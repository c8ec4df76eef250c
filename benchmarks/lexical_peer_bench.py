"""Our lexical engine beside addyosmani/agent-skills' TF-IDF tier, on one catalog's own cases (a benchmark).

The catalog is a folder with `skills/<name>/SKILL.md` and addyosmani's case files, `evals/cases/<skill>.json`
(`trigger.positive[]{prompt, top_k}`, `trigger.negative[]{prompt, owner}`). Every case is ranked against
every skill of the catalog by each engine, with each engine's own reading of the case:

- a positive passes when its skill ranks within `top_k` (default 3) with a score above zero, and counts
  towards the rank-1 rate when it ranks first;
- a negative passes when its skill is not first; with an `owner`, theirs asks that the owner outrank
  it, ours that the owner rank first, alone (the route an agent is graded on too); a second line of
  ours reads owners as theirs does, so the rankings themselves compare under one rule.

Ours runs from this project (`harness.routing.lexical`, every description in full, as their tier reads
them). Theirs runs from a checkout the user points at (`--theirs`, holding `scripts/run-evals.js`): the
script is loaded with node into a sandbox whose root is the catalog, and its own ranking function is
called on each prompt; nothing of it is copied here. Without `--theirs`, ours is printed alone.

    python benchmarks/lexical_peer_bench.py --catalog PATH [--theirs PATH/to/agent-skills]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from harness.model import skill as skill_mod
from harness.model.dataset import Case
from harness.routing.lexical import LexicalEngine

DEFAULT_TOP_K = 3
THEIR_SCRIPT = Path("scripts") / "run-evals.js"
# Loads their script in a node sandbox rooted at the catalog, then ranks each prompt read from stdin
# with the script's own functions; prints each ranking as [name, score] pairs, best first.
DRIVER = r"""
const fs = require('fs'), path = require('path'), vm = require('vm');
const [script, catalog] = process.argv.slice(1);
const sandbox = {
  require, console, Map, Set, Math, JSON,
  process: { argv: [], exit() {}, env: {} },
  module: { exports: {} }, exports: {},
  __dirname: path.join(catalog, 'scripts'), __filename: path.join(catalog, 'scripts', 'run-evals.js'),
};
vm.createContext(sandbox);
vm.runInContext(fs.readFileSync(script, 'utf8'), sandbox, { filename: script });
for (const name of ['loadSkills', 'buildCorpus', 'rankSkills']) {
  if (typeof sandbox[name] !== 'function') {
    console.error(`${script} defines no function ${name}: not the TF-IDF tier this benchmark calls`);
    process.exit(3);
  }
}
sandbox.prompts = JSON.parse(fs.readFileSync(0, 'utf8'));
const out = vm.runInContext(
  'const corpus = buildCorpus(loadSkills());' +
  'prompts.map((p) => rankSkills(p, corpus).map((r) => [r.name, r.score]))',
  sandbox,
);
process.stdout.write(JSON.stringify(out));
"""


@dataclass
class Verdict:
    passed: bool | None  # None: the case could not be graded (an owner no skill of the catalog is)
    rank: int | None  # of the case's own skill
    rank1: bool = False


def load_skills(catalog: Path) -> dict[str, str]:
    folders = sorted(path.parent for path in (catalog / "skills").glob("*/SKILL.md"))
    return {folder.name: skill_mod.load(folder.name, folder).description for folder in folders}


def load_cases(catalog: Path) -> list[Case]:
    cases = []
    for path in sorted((catalog / "evals" / "cases").glob("*.json")):
        skill, trigger = path.stem, json.loads(path.read_text(encoding="utf-8")).get("trigger") or {}
        source = path.relative_to(catalog).as_posix()
        for n, item in enumerate(trigger.get("positive") or [], 1):
            top_k = item.get("top_k") or DEFAULT_TOP_K
            cases.append(Case(f"{skill}-pos-{n}", item["prompt"], True, skill, source, top_k=top_k))
        for n, item in enumerate(trigger.get("negative") or [], 1):
            cases.append(
                Case(f"{skill}-neg-{n}", item["prompt"], False, skill, source, owner=item.get("owner"))
            )
    return cases


def ours(descriptions: dict[str, str], cases: list[Case]) -> list[Verdict]:
    out = []
    for outcome in LexicalEngine(descriptions).grade_all(cases):
        passed = outcome.passed if outcome.graded else None
        out.append(Verdict(passed, outcome.rank, outcome.rank1))
    return out


def ours_read_as_theirs(descriptions: dict[str, str], cases: list[Case]) -> list[Verdict]:
    """Our rankings under their tier's reading of an owner (the owner outranks the case's skill, and need
    not be first): the two engines' rankings compared under one rule."""
    out = []
    for outcome, verdict in zip(
        LexicalEngine(descriptions).grade_all(cases), ours(descriptions, cases), strict=True
    ):
        case = outcome.case
        if case.should_trigger or not case.owner or verdict.passed is None:
            out.append(verdict)
            continue
        own_first = outcome.rank == 1 and outcome.score > 0
        owner_above = bool(outcome.owner_score) and (outcome.owner_rank or 0) < (outcome.rank or 0)
        out.append(Verdict(not own_first and owner_above, outcome.rank))
    return out


def theirs(checkout: Path, catalog: Path, cases: list[Case]) -> list[Verdict]:
    script = checkout / THEIR_SCRIPT
    node = shutil.which("node")
    if node is None:
        raise SystemExit("error: node is not on PATH; their engine is a node script")
    if not script.is_file():
        raise SystemExit(f"error: {script} does not exist; --theirs names a checkout of agent-skills")
    done = subprocess.run(
        [node, "-e", DRIVER, str(script.resolve()), str(catalog.resolve())],
        input=json.dumps([case.prompt for case in cases]),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise SystemExit(f"error: their engine could not rank the prompts: {done.stderr.strip()[-800:]}")
    return [
        their_verdict(case, ranking) for case, ranking in zip(cases, json.loads(done.stdout), strict=True)
    ]


def their_verdict(case: Case, ranking: list[list]) -> Verdict:
    """Their tier's reading of one ranking (a tie is ordered by their sort, as their gate sees it)."""
    names = [name for name, _ in ranking]
    scores = dict((name, score) for name, score in ranking)
    rank = names.index(case.skill) + 1 if case.skill in names else None
    own = scores.get(case.skill, 0)
    if case.should_trigger:
        return Verdict(rank is not None and rank <= case.top_k and own > 0, rank, rank == 1 and own > 0)
    passed = not (rank == 1 and own > 0)
    if case.owner:
        if case.owner not in names:
            return Verdict(None, rank)
        passed = passed and scores[case.owner] > 0 and names.index(case.owner) + 1 < (rank or 0)
    return Verdict(passed, rank)


def rates(name: str, cases: list[Case], verdicts: list[Verdict]) -> str:
    graded = [(case, v) for case, v in zip(cases, verdicts, strict=True) if v.passed is not None]
    positives = [v for case, v in graded if case.should_trigger]
    negatives = [v for case, v in graded if not case.should_trigger]
    ungraded = sum(v.passed is None for v in verdicts)
    rank1, top_k = sum(v.rank1 for v in positives), sum(bool(v.passed) for v in positives)
    count = len(positives) or 1
    return (
        f"{name:<7} rank-1 {rank1}/{len(positives)} ({100 * rank1 / count:.0f} %), "
        f"top-k {top_k}/{len(positives)} ({100 * top_k / count:.0f} %), "
        f"negatives {sum(bool(v.passed) for v in negatives)}/{len(negatives)}, not graded {ungraded}"
    )


def describe(case: Case, mine: Verdict, other: Verdict) -> str:
    kind = f"top {case.top_k}" if case.should_trigger else f"owner {case.owner}" if case.owner else "negative"
    return f"  {case.id} ({kind}; ours rank {mine.rank}, theirs rank {other.rank}): {case.prompt}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--catalog", type=Path, required=True, help="skills/*/SKILL.md and evals/cases/*.json"
    )
    parser.add_argument("--theirs", type=Path, help="a checkout of agent-skills holding scripts/run-evals.js")
    args = parser.parse_args(argv)
    descriptions, cases = load_skills(args.catalog), load_cases(args.catalog)
    if not cases:
        print(f"error: no case files under {args.catalog / 'evals' / 'cases'}", file=sys.stderr)
        return 2
    files = len({case.source for case in cases})
    print(f"{len(cases)} cases from {files} case files, ranked against {len(descriptions)} skills")
    mine = ours(descriptions, cases)
    print(rates("ours", cases, mine))
    print(rates("ours*", cases, ours_read_as_theirs(descriptions, cases)) + " (* owners read as theirs are)")
    if args.theirs is None:
        print("theirs: not run (no --theirs checkout of agent-skills given); ours alone above")
        return 0
    other = theirs(args.theirs, args.catalog, cases)
    print(rates("theirs", cases, other))
    agreed = sum(m.passed == o.passed for m, o in zip(mine, other, strict=True))
    neither = sum(m.passed is None and o.passed is None for m, o in zip(mine, other, strict=True))
    print(f"agreement: {agreed} of {len(cases)} cases ({neither} graded by neither)")
    triples = zip(cases, mine, other, strict=True)
    both = [(c, m, o) for c, m, o in triples if m.passed is not None and o.passed is not None]
    for title, winner in (("ours right, theirs wrong", True), ("theirs right, ours wrong", False)):
        won = [(c, m, o) for c, m, o in both if m.passed != o.passed and m.passed is winner]
        print(f"{title}: {len(won)}")
        for case, m, o in won:
            print(describe(case, m, o))
    return 0


if __name__ == "__main__":
    sys.exit(main())
