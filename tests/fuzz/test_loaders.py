"""The one loader of each format (JSON, TOML, YAML), driven by hypothesis over files on disk: random
nesting to any depth, random bytes, invalid UTF-8, NUL, sizes past the limit. Each loader returns a
value or raises its own error type, whose message is one line naming the file; never anything else
(which the CLI would report as an internal error, exit 3)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from harness import jsonsafe, nesting, tomlsafe, yamlsafe
from harness.errors import FileProblem
from tests.fuzz.strategies import DEFAULT_EXAMPLES, EXAMPLES, FUZZ, JSON_FRAGMENTS, YAML_FRAGMENTS, built_from

pytestmark = pytest.mark.timeout(0 if EXAMPLES > DEFAULT_EXAMPLES else 300)

NAME = "demo/evals/file"  # how the caller names the file; every message must carry it
TOML_FRAGMENTS = [
    "\n",
    "a",
    " = ",
    "=",
    "[",
    "]",
    "[[",
    "]]",
    "{",
    "}",
    ",",
    ".",
    '"',
    "'",
    '"""',
    "1",
    "1e9",
]
TOML_FRAGMENTS += ["true", "inf", "nan", "1979-05-27T07:32:00Z", "0x1F", "#", "skills-dir", "tool.skillscope"]

# Each format's openers and closers, nested to any depth: what ended in a RecursionError (exit 3) before.
NESTINGS = {
    "json": [("[", "]"), ('{"a":', "}"), ("[1,", "]")],
    "toml": [("a = " + "[", "]"), ("a = {b=", "}"), ("[", "]"), ("{b=", "}")],
    "yaml": [("[", "]"), ("{a: ", "}"), ("- ", ""), ("a:\n ", "")],
}
LOADERS: dict[str, tuple[Callable[..., object], type[FileProblem]]] = {
    "json": (jsonsafe.load, jsonsafe.JsonProblem),
    "toml": (tomlsafe.load, tomlsafe.TomlProblem),
    "yaml": (yamlsafe.read, yamlsafe.YamlProblem),
}
FRAGMENTS = {"json": JSON_FRAGMENTS, "toml": TOML_FRAGMENTS, "yaml": YAML_FRAGMENTS}


def nested(kind: str) -> st.SearchStrategy[bytes]:
    """Openers of `kind`, `depth` deep, closed or not, with text around them."""
    return st.builds(
        lambda pair, depth, closed, head, tail: (
            head + pair[0] * depth + ("1" + pair[1] * depth if closed else "") + tail
        ).encode(),
        st.sampled_from(NESTINGS[kind]),
        st.one_of(st.integers(0, 40), st.integers(0, 60_000)),
        st.booleans(),
        st.sampled_from(["", "a = ", "x: ", "\n"]),
        st.sampled_from(["", "\n", "]", "\0"]),
    )


def content(kind: str) -> st.SearchStrategy[bytes]:
    text = built_from(FRAGMENTS[kind], st.text(max_size=12), most=60)
    return st.one_of(
        nested(kind),
        st.binary(max_size=300),  # random bytes: invalid UTF-8, NUL, anything
        text.map(lambda t: t.encode("utf-8", "surrogatepass")),  # lone surrogates: not UTF-8 either
        st.tuples(text, st.sampled_from(["\0", "\xff", "\ud800"])).map(
            lambda pair: (pair[0] + pair[1]).encode("utf-8", "surrogatepass")
        ),
    )


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("loaders")


def outcome(kind: str, path: Path, **options) -> object:
    """The loaded value, or the loader's own error; anything else propagates and fails the test."""
    load, problem = LOADERS[kind]
    try:
        return load(path, NAME, **options)
    except problem as exc:
        message = str(exc)
        assert message.startswith(NAME) and "\n" not in message and exc.reason, message
        return exc


def check(kind: str, workdir: Path, data: bytes, limit: int | None = None) -> None:
    path = workdir / f"{kind}-input"
    path.write_bytes(data)
    found = outcome(kind, path, **({} if limit is None else {"limit": limit}))
    if not isinstance(found, FileProblem):
        assert not nesting.deeper_than(found)


@FUZZ
@given(content("json"))
@example(b"[" * 100_000 + b"]" * 100_000)
@example(b'{"findings": ' * 50_000)
@example(b"9" * 5000)
@example(b"[NaN, Infinity]")
def test_json(workdir: Path, data: bytes) -> None:
    check("json", workdir, data)


@FUZZ
@given(content("toml"))
@example(b"a = " + b"[" * 50_000 + b"]" * 50_000)
@example(b"[tool.skillscope]\nskills-dir = " + b"[" * 50_000)
@example(b"a = " + b"9" * 5000)
@example(b"a." * 40 + b"b = 1")
def test_toml(workdir: Path, data: bytes) -> None:
    check("toml", workdir, data)


@FUZZ
@given(content("yaml"))
@example(b"[" * 100_000 + b"]" * 100_000)
@example(b"a: &x [1]\nb: *x\n")
def test_yaml(workdir: Path, data: bytes) -> None:
    check("yaml", workdir, data)


@FUZZ
@given(st.sampled_from(sorted(LOADERS)), st.binary(max_size=64), st.integers(0, 64))
def test_a_file_past_the_size_limit_is_the_loaders_own_error(
    workdir: Path, kind: str, data: bytes, limit: int
):
    check(kind, workdir, data, limit)


@pytest.mark.parametrize("kind", sorted(LOADERS))
def test_what_is_no_regular_file_is_refused_at_once(tmp_path: Path, kind: str) -> None:
    pipe, folder = tmp_path / "pipe", tmp_path / "folder"
    os.mkfifo(pipe)  # nothing ever writes: a blocking open would wait forever
    folder.mkdir()
    for path in (pipe, folder, tmp_path / "missing", Path("/dev/zero")):
        found = outcome(kind, path)
        assert isinstance(found, FileProblem), path
        assert found.reason.startswith("cannot be read")
