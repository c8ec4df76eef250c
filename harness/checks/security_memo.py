"""The security pack's findings for each skill, remembered in the parse memo by what the pack reads.

A pre-commit hook scans mostly unchanged skills: a skill whose files (names and bytes), SKILL.md and
place are the ones a run already scanned, with the same pack, gets that run's findings back without
importing the rules or compiling their patterns. Any change to those inputs or to the pack's code
(whose digest salts the memo) misses and scans again, so a rule finds exactly what it would.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, fields
from pathlib import Path

from harness.checks import CheckOptions
from harness.checks.security import content
from harness.memo import Memo, code_digest
from harness.model.catalog import Catalog
from harness.model.findings import Finding

KIND = "security"
FIELDS = frozenset(item.name for item in fields(Finding))


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    """The pack's findings over every selected skill, as `harness.checks.security.pack.check` makes them."""
    memo = Memo.of_repo(catalog.repo.root, KIND, fingerprint())
    out: list[Finding] = []
    searches = content.Seen()  # a file shipped by several skills is searched once
    for name, skill in catalog.skills.items():
        read = content.load(skill, catalog.repo.rel, searches, catalog.tree(name))
        key = memo.key(*inputs(read))
        known = restored(memo.get(key))
        if known is None:
            from harness.checks.security.pack import scan_content  # the rules and their patterns on a miss

            known = scan_content(read)
            memo.put(key, [asdict(finding) for finding in known])
        out.extend(known)
    memo.save()
    return out


def inputs(read: content.SkillContent) -> list[str]:
    """Everything the rules see of one skill: its name, place, SKILL.md and each file under it."""
    skill = read.skill
    parts = [skill.name, read.rel, read.skill_md, str(skill.has_bom), skill.text]
    for text in read.texts:
        parts += ["text", text.rel, text.name, text.text]
    for where, (head, reason) in read.undecoded.items():
        parts += ["undecoded", where, head.hex(), reason]
    for where, reason in read.unread.items():
        parts += ["unread", where, reason]
    for where in sorted(read.caches):  # git's word on a file changes what opaque-file says of it
        parts += ["cache", where]
    return parts


def restored(value: object) -> list[Finding] | None:
    """The remembered findings, or None for a missing or malformed entry (scanned again)."""
    if not isinstance(value, list):
        return None
    out = []
    for item in value:
        if not isinstance(item, dict) or set(item) != FIELDS:
            return None
        out.append(Finding(**item))
    return out


def fingerprint() -> str:
    """A digest of the pack's code, of what it builds findings with and of the Markdown parser it uses."""
    harness = Path(__file__).resolve().parent.parent
    files = sorted((harness / "checks" / "security").glob("*.py"))
    files += [harness / "model" / name for name in ("findings.py", "skill.py", "skill_tree.py")]
    files += [harness / "markdown" / "sections.py", harness / "markdown" / "budget.py", harness / "files.py"]
    return hashlib.sha256(code_digest(files, ("markdown_it",)).encode()).hexdigest()
