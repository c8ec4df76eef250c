"""Files no rule can read: compiled code, archives, office documents and binaries shipped in a skill
(`opaque-file`), and files the scan could not read whole: too large, UTF-16, not UTF-8 (`not-scanned`).
Coverage is a verdict: a file the scan did not read is reported, never passed as clean. Images and fonts
whose bytes are what their name says are media, not code, and pass; so does the byte-code cache of a
script beside it that git leaves out of every commit (`content.local_cache`)."""

from __future__ import annotations

from pathlib import Path

from harness.checks.security.content import UNCHECKED, SkillContent, bytecode_flags
from harness.model import findings
from harness.model.findings import Finding

OPAQUE = "opaque-file"
NOT_SCANNED = "not-scanned"
# Leading bytes -> what the file is. Zip covers office documents, jars and wheels.
MAGIC = (
    (b"PK\x03\x04", "a zip archive (or an office document, jar or wheel, which are zips)"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"BZh", "a bzip2 archive"),
    (b"\xfd7zXZ\x00", "an xz archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!", "a RAR archive"),
    (b"\xd0\xcf\x11\xe0", "a legacy office document (OLE)"),
    (b"\x7fELF", "an ELF executable or library"),
    (b"MZ", "a Windows executable or library"),
    (b"\xcf\xfa\xed\xfe", "a Mach-O executable"),
    (b"\xca\xfe\xba\xbe", "a Mach-O universal binary or Java class"),
    (b"\x00asm", "a WebAssembly module"),
)
# Media: named by extension, confirmed by their bytes. A media name over other bytes is a disguise.
MEDIA = {
    ".png": (b"\x89PNG",),
    ".jpg": (b"\xff\xd8\xff",),
    ".jpeg": (b"\xff\xd8\xff",),
    ".gif": (b"GIF8",),
    ".webp": (b"RIFF",),
    ".ico": (b"\x00\x00\x01\x00",),
    ".bmp": (b"BM",),
    ".ttf": (b"\x00\x01\x00\x00", b"true"),
    ".otf": (b"OTTO",),
    ".woff": (b"wOFF",),
    ".woff2": (b"wOF2",),
    ".pdf": (b"%PDF",),
    ".mp3": (b"ID3", b"\xff\xfb", b"\xff\xf3"),
    ".wav": (b"RIFF",),
}
COMPILED = {".pyc": "compiled Python bytecode", ".pyo": "compiled Python bytecode", ".class": "a Java class"}
ARCHIVE_NAMES = (".tar", ".tgz", ".zip", ".jar", ".whl", ".egg", ".docx", ".xlsx", ".pptx", ".docm", ".xlsm")


def scan(content: SkillContent) -> list[Finding]:
    out = []
    for rel, (head, reason) in content.undecoded.items():
        suffix = Path(rel).suffix.lower()
        if suffix in MEDIA and head.startswith(MEDIA[suffix]) or rel in content.caches:
            continue  # media; or the byte-code cache of a script run here, which git never commits
        kind = what_it_is(rel, head, binary="NUL" in reason)
        if kind:
            out.append(
                findings.warning(
                    OPAQUE,
                    rel,
                    f"the skill ships {kind}, which no reviewer or scanner can read and an agent can run or "
                    "unpack; ship the source it comes from instead (or keep it out of the skill folder).",
                )
            )
        else:
            out.append(not_scanned(rel, reason))
    out.extend(not_scanned(rel, reason) for rel, reason in content.unread.items())
    for text in content.texts:  # text under a binary's name (a .pyc of source) is still opaque to tools
        if Path(text.name).suffix.lower() in COMPILED or text.name.lower().endswith(ARCHIVE_NAMES):
            out.append(
                findings.warning(
                    OPAQUE,
                    text.rel,
                    "the file's name says it is compiled or archived, which tools skip unread; "
                    "give it the name of what it holds.",
                )
            )
    return out


def what_it_is(rel: str, head: bytes, binary: bool) -> str:
    """What an undecodable file is, when it is no text at all; empty for text in another encoding."""
    suffix = Path(rel).suffix.lower()
    flags = bytecode_flags(head)
    if suffix == ".pyc" and flags == UNCHECKED:
        return "compiled Python bytecode that Python runs without checking it against any source (PEP 552)"
    if suffix in COMPILED:
        return COMPILED[suffix]
    kind = next((kind for magic, kind in MAGIC if head.startswith(magic)), "")
    if flags is not None and not kind:
        return "compiled Python bytecode"
    if not kind and (suffix in MEDIA or rel.lower().endswith(ARCHIVE_NAMES)):
        return f"a file named `{Path(rel).name}` whose bytes are not that"
    return kind or ("a binary file" if binary else "")


def not_scanned(rel: str, reason: str) -> Finding:
    return findings.warning(
        NOT_SCANNED,
        rel,
        f"the security scan could not read this file whole ({reason}), so nothing in it was checked; "
        "a file the scan cannot read is never passed as clean.",
    )
