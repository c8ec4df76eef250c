"""Names every checkout can hold and every reader sees as they are: each skill folder, and each file and
folder inside it, free of names Windows reserves and of invisible or direction-changing characters.

A pipeline with Windows legs cannot check out `con/` or `aux.md`, and a right-to-left override makes
`evil\u202etxt.md` read as `evilmd.txt` in a review; both pass every other check.
"""

from __future__ import annotations

import re
import unicodedata

from harness.checks import CheckOptions
from harness.model import findings
from harness.model.catalog import Catalog
from harness.model.findings import Finding

# Device names Windows reserves, with any extension (`nul.txt` is the null device there too).
RESERVED = re.compile(r"^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.[^.]*)*$", re.IGNORECASE)
NOT_ON_WINDOWS = frozenset('<>:"|?*\\')
# Characters that change how a name reads without showing: bidi controls, zero-width ones, joiners.
INVISIBLE = frozenset(
    "\u061c\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff\u00ad\u180e"
)


def check(catalog: Catalog, options: CheckOptions) -> list[Finding]:
    out: list[Finding] = []
    for key, skill in catalog.skills.items():
        out.extend(name_findings(catalog.repo.rel(skill.path), skill.path.name))
        for step in catalog.tree(key).walk():
            if isinstance(step, OSError):
                continue  # a folder that cannot be listed shows no names
            here = catalog.repo.rel(step.path)
            for name in [*step.dirs, *step.files]:
                out.extend(name_findings(f"{here}/{name}", name))
    return out


def name_findings(rel: str, name: str) -> list[Finding]:
    """What is wrong with one path component `name`, found at root-relative `rel`."""
    shown = ascii(name)[1:-1]  # the escapes make an invisible character visible in the message
    out = []
    hidden = sorted({f"U+{ord(c):04X}" for c in name if c in INVISIBLE or unicodedata.category(c) == "Cc"})
    if hidden:
        out.append(
            findings.error(
                "path-invisible-character",
                rel,
                f"`{shown}` holds {', '.join(hidden)}, which no reader sees (or which reorders what they "
                "see); rename it with visible characters only.",
            )
        )
    if RESERVED.match(name):
        out.append(
            findings.error(
                "path-windows-reserved",
                rel,
                f"`{shown}` is a device name Windows reserves, so a checkout there fails; rename it.",
            )
        )
    elif name.endswith((".", " ")) or not NOT_ON_WINDOWS.isdisjoint(name):
        out.append(
            findings.error(
                "path-windows-reserved",
                rel,
                f'`{shown}` ends in a dot or a space, or holds one of < > : " | ? * \\, which Windows '
                "paths cannot; rename it.",
            )
        )
    return out
