"""Payloads encoded so no pattern sees them: long base64 or hex runs are decoded and read again by the
other rules (twice, for a payload encoded twice), and code that decodes text straight into a shell or
`exec` is reported whatever it decodes."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable
from itertools import compress

from harness.checks.security import exfiltration, phrases
from harness.checks.security.content import SkillContent, TextFile
from harness.checks.security.fetch_execute import PATTERN as FETCH_EXECUTE
from harness.model.findings import Finding

RULE = "encoded-payload"
SAY = "line {line} {what}: no reviewer reads an encoded payload; write it in plain text, or remove it."
MIN_RUN = 60
BASE64 = re.compile(
    rf"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/]{{{MIN_RUN},}}={{0,2}}|[A-Za-z0-9_-]{{{MIN_RUN},}}={{0,2}}"
)
HEX = re.compile(rf"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{{2}}){{{MIN_RUN // 2 + 10},}}(?![0-9A-Fa-f])")
DECODING_CUES = (
    "base64",
    "b64decode",
    "codecs.decode",
    "fromhex",
    "decompress",
    "marshal",
    "atob",
    "buffer.from",
)
# A character a long word may hold: anything but whitespace, quotes, brackets and separators.
WORD_CHAR = r"[^\s\"'`()<>\[\]{},;:|]"
# Tried only where a word starts (the lookbehind): tried at every character, it would rescan each word.
LONG_WORD = re.compile(rf"(?<!{WORD_CHAR}){WORD_CHAR}{{{MIN_RUN},}}")
# MIN_RUN characters of a long word in a row, searched in one whitespace-separated word of a text.
WORD_RUN = re.compile(rf"{WORD_CHAR}{{{MIN_RUN}}}")
DECODE_AND_RUN = re.compile(
    r"(?=[befi])(?:"  # the letters a match starts with: other places are left at once
    r"\bbase64\s+(?:-d|--decode|-D)\b[^\n]*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b"
    r"|\b(?:exec|eval)\s*\(\s*(?:base64\.b64decode|codecs\.decode|bytes\.fromhex|zlib\.decompress|"
    r"marshal\.loads|atob|Buffer\.from)\s*\("
    r"|FromBase64String[^\n]*\|\s*(?:iex|invoke-expression)\b|\b(?:iex|invoke-expression)\b[^\n]*FromBase64String"
    r")",
    re.IGNORECASE,
)
CODE = re.compile(
    r"^#!|\bimport\s+(?:os|subprocess|socket|requests|urllib)\b|\bsubprocess\.|\bos\.system\(|\beval\(|\bexec\(|"
    r"/bin/(?:ba)?sh\b|\bpowershell\b|\bnc\s+-[el]",
    re.IGNORECASE | re.MULTILINE,
)


def scan(content: SkillContent) -> list[Finding]:
    return content.per_text(in_file)


def in_file(content: SkillContent, text: TextFile) -> list[Finding]:
    out = []
    decoding = text.holds_any(DECODING_CUES)
    for match in text.finditer(DECODE_AND_RUN) if decoding else ():
        out.append(
            report(content, text, match.start(), f"decodes text and runs it (`{phrases.quoted(match)}`)")
        )
    for long in long_words(text):  # runs lie in long words: a cheap pattern finds those
        for pattern in (BASE64, HEX):
            for match in pattern.finditer(long.group(0)):
                said = concern(decoded(match.group(0), pattern is HEX), depth=2)
                if said:
                    out.append(
                        report(content, text, long.start() + match.start(), f"encodes text that {said}")
                    )
    return out


def long_words(text: TextFile) -> tuple[re.Match[str], ...]:
    """LONG_WORD's matches, searched only in a text that can hold one (most texts cannot)."""
    return text.finditer(LONG_WORD) if may_hold_long_word(text.words) else ()


def may_hold_long_word(words: Iterable[str]) -> bool:
    """Whether LONG_WORD matches somewhere in a text whose words (split by `str.split`, each once) are
    `words`: a match holds no whitespace (its class excludes `\\s`, the characters `str.split` splits
    on), so it lies in one word, and a word holding MIN_RUN word characters in a row starts a match."""
    long = compress(words, map(MIN_RUN.__le__, map(len, words)))  # chosen in C, not word by word
    return any(map(WORD_RUN.search, long))


def report(content: SkillContent, text: TextFile, at: int, what: str) -> Finding:
    return content.warning_at(RULE, text, at, lambda line: SAY.format(line=line, what=what))


def decoded(run: str, hexadecimal: bool) -> str:
    """The run decoded as UTF-8 text, or empty when it is not text (an image, a hash, a key)."""
    try:
        if hexadecimal:
            raw = bytes.fromhex(run)
        else:
            padded = run + "=" * (-len(run.rstrip("=")) % 4)
            raw = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
        words = raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return ""
    printable = sum(c.isprintable() or c in "\n\t\r" for c in words)
    return words if words and printable / len(words) > 0.95 else ""


def concern(words: str, depth: int) -> str:
    """What decoded text does that the rules would report in plain text, or empty."""
    if not words:
        return ""
    takeover = phrases.takeover(words)
    if takeover:
        return f"says `{phrases.quoted(takeover)}`"
    for pattern in (FETCH_EXECUTE, *(kind for kind, _ in exfiltration.KINDS)):
        match = pattern.search(words)
        if match:
            return f"holds `{phrases.quoted(match)}`"
    if CODE.search(words):
        return f"is code to run (`{phrases.quoted(CODE.search(words))}`)"  # type: ignore[arg-type]
    if depth > 1:
        for pattern in (BASE64, HEX):
            for match in pattern.finditer(words):
                inner = concern(decoded(match.group(0), pattern is HEX), depth - 1)
                if inner:
                    return f"is itself encoded, and {inner}"
    return ""
