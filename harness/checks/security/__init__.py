"""The security rule pack: one module per concern, each reading a skill's files as `content` loads them
once. Every rule reports at warning severity (`--error RULES` makes any of them gate); a match in a
fenced example of a skill about security is reported lower, with the reason.

The registry and the scan are in `pack`; this package imports nothing, so that the memo
(`harness.checks.security_memo`) reads a skill's files without loading the rules."""
