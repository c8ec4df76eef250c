"""The ledger read back: the JSON reports of graded runs in a folder (or named one by one), each case's
verdict in each run with the digests of what produced it.

Routing (agent engine, one agent or a matrix of several) and behavioral reports are the ledger. The
reports of other commands are passed over silently (they grade no case over time); the lexical engine's
too, an approximation that ranks without an agent. A file that is not JSON, or JSON that is no
skillscope report, is one sentence naming it, and the rest is read.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from harness.files import UnreadableFile, read_text
from harness.history.index import Index, index_path, stamp

LEDGER_COMMANDS = ("routing", "routing-matrix", "behavioral", "behavioral-matrix")
MATRICES = ("routing-matrix", "behavioral-matrix")  # reports holding one run per leg
OTHER_COMMANDS = ("structural", "refs", "compare", "cost", "select", "history")
REPORT_LIMIT = 256 * 1024 * 1024  # a report is ours; a large run's runs to megabytes
GRADED = ("pass", "fail")


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

    @property
    def graded(self) -> bool:
        return self.status in GRADED


@dataclass
class Ledger:
    runs: list[Run] = field(default_factory=list)  # oldest first
    entries: list[Entry] = field(default_factory=list)  # by run, oldest first
    problems: list[str] = field(default_factory=list)  # one sentence per file left out


class NotAReport(Exception):
    """`reason` completes "<file>: <reason>; left out"."""


def read(
    paths: list[Path], shown: dict[Path, str], *, base: bool = False, cache: Path | None = None
) -> Ledger:
    """The ledger of every report under the folders and files `paths` (a folder's *.json, not its
    sub-folders), each file named as `shown` says (else its path). `cache`: the user's cache folder,
    where what was read is indexed for the next answer (see harness.history.index); None reads all."""
    ledger = Ledger()
    for path in paths:
        files = sorted(path.glob("*.json")) if path.is_dir() else [path]
        kept = Index(index_path(cache, path) if cache is not None else None)
        for file in files:
            name = shown.get(file) or shown.get(path, str(path))
            label = name if file == path else f"{name.rstrip('/')}/{file.name}"
            at = stamp(file)
            packed = kept.get(file, at)
            if packed is not None:
                runs = unpacked(packed, kept.digests, label, base)
            else:
                try:
                    runs = runs_of(file, label, base)
                except NotAReport as exc:
                    ledger.problems.append(f"{label}: {exc}; left out.")
                    continue
                kept.put(file, at, packed_runs(runs, kept))
            for run, entries in runs:
                ledger.runs.append(run)
                ledger.entries += entries
        kept.forget_missing({file.name for file in files})
        kept.save()
    return deduplicated(ledger)


# A run as the index keeps it: its fields but where it was read from, then one row per case whose
# digests are a place in the index's table, shared by every run (-1: none recorded).
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
    "identity",
)


def packed_runs(runs: list[tuple[Run, list[Entry]]], kept: Index) -> list:
    packed = []
    for run, entries in runs:
        rows = [
            (e.case, e.skill, e.source, e.status, e.verdict, kept.place(e.digests), e.flaky, e.quarantined)
            for e in entries
        ]
        packed.append(([getattr(run, f) for f in RUN_FIELDS], rows))
    return packed


def unpacked(packed: list, table: list[dict], label: str, base: bool) -> list[tuple[Run, list[Entry]]]:
    out = []
    for fields, rows in packed:
        run = Run(file=label, base=base, **dict(zip(RUN_FIELDS, fields, strict=True)))
        entries = [
            Entry(run, case, skill, source, status, verdict, table[spot] if spot >= 0 else None, flaky, held)
            for case, skill, source, status, verdict, spot, flaky, held in rows
        ]
        out.append((run, entries))
    return out


def merged(*ledgers: Ledger) -> Ledger:
    together = Ledger()
    for ledger in ledgers:
        together.runs += ledger.runs
        together.entries += ledger.entries
        together.problems += ledger.problems
    return deduplicated(together)


def deduplicated(ledger: Ledger) -> Ledger:
    """Each run once (its first copy, the branch's before the base's), oldest first."""
    kept: dict[str, Run] = {}
    for run in ledger.runs:
        kept.setdefault(run.identity, run)
    runs = sorted(kept.values(), key=lambda r: r.started_at)
    chosen = {id(r) for r in runs}
    order = {id(r): i for i, r in enumerate(runs)}
    entries = sorted((e for e in ledger.entries if id(e.run) in chosen), key=lambda e: order[id(e.run)])
    return Ledger(runs, entries, ledger.problems)


def runs_of(file: Path, label: str, base: bool) -> list[tuple[Run, list[Entry]]]:
    """The runs one report holds (a matrix holds one per agent); none for a report of another command.
    NotAReport when it is no skillscope report at all."""
    try:
        body = read_text(file, REPORT_LIMIT)
        document = json.loads(body)
    except UnreadableFile as exc:
        raise NotAReport(f"cannot be read: {exc.reason}") from None
    except json.JSONDecodeError as exc:
        raise NotAReport(f"is not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except (ValueError, RecursionError) as exc:
        raise NotAReport(f"is not JSON ({exc})") from None
    command = document.get("command") if isinstance(document, dict) else None
    if command in OTHER_COMMANDS or (command == "routing" and document.get("engine") == "lexical"):
        return []
    if command not in LEDGER_COMMANDS or not isinstance(document, dict):
        raise NotAReport("is not a skillscope report (no `command` naming a routing or behavioral run)")
    digest = hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest()
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
    )


def filtered(ledger: Ledger, skills: list[str], cases: list[str], since: date | None = None) -> Ledger:
    """The entries of the skills and cases asked for (all when none are), in runs started on `since` or
    later; the runs left are those that still hold an entry."""
    entries = [
        e
        for e in ledger.entries
        if (not skills or e.skill in skills)
        and (not cases or e.case in cases)
        and (since is None or (e.run.day is not None and e.run.day >= since))
    ]
    kept = {id(e.run) for e in entries}
    return Ledger([r for r in ledger.runs if id(r) in kept], entries, ledger.problems)
