"""The phrasing of instructions meant to take over an agent (or the scanner's own judge), shared by the
rules that read prose: plain text, hidden markup and decoded payloads."""

from __future__ import annotations

import re

# Telling the model to drop what it was told before, or to take on a new, unrestricted role.
OVERRIDE = re.compile(
    r"(?=[abdefinosy])(?:"  # the letters a match starts with: other places are left at once
    r"\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?"
    r"(?:the\s+|your\s+|my\s+|these\s+|those\s+)?(?:previous|prior|above|earlier|preceding|former|original|"
    r"system|safety|existing|other)\s+(?:\w+\s+)?(?:instructions?|directions?|directives?|rules|prompts?|"
    r"guidelines|guardrails|restrictions|constraints|policies|messages)\b"
    r"|\bforget\s+(?:everything|all)\s+(?:you\s+(?:were|have\s+been)\s+told|above|before)\b"
    r"|\byou\s+are\s+no\s+longer\s+(?:bound|an?\s+\w+\s+assistant|restricted|claude)\b"
    r"|\b(?:enter|enable|activate)\s+(?:developer|god|dan|jailbreak|unrestricted)\s+mode\b"
    r"|\bnew\s+system\s+prompt\s*:"
    r"|\bact\s+as\s+if\s+you\s+have\s+no\s+(?:restrictions|rules|guidelines|limits)\b"
    r")",
    re.IGNORECASE,
)
# Keeping the user from seeing what the agent does.
SECRECY = re.compile(
    r"(?=[cdhnw])(?:"  # the letters a match starts with: other places are left at once
    r"\b(?:do\s+not|don'?t|never)\s+(?:tell|inform|mention\s+(?:this\s+|it\s+)?to|notify|alert|warn|show)\s+"
    r"(?:the\s+|your\s+)?(?:user|human|operator|developer)\b"
    r"|\bwithout\s+(?:telling|informing|asking|notifying|alerting|warning)\s+(?:the\s+|your\s+)?"
    r"(?:user|human|operator)\b"
    r"|\b(?:hide|conceal)\s+(?:this|these|it|the\s+\w+)\s+from\s+(?:the\s+)?(?:user|human)\b"
    r")",
    re.IGNORECASE,
)
# Talking to whoever reviews the skill: a scanner's LLM judge, an auditor, a classifier.
JUDGE = re.compile(
    r"(?=[acijlmnrst])(?:"  # the letters a match starts with: other places are left at once
    r"\b(?:note|message|instructions?)\s+(?:to|for)\s+(?:the\s+|any\s+)?(?:ai\s+|llm\s+|automated\s+|"
    r"security\s+)*(?:scanners?|reviewers?|auditors?|judges?|classifiers?|graders?|moderators?)\b"
    r"|\b(?:mark|classify|rate|report|label|treat)\s+(?:this|the)\s+(?:skill|file|package|code)\s+as\s+"
    r"(?:safe|benign|clean|harmless|trusted|verified)\b"
    r"|\b(?:scanners?|reviewers?|auditors?|judges?|classifiers?)\s+(?:must|should|shall)\s+"
    r"(?:ignore|skip|approve|pass)\b"
    r")",
    re.IGNORECASE,
)
# Hidden text addressed to the agent that asks it to act: the words that make a comment a directive.
ADDRESSED = re.compile(
    r"\b(?:you|assistant|agent|claude|model|llm|ai)\b[^.\n]{0,60}?\b(?:must|should|will|need\s+to|are\s+to)\b"
    r"|\b(?:always|silently|secretly|quietly|immediately)\s+(?:run|execute|send|post|upload|read|copy|"
    r"delete|remove|fetch|download|install|call|open)\b"
    r"|^\s*(?:run|execute|send|post|upload|read|copy|fetch|download|install|call|open|exfiltrate)\s+"
    r"(?:the\s+|this\s+|these\s+|all\s+)?(?:\S*(?:~/|\.ssh|\.env|\.aws|id_rsa|credentials|secrets?|tokens?|"
    r"keys?|https?://)\S*)",
    re.IGNORECASE | re.MULTILINE,
)


# Each pattern with the words it needs (lowercase): a substring search skips text it cannot match.
CUED = (
    (
        OVERRIDE,
        (
            "ignore",
            "disregard",
            "forget",
            "override",
            "bypass",
            "skip",
            "no longer",
            " mode",
            "system prompt",
            "act as if",
        ),
    ),
    (SECRECY, ("tell", "inform", "mention", "notify", "alert", "warn", "show", "without", "hide", "conceal")),
    (
        JUDGE,
        (
            "scanner",
            "reviewer",
            "auditor",
            "judge",
            "classifier",
            "grader",
            "moderator",
            "as safe",
            "as benign",
            "as clean",
            "as harmless",
            "as trusted",
            "as verified",
        ),
    ),
)


def takeover(text: str) -> re.Match[str] | None:
    """The first phrase of `text` that tries to take over the agent or its reviewer."""
    found = [m for m in (OVERRIDE.search(text), SECRECY.search(text), JUDGE.search(text)) if m]
    return min(found, key=lambda m: m.start()) if found else None


def quoted(match: re.Match[str], most: int = 80) -> str:
    """The matched words on one line, short enough for a message, with no backtick to break its quoting."""
    words = " ".join(match.group(0).split()).replace("`", "'")
    return words if len(words) <= most else words[: most - 1] + "…"
