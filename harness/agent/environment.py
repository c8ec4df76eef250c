"""The agent CLI's environment, built from an allowlist rather than copied from skillscope's own.

What reaches an agent: what any CLI needs to start and its tools to run (PATH, locale, TMPDIR,
proxies and certificates), the variables its runtime module declares (endpoint and model), and the
names the user passes with `--pass-env`. Nothing else of the harness's environment does: no cloud or
CI credential, no `SKILLSCOPE_*` variable (the cache's signing key among them), not even through
`--pass-env`. Each runtime then sets its own throwaway HOME and config on top.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

# What any CLI needs to start and its shell tools to behave: the search path, locale and time zone,
# the terminal kind, the temporary folder and who the user is.
START_VARS = (
    "PATH",
    "LANG",
    "LANGUAGE",
    "TZ",
    "TERM",
    "TMPDIR",
    "TMP",
    "TEMP",
    "USER",
    "LOGNAME",
    "SHELL",
)
START_PREFIXES = ("LC_",)
# How the machine reaches the network: a proxy, and the certificates of one that inspects TLS.
NETWORK_VARS = (
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "no_proxy",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
)
# The harness's own variables never reach an agent, whatever the user passes.
HARNESS_PREFIX = "SKILLSCOPE_"
VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def refused(names: Iterable[str]) -> str | None:
    """Why `--pass-env` may not pass `names`, in one sentence, or None when every name may go."""
    names = list(names)
    bad = [name for name in names if not VARIABLE_NAME.fullmatch(name)]
    if bad:
        return f"--pass-env: {', '.join(map(repr, bad))} is not an environment variable's name."
    own = [name for name in names if name.startswith(HARNESS_PREFIX)]
    if own:
        return (
            f"--pass-env: {', '.join(own)} is skillscope's own; no {HARNESS_PREFIX}* variable ever "
            "reaches the agent under test (the result cache's key among them). Drop it from "
            "--pass-env or the pass-env setting."
        )
    return None


def agent_environment(
    environ: Mapping[str, str], declared: Iterable[str], passed: Iterable[str] = ()
) -> dict[str, str]:
    """The variables of `environ` an agent CLI gets: those every CLI needs, the runtime's `declared`
    ones and the user's `passed` ones; never one of skillscope's own."""
    allowed = {*START_VARS, *NETWORK_VARS, *declared, *passed}
    return {
        name: value
        for name, value in environ.items()
        if (name in allowed or name.startswith(START_PREFIXES)) and not name.startswith(HARNESS_PREFIX)
    }
