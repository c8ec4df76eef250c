"""Content-addressed results of graded samples: one is reused only when nothing that could change it
changed, and only when this machine (or whoever holds its secret) wrote it.

A key is the SHA-256 of one canonical JSON document holding everything a sample depends on (the
commands list it; docs/usage.md says exactly what). An entry is that sample's JSON with the run that
made it, signed with HMAC-SHA256 under a secret kept outside the repo under test, written to a temp file
and renamed into place, so two runs sharing a folder never see half an entry. An entry that does not
verify (forged, edited, copied from another key, or signed with another secret) is a miss, counted for
the report.

The folder lives in the user's cache, one per repo; a folder a commit could fill (inside the repo under
test, or tracked by git) is refused before any work.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import json
import os
import secrets
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from harness import __version__, jsonsafe
from harness.agent import RUNTIMES, model_environment
from harness.deadline import now
from harness.errors import UsageError
from harness.files import MAX_REPORT_BYTES, UnreadableFile, git_listed, read_bytes
from harness.memo import repo_digest, user_cache
from harness.model.digests import canonical, digest_of
from harness.nesting import REPORT_DEPTH
from harness.paid.replay import Origin, Replay
from harness.writer import write_new, write_text

if TYPE_CHECKING:
    from harness.agent import Agent

RESULTS = "results"  # the result caches' folder in the user's skillscope cache, one sub-folder per repo
KEY_FILE = "signing.key"  # beside the entries; made by the first run that stores one
KEY_ENV = "SKILLSCOPE_CACHE_KEY"  # the secret itself, e.g. from a CI secret; wins over the key file
KEY_BYTES = 32
# Part of every key: bumping it retires every older entry without touching the folder.
ENTRY_FORMAT = 2


def key_of(kind: str, parts: Mapping[str, Any]) -> str:
    """The key of a `kind` sample ("routing", "behavioral") whose inputs are `parts`."""
    return digest_of({"kind": kind, "format": ENTRY_FORMAT, "harness_version": __version__, **parts})


def chosen_by_environment(runtime: str, environ: Mapping[str, str]) -> dict[str, str | None]:
    """What `runtime`'s CLI reads from `environ` to choose its model and endpoint (the variables its
    runtime module declares); an endpoint's user and password are left out, so no credential reaches a
    key."""
    return {
        name: without_credentials(environ[name])
        if name.endswith("_URL") and environ.get(name)
        else environ.get(name)
        for name in model_environment(runtime)
    }


def agent_identity(agent: Agent, chosen: Mapping[str, str | None]) -> dict:
    """An agent as a key (and a report's ledger) knows it: its runtime, its CLI's version, and what its
    environment `chosen` (see chosen_by_environment) picks for model and endpoint."""
    return {"runtime": agent.runtime, "version": agent.version, "environment": dict(chosen)}


def without_credentials(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:
        return hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()  # unparsable: never as given
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit(parts._replace(netloc=netloc))


def default_folder(root: Path, environ: Mapping[str, str]) -> Path:
    """The repo's result cache in the user's cache: `$XDG_CACHE_HOME/skillscope/results/<digest of the
    repo root's real path>` (else under ~/.cache)."""
    return user_cache(environ) / RESULTS / repo_digest(root)


def refuse_plantable(folder: Path, root: Path, named: str, fix: str, environ: Mapping[str, str]) -> None:
    """A usage error when a commit could have put entries in `folder`: it lies inside the repo under
    test (`root`), or git tracks files in it. `named` says where the folder came from, `fix` what to do."""
    real, repo = Path(os.path.realpath(folder)), Path(os.path.realpath(root))
    if real == repo or repo in real.parents:
        raise UsageError(
            f"{named} {folder} lies inside the repo under test, where a commit could plant graded "
            f"results; {fix}."
        )
    tracked = tracked_files(real, environ)
    if tracked:
        raise UsageError(
            f"{named} {folder} holds files tracked by git ({tracked[0]}), which a commit could plant; {fix}."
        )


def tracked_files(folder: Path, environ: Mapping[str, str]) -> list[str]:
    """The files git tracks under `folder`; none when it is in no work tree, or git cannot say."""
    if not folder.is_dir():
        return []
    return git_listed(folder, "--", ".", environ=environ) or []


# --- the entries ------------------------------------------------------------------------------------


class SigningKey:
    """The secret entries are signed with: `given` ($SKILLSCOPE_CACHE_KEY) when set, else a random key in
    `path`, readable by its owner only, made by the first run that stores an entry."""

    def __init__(self, path: Path, given: str | None = None):
        self.path = path
        self.given = given.encode("utf-8", "surrogatepass") if given else None

    def read(self) -> bytes | None:
        """The secret, or None when there is none yet (or the key file is not one skillscope wrote)."""
        if self.given is not None:
            return self.given
        try:
            text = read_bytes(self.path, 4 * KEY_BYTES + 1, follow_links=False).strip()
        except UnreadableFile:
            return None
        return text if len(text) >= 2 * KEY_BYTES else None

    def made(self) -> bytes:
        """The secret, made first when there is none; OSError when the file cannot be written."""
        found = self.read()
        if found is not None:
            return found
        text = secrets.token_hex(KEY_BYTES).encode("ascii") + b"\n"
        with contextlib.suppress(FileExistsError):  # another run made it first: its key is the one
            write_new(self.path, text, self.path.parent, private=True)
        found = self.read()
        if found is None:
            raise OSError(errno.EINVAL, f"{self.path} holds no key skillscope wrote; delete it")
        return found


def signature(secret: bytes, key: str, origin: Mapping[str, Any], sample: Mapping[str, Any]) -> str:
    """The HMAC-SHA256 of an entry under its key: moved to another key, it no longer verifies."""
    body = canonical({"format": ENTRY_FORMAT, "key": key, "made_by": origin, "sample": sample})
    return hmac.new(secret, body, hashlib.sha256).hexdigest()


class ResultCache:
    """Graded samples by key under one folder; safe for threads and for two runs at once.

    `origin` is the run storing entries; `environ` is read once, for the variables each runtime declares
    and $SKILLSCOPE_CACHE_KEY."""

    def __init__(self, folder: Path, origin: Origin | None = None, environ: Mapping[str, str] | None = None):
        environ = environ or {}
        self.folder = Path(folder)
        self.origin = origin or Origin(now())
        self.signing = SigningKey(self.folder / KEY_FILE, environ.get(KEY_ENV))
        self.chosen = {runtime: chosen_by_environment(runtime, environ) for runtime in RUNTIMES}
        self.write_error: str | None = None  # the first failed write, said once in the report
        self.rejected: set[str] = set()  # keys whose entry failed verification, said once in the report
        self._lock = threading.Lock()

    def agent_part(self, agent: Agent, isolation: bool = True) -> dict:
        """What a key holds of one agent: its runtime, CLI version, isolation (unless not asked for) and
        the model and endpoint its environment chooses."""
        part = agent_identity(agent, self.chosen.get(agent.runtime, {}))
        return {**part, "isolation": agent.describe()} if isolation else part

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str) -> Replay | None:
        """The verified entry for `key`, or None: a missing entry is a miss, and so is one that is damaged,
        unsigned or signed otherwise (counted in `rejected`)."""
        try:
            text = read_bytes(self._path(key), MAX_REPORT_BYTES)
        except UnreadableFile:
            return None
        replay = self._verified(key, text)
        if replay is None:
            with self._lock:
                self.rejected.add(key)
        return replay

    def _verified(self, key: str, text: bytes) -> Replay | None:
        secret = self.signing.read()
        try:
            entry = jsonsafe.loads(text, "cache entry", depth=REPORT_DEPTH)
        except jsonsafe.JsonProblem:
            return None
        if secret is None or not isinstance(entry, dict) or entry.get("format") != ENTRY_FORMAT:
            return None
        sample, made_by, mac = entry.get("sample"), entry.get("made_by"), entry.get("mac")
        origin = Origin.from_json(made_by)
        if not isinstance(sample, dict) or not isinstance(made_by, dict) or origin is None:
            return None
        if not isinstance(mac, str):
            return None
        if not hmac.compare_digest(mac, signature(secret, key, made_by, sample)):
            return None
        return Replay(sample, origin)

    def put(self, key: str, sample: Mapping[str, Any]) -> None:
        """Store `sample` signed, whole or not at all. A cache that cannot be written never fails the run."""
        target = self._path(key)
        try:
            secret = self.signing.made()
            stored = json.loads(json.dumps(sample, ensure_ascii=False))  # as a later run will read it
            made_by = self.origin.to_json()
            entry = {
                "format": ENTRY_FORMAT,
                "made_by": made_by,
                "sample": stored,
                "mac": signature(secret, key, made_by, stored),
            }
            # Replaced whole, readable by its owner only; no link in the cache folder leads it out.
            write_text(target, json.dumps(entry, ensure_ascii=False), self.folder, private=True)
        except OSError as exc:
            if self.write_error is None:
                self.write_error = (
                    f"could not write the result cache under {self.folder} ({exc.strerror or exc}); "
                    "nothing was reused from this run: fix the folder's permissions or pass --no-cache"
                )

    def notes(self) -> list[str]:
        """What the report says of the cache: entries that failed verification, a folder not written."""
        said = []
        if self.rejected:
            n = len(self.rejected)
            said.append(
                f"{n} cache {'entry' if n == 1 else 'entries'} failed verification and "
                f"{'was' if n == 1 else 'were'} run again"
            )
        return said + ([self.write_error] if self.write_error else [])
