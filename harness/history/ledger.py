"""The ledger read back: the JSON reports of graded runs in a folder (or named one by one), each case's
verdict in each run with the digests of what produced it.

Routing (agent engine, one agent or a matrix of several) and behavioral reports are the ledger. The
reports of other commands are passed over silently (they grade no case over time); the lexical engine's
too, an approximation that ranks without an agent, but those are counted so that history can say where
a routing run went. A file that is not JSON, or JSON that is no
skillscope report, is one sentence naming it, and the rest is read.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from harness import jsonsafe, nesting
from harness.files import MAX_REPORT_BYTES, UnreadableFile, read_text
from harness.history.index import Index, index_path, packed, stamp, unpacked

LEDGER_COMMANDS = ("routing", "routing-matrix", "behavioral", "behavioral-matrix")
MATRICES = ("routing-matrix", "behavioral-matrix")  # reports holding one run per leg
# Every other command that writes a report: none grades a case over time, so history passes them over.
OTHER_COMMANDS = (
    "structural",
    "refs",
    "compare",
    "compare-matrix",
    "cost",
    "select",
    "sweep",
    "tune",
    "history",
)
REPORT_DEPTH = nesting.REPORT_DEPTH
REPORT_LIMIT = MAX_REPORT_BYTES
GRADED = ("pass", "fail")
# What the index keeps as the reason a lexical report was passed over: not a problem, a count. The
# report's digest follows it, so two copies of one report (latest-routing.json) count once.
LEXICAL = "lexical"


def lexical_reason(digest: str) -> str:
    return f"{LEXICAL} {digest}"


def lexical_identity(reason: str | None, label: str) -> str | None:
    """The report a lexical reason was kept for (its digest; its label in an index written before the
    digest was kept), or None when `reason` is not a lexical one."""
    if reason == LEXICAL:
        return label
    if reason and reason.startswith(LEXICAL + " "):
        return reason.removeprefix(LEXICAL + " ")
    return None


@dataclass(frozen=True)
class Run:
    """One graded run: which report, when, and what it ran on."""

    file: str  # as the reader should see it: relative to where history ran, when under it
    command: str  # routing or behavioral (a matrix's runs are each a routing run)
    started_at: str
    agent: str | None
    agent_version: str | None
    model: str | None
    harness_version: str | None
    settings: dict[str, Any] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)  # the ledger's file digests; none before it
    skill_paths: dict[str, str] = field(default_factory=dict)  # skill -> root-relative folder
    # The agent (and a behavioral run's judge) as the ledger digests it: runtime, CLI version and the
    # model and endpoint variables its environment set; what a change of the agent is named from.
    identities: dict[str, Any] = field(default_factory=dict)
    base: bool = False  # read from --against: the base branch's history
    # Two copies of one report (latest-routing.json beside its own file, or the base's ledger restored
    # beside the branch's) are one run: the digest of the report's bytes, and which run of it this is.
    identity: str = ""

    @property
    def day(self) -> date | None:
        try:
            return date.fromisoformat(self.started_at[:10])
        except ValueError:
            return None


@dataclass(frozen=True)
class Entry:
    """One case's verdict in one run."""

    run: Run
    case: str
    skill: str | None
    source: str | None  # the dataset that writes it
    status: str  # pass, fail, error, blocked, not-run
    verdict: str  # routing's verdict word; behavioral's status
    digests: dict[str, str | None] | None  # None: a report from before the ledger
    flaky: bool = False  # its samples in this one run disagreed
    quarantined: bool = False
    # Every sample of it came from the result cache: a copy of an earlier verdict, not a second sample.
    replayed: bool = False

    @property
    def graded(self) -> bool:
        return self.status in GRADED


# Words a status or verdict is coded by: pass and fail first, so a graded code is below GRADED_CODES.
GRADED_CODES = len(GRADED)
FLAKY_FLAG, QUARANTINED_FLAG, REPLAYED_FLAG = 1, 2, 4


@dataclass
class Rows:
    """One case's verdicts over the runs, as columns of small integers (one item per run it was in,
    oldest first): what history reads of 500 runs of 1,000 cases without half a million objects."""

    skill: str | None
    source: str | None
    runs: list[int] = field(default_factory=list)  # positions in the ledger's runs
    status: list[int] = field(default_factory=list)  # positions in the ledger's words
    verdict: list[int] = field(default_factory=list)
    digest: list[int] = field(default_factory=list)  # positions in the ledger's digests; -1: none
    flags: list[int] = field(default_factory=list)  # FLAKY_FLAG | QUARANTINED_FLAG | REPLAYED_FLAG


Key = tuple[str, "str | None", str]  # command, agent, case id: one timeline


class Ledger:
    """The runs read (oldest first) and each case's rows; words and digests are tables the rows point
    into. Built from entries (`Ledger(runs, entries)`) or from columns (`Ledger.of_rows`)."""

    def __init__(
        self,
        runs: list[Run] | None = None,
        entries: list[Entry] | None = None,
        problems: list[str] | None = None,
    ) -> None:
        self.runs: list[Run] = list(runs or [])
        self.problems: list[str] = list(problems or [])
        self.left_out: dict[str, str] = {}  # report name -> why it was left out, for the index
        # The lexical routing reports passed over: each report's digest -> its name as the reader sees it
        # (the first of its copies).
        self.lexical: dict[str, str] = {}
        self.words: list[str] = list(GRADED)
        self.digests: list[dict] = []
        self.cases: dict[Key, Rows] = {}
        self._word_at = {w: i for i, w in enumerate(self.words)}
        self._digest_at: dict[tuple, int] = {}
        self._run_at = {id(run): i for i, run in enumerate(self.runs)}
        for entry in entries or []:
            self.add(entry)

    @classmethod
    def of_rows(
        cls,
        runs: list[Run],
        words: list[str],
        digests: list[dict],
        cases: dict[Key, Rows],
        problems: list[str],
        lexical: dict[str, str] | None = None,
    ) -> Ledger:
        ledger = cls(runs, None, problems)
        ledger.words, ledger.digests, ledger.cases = words, digests, cases
        ledger.lexical = dict(lexical or {})
        ledger._word_at = {w: i for i, w in enumerate(words)}
        ledger._digest_at = {tuple(sorted(d.items())): i for i, d in enumerate(digests)}
        return ledger

    def pass_over_lexical(self, identity: str, label: str) -> None:
        self.lexical.setdefault(identity, label)

    def word(self, text: str) -> int:
        spot = self._word_at.get(text)
        if spot is None:
            spot = self._word_at[text] = len(self.words)
            self.words.append(text)
        return spot

    def digest_id(self, digests: dict | None) -> int:
        if digests is None:
            return -1
        key = tuple(sorted(digests.items()))
        spot = self._digest_at.get(key)
        if spot is None:
            spot = self._digest_at[key] = len(self.digests)
            self.digests.append(digests)
        return spot

    def add_run(self, run: Run) -> int:
        spot = self._run_at.get(id(run))
        if spot is None:
            spot = self._run_at[id(run)] = len(self.runs)
            self.runs.append(run)
        return spot

    def add(self, entry: Entry) -> None:
        """One case's verdict in one run (appended after its others: add a run's entries in run order)."""
        key = (entry.run.command, entry.run.agent, entry.case)
        rows = self.cases.get(key)
        if rows is None:
            rows = self.cases[key] = Rows(entry.skill, entry.source)
        rows.runs.append(self.add_run(entry.run))
        rows.status.append(self.word(entry.status))
        rows.verdict.append(self.word(entry.verdict))
        rows.digest.append(self.digest_id(entry.digests))
        rows.flags.append(
            FLAKY_FLAG * entry.flaky | QUARANTINED_FLAG * entry.quarantined | REPLAYED_FLAG * entry.replayed
        )

    def entry(self, key: Key, rows: Rows, i: int) -> Entry:
        spot = rows.digest[i]
        return Entry(
            run=self.runs[rows.runs[i]],
            case=key[2],
            skill=rows.skill,
            source=rows.source,
            status=self.words[rows.status[i]],
            verdict=self.words[rows.verdict[i]],
            digests=self.digests[spot] if spot >= 0 else None,
            flaky=bool(rows.flags[i] & FLAKY_FLAG),
            quarantined=bool(rows.flags[i] & QUARANTINED_FLAG),
            replayed=bool(rows.flags[i] & REPLAYED_FLAG),
        )

    def replays(self) -> int:
        """How many runs replayed every verdict they hold from the result cache: no new sample of any case."""
        fresh, seen = set(), set()
        for rows in self.cases.values():
            for run, flags in zip(rows.runs, rows.flags, strict=True):
                seen.add(run)
                if not flags & REPLAYED_FLAG:
                    fresh.add(run)
        return len(seen - fresh)

    @property
    def entries(self) -> list[Entry]:
        """Every verdict as an object, by run (for a reader of a few; the states read the rows)."""
        found = [
            (r, self.entry(key, rows, i)) for key, rows in self.cases.items() for i, r in enumerate(rows.runs)
        ]
        return [entry for _, entry in sorted(found, key=lambda pair: pair[0])]

    def reordered(self, order: list[int]) -> Ledger:
        """The ledger of the runs at positions `order` (in that order), each case's rows kept only for
        them; a case left without a row is dropped."""
        if order == list(range(len(self.runs))):
            return self
        new_at = {old: new for new, old in enumerate(order)}
        cases = {}
        for key, rows in self.cases.items():
            kept = sorted((new_at[r], i) for i, r in enumerate(rows.runs) if r in new_at)
            if kept:
                cases[key] = Rows(
                    rows.skill,
                    rows.source,
                    [r for r, _ in kept],
                    [rows.status[i] for _, i in kept],
                    [rows.verdict[i] for _, i in kept],
                    [rows.digest[i] for _, i in kept],
                    [rows.flags[i] for _, i in kept],
                )
        runs = [self.runs[old] for old in order]
        return Ledger.of_rows(runs, self.words, self.digests, cases, self.problems, self.lexical)


class NotAReport(Exception):
    """`reason` completes "<file>: <reason>; left out"."""


class LexicalReport(Exception):
    """A lexical routing run's report: graded no case over time, so passed over, and counted once
    however many copies of it the folder holds; its one argument is the digest of its bytes."""


def read(
    paths: list[Path], shown: dict[Path, str], *, base: bool = False, cache: Path | None = None
) -> Ledger:
    """The ledger of every report under the folders and files `paths` (a folder's *.json, not its
    sub-folders), each file named as `shown` says (else its path). `cache`: the user's cache folder,
    where what was read is indexed for the next answer (see harness.history.index); None reads all."""
    parts = []
    for path in paths:
        # latest-<command>.json is a copy of a report beside it: sorted after the reports, so a run
        # read twice is named by its own file, which stays, not by the copy the next run replaces.
        if path.is_dir():
            files = sorted(path.glob("*.json"), key=lambda f: (f.name.startswith("latest-"), f.name))
        else:
            files = [path]
        name = shown.get(path, str(path))
        labels = {file.name: name if file == path else f"{name.rstrip('/')}/{file.name}" for file in files}
        kept = Index(index_path(cache, path) if cache is not None else None)
        stamps = {file.name: stamp(file) for file in files}
        if kept.current(stamps):
            part = indexed(kept.data, labels, base)
            files = kept.data["files"].items()
            said = [(labels[n], f[3]) for n, f in files if f[3]]
            for label, why in said:
                identity = lexical_identity(why, label)
                if identity is None:
                    part.problems.append(f"{label}: {why}; left out.")
                else:
                    part.pass_over_lexical(identity, label)
            parts.append(part)
            continue
        part = read_afresh(files, labels, stamps, kept, base)
        kept.save(index_data(part, stamps, labels))
        parts.append(part)
    return deduplicated(parts[0]) if len(parts) == 1 else merged(*parts)


def read_against(
    paths: list[Path], shown: dict[Path, str], base: Path | None, base_shown: str, cache: Path | None = None
) -> Ledger:
    """The ledger of `paths` (see `read`), with the base branch's history at `base` (named `base_shown`)
    merged behind it when given: a run restored into both is the branch's copy."""
    ledger = read(paths, shown, cache=cache)
    if base is None:
        return ledger
    return merged(ledger, read([base], {base: base_shown}, base=True, cache=cache))


def read_afresh(files: list[Path], labels: dict[str, str], stamps: dict, kept: Index, base: bool) -> Ledger:
    """The reports of one folder in name order, each from the index when it has not changed since."""
    old = indexed(kept.data, labels, base) if kept.data else Ledger()
    old_entries: dict[int, list[Entry]] = {}
    for entry in old.entries if old.runs else []:
        old_entries.setdefault(id(entry.run), []).append(entry)
    part = Ledger()
    reasons: dict[str, str] = {}  # why a report was left out, kept so the index can say it again
    for file in files:
        positions, reason = kept.unchanged(file.name, stamps[file.name])
        identity = lexical_identity(reason, labels[file.name])
        if reason and identity is not None:
            part.pass_over_lexical(identity, labels[file.name])
            reasons[file.name] = reason
            continue
        if reason:
            part.problems.append(f"{labels[file.name]}: {reason}; left out.")
            reasons[file.name] = reason
            continue
        if positions is not None:
            runs = [(old.runs[i], old_entries.get(id(old.runs[i]), [])) for i in positions]
        else:
            try:
                runs = runs_of(file, labels[file.name], base)
            except LexicalReport as exc:
                digest = str(exc)
                part.pass_over_lexical(digest, labels[file.name])
                reasons[file.name] = lexical_reason(digest)
                continue
            except NotAReport as exc:
                part.problems.append(f"{labels[file.name]}: {exc}; left out.")
                reasons[file.name] = str(exc)
                continue
        for run, entries in runs:
            part.add_run(run)
            for entry in entries:
                part.add(entry)
    part.left_out = reasons
    return part


# A run as the index keeps it: the name of its report, then its fields but where it was read from.
RUN_FIELDS = (
    "command",
    "started_at",
    "agent",
    "agent_version",
    "model",
    "harness_version",
    "settings",
    "files",
    "skill_paths",
    "identities",
    "identity",
)


def index_data(part: Ledger, stamps: dict, labels: dict[str, str]) -> dict:
    """`part` laid out as the index keeps it (see harness.history.index)."""
    name_of = {label: name for name, label in labels.items()}
    positions: dict[str, list[int]] = {}
    runs = []
    for i, run in enumerate(part.runs):
        name = name_of[run.file]
        positions.setdefault(name, []).append(i)
        runs.append([name, *(getattr(run, f) for f in RUN_FIELDS)])
    files = {
        name: [at[0], at[1], positions.get(name, []), part.left_out.get(name)]
        for name, at in stamps.items()
        if at is not None
    }
    cases = {
        key: [
            rows.skill,
            rows.source,
            *(packed(c) for c in (rows.runs, rows.status, rows.verdict, rows.digest, rows.flags)),
        ]
        for key, rows in part.cases.items()
    }
    return {"files": files, "runs": runs, "words": part.words, "digests": part.digests, "cases": cases}


def indexed(data: dict, labels: dict[str, str], base: bool) -> Ledger:
    """The ledger an index holds, each run named by its report's label."""
    runs = [
        Run(file=labels.get(name, name), base=base, **dict(zip(RUN_FIELDS, fields, strict=True)))
        for name, *fields in data["runs"]
    ]
    cases = {
        key: Rows(skill, source, *(unpacked(c) for c in columns))
        for key, (skill, source, *columns) in data["cases"].items()
    }
    return Ledger.of_rows(runs, list(data["words"]), list(data["digests"]), cases, [])


def merged(*ledgers: Ledger) -> Ledger:
    together = Ledger()
    for ledger in ledgers:
        for identity, label in ledger.lexical.items():
            together.pass_over_lexical(identity, label)
        for run in ledger.runs:
            together.add_run(run)
        for entry in ledger.entries:
            together.add(entry)
        together.problems += ledger.problems
    return deduplicated(together)


def deduplicated(ledger: Ledger) -> Ledger:
    """Each run once (its first copy, the branch's before the base's), oldest first."""
    seen: set[str] = set()
    order = []
    for i, run in enumerate(ledger.runs):
        if run.identity not in seen:
            seen.add(run.identity)
            order.append(i)
    order.sort(key=lambda i: ledger.runs[i].started_at)
    return ledger.reordered(order)


def runs_of(file: Path, label: str, base: bool) -> list[tuple[Run, list[Entry]]]:
    """The runs one report holds (a matrix holds one per agent); none for a report of another command.
    NotAReport when it is no skillscope report at all."""
    try:
        body = read_text(file, REPORT_LIMIT)
        document = jsonsafe.loads(body, file.name, depth=REPORT_DEPTH)
    except UnreadableFile as exc:
        raise NotAReport(f"cannot be read: {exc.reason}") from None
    except jsonsafe.JsonProblem as exc:
        raise NotAReport(exc.reason + (f" at line {exc.line}" if exc.line else "")) from None
    command = document.get("command") if isinstance(document, dict) else None
    digest = hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest()
    if command == "routing" and document.get("engine") == "lexical":
        raise LexicalReport(digest)
    if command in OTHER_COMMANDS:
        return []
    if command not in LEDGER_COMMANDS or not isinstance(document, dict):
        raise NotAReport("is not a skillscope report (no `command` naming a routing or behavioral run)")
    try:
        if command in MATRICES:
            return [one_run(run, label, base, f"{digest}:{i}") for i, run in enumerate(document["runs"])]
        return [one_run(document, label, base, digest)]
    except KeyError as exc:
        raise NotAReport(f'is a {command} report without the "{exc.args[0]}" field history reads') from None
    except (TypeError, AttributeError, ValueError):
        raise NotAReport(f"is a {command} report whose fields are not of the shapes history reads") from None


def one_run(document: dict, label: str, base: bool, identity: str) -> tuple[Run, list[Entry]]:
    meta = document.get("meta") or {}
    ledger = meta.get("ledger") or {}
    skills = ledger.get("skills") or {}
    run = Run(
        file=label,
        command="behavioral" if document["command"].startswith("behavioral") else "routing",
        started_at=str(document["started_at"]),
        agent=meta.get("agent"),
        agent_version=meta.get("agent_version"),
        model=meta.get("model"),
        harness_version=document.get("harness_version"),
        settings=dict(ledger.get("settings") or {}),
        files=dict(ledger.get("files") or {}),
        skill_paths={name: s["path"] for name, s in skills.items() if isinstance(s, dict) and s.get("path")},
        identities={
            role: dict(who) for role, who in (ledger.get("agent") or {}).items() if isinstance(who, dict)
        },
        base=base,
        identity=identity,
    )
    entries = [entry_of(run, case) for case in document["cases"]]
    return run, entries


def entry_of(run: Run, case: dict) -> Entry:
    status = str(case["status"])
    digests = case.get("digests")
    return Entry(
        run=run,
        case=str(case["id"]),
        skill=case.get("skill"),
        source=case.get("source"),
        status=status,
        verdict=str(case.get("verdict") or status),
        digests=dict(digests) if isinstance(digests, dict) else None,
        flaky=bool(case.get("flaky")),
        quarantined=bool(case.get("quarantined")),
        replayed=replayed(case),
    )


def replayed(case: dict) -> bool:
    """Whether a case's verdict came wholly from the result cache: a routing case's every sample, or a
    behavioral case, marked cached."""
    samples = case.get("samples")
    if isinstance(samples, list) and samples:
        return all(isinstance(s, dict) and s.get("cached") is True for s in samples)
    return case.get("cached") is True


def filtered(ledger: Ledger, skills: list[str], cases: list[str], since: date | None = None) -> Ledger:
    """The rows of the skills and cases asked for (all when none are), in runs started on `since` or
    later; the runs left are those that still hold a row."""
    chosen = {
        key: rows
        for key, rows in ledger.cases.items()
        if (not skills or rows.skill in skills) and (not cases or key[2] in cases)
    }
    used: set[int] = set()
    for rows in chosen.values():
        used.update(rows.runs)
    if since is not None:
        used = {i for i in used if (day := ledger.runs[i].day) is not None and day >= since}
    sub = Ledger.of_rows(ledger.runs, ledger.words, ledger.digests, chosen, ledger.problems, ledger.lexical)
    return sub.reordered(sorted(used))
