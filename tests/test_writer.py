"""harness.writer, the one door for every file the harness writes: whole-file replacement, exclusive
creation, appends and growing logs, each held to the same rule about links and special files, swept
over every kind of target there is."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness import writer
from harness.errors import HarnessError
from tests.support.examples import examples
from tests.support.nodes import kind_of, make_node

# --- the operations -----------------------------------------------------------------------------------


def grow(path: Path, repo: Path) -> None:
    with writer.growing(path, repo) as out:
        out.write(b"ours\n")


OPERATIONS: dict[str, Callable[[Path, Path], object]] = {
    "replace": lambda path, repo: writer.write_text(path, "ours\n", repo),
    "append": lambda path, repo: writer.append_text(path, "ours\n", repo),
    "new": lambda path, repo: writer.write_new(path, "ours\n", repo),
    "grow": grow,
}


# --- the sweep over kinds of target ----------------------------------------------------------------------
# Each kind builds its target under tmp (repo/ is the repo, outside/ holds what is not its own) and returns
# the path to write; the table says what each operation must do there:
#   ("lands", where, text)  the text is in `where` (relative to tmp) afterwards;
#   "refused"               writer.Refused, and nothing outside the repo changed;
#   "exists"                FileExistsError (write_new never replaces anything);
#   "stream"                written into the node, which is still the node it was.


def missing(tmp: Path) -> Path:
    return tmp / "repo" / "report.json"


def missing_parent(tmp: Path) -> Path:
    return tmp / "repo" / "a" / "b" / "report.json"


def regular(tmp: Path) -> Path:
    (tmp / "repo" / "report.json").write_text("old\n")
    return tmp / "repo" / "report.json"


def link_in(tmp: Path) -> Path:
    (tmp / "repo" / "kept").mkdir()
    (tmp / "repo" / "kept" / "target.json").write_text("old\n")
    (tmp / "repo" / "report.json").symlink_to("kept/target.json")
    return tmp / "repo" / "report.json"


def dangling_link_in(tmp: Path) -> Path:
    (tmp / "repo" / "report.json").symlink_to("later/target.json")
    return tmp / "repo" / "report.json"


def link_out(tmp: Path) -> Path:
    (tmp / "repo" / "report.json").symlink_to("../outside/victim.txt")  # relative, climbing out
    return tmp / "repo" / "report.json"


def absolute_link_out(tmp: Path) -> Path:
    (tmp / "repo" / "report.json").symlink_to(tmp / "outside" / "victim.txt")
    return tmp / "repo" / "report.json"


def dangling_link_out(tmp: Path) -> Path:
    (tmp / "repo" / "report.json").symlink_to("../outside/made.txt")
    return tmp / "repo" / "report.json"


def folder_link_out(tmp: Path) -> Path:
    (tmp / "repo" / ".skillscope").symlink_to("../outside")
    return tmp / "repo" / ".skillscope" / "report.json"


def dangling_folder_link_out(tmp: Path) -> Path:
    (tmp / "repo" / ".skillscope").symlink_to("../outside/not-yet")
    return tmp / "repo" / ".skillscope" / "runs" / "report.json"


def chain_in_then_out(tmp: Path) -> Path:
    (tmp / "repo" / "hop.json").symlink_to("../outside/victim.txt")
    (tmp / "repo" / "report.json").symlink_to("hop.json")
    return tmp / "repo" / "report.json"


def folder(tmp: Path) -> Path:
    (tmp / "repo" / "report.json").mkdir()
    return tmp / "repo" / "report.json"


def named_outside(tmp: Path) -> Path:
    return tmp / "outside" / "report.json"  # --output /tmp/x.json: the user's own choice


def outside_link_to_outside(tmp: Path) -> Path:
    (tmp / "outside" / "latest.json").symlink_to("victim.txt")  # a link of the user's, not the repo's
    return tmp / "outside" / "latest.json"


def outside_link_through_repo_out(tmp: Path) -> Path:
    (tmp / "repo" / "report.json").symlink_to("../outside/victim.txt")
    (tmp / "outside" / "latest.json").symlink_to(tmp / "repo" / "report.json")
    return tmp / "outside" / "latest.json"


REFUSED = dict.fromkeys(OPERATIONS, "refused")
REFUSED_UNLESS_NEW = {**REFUSED, "new": "exists"}
OURS = ("lands", "repo/report.json", "ours\n")
SWEEP: dict[str, tuple[Callable[[Path], Path], dict[str, object]]] = {
    "missing": (missing, dict.fromkeys(OPERATIONS, OURS)),
    "missing-parent": (
        missing_parent,
        dict.fromkeys(OPERATIONS, ("lands", "repo/a/b/report.json", "ours\n")),
    ),
    "regular": (
        regular,
        {
            "replace": OURS,
            "grow": OURS,
            "append": ("lands", "repo/report.json", "old\nours\n"),
            "new": "exists",
        },
    ),
    "link-in": (
        link_in,
        {
            "replace": ("lands", "repo/kept/target.json", "ours\n"),
            "grow": ("lands", "repo/kept/target.json", "ours\n"),
            "append": ("lands", "repo/kept/target.json", "old\nours\n"),
            "new": "exists",
        },
    ),
    "dangling-link-in": (
        dangling_link_in,
        {**dict.fromkeys(OPERATIONS, ("lands", "repo/later/target.json", "ours\n")), "new": "exists"},
    ),
    "link-out": (link_out, REFUSED_UNLESS_NEW),
    "absolute-link-out": (absolute_link_out, REFUSED_UNLESS_NEW),
    "dangling-link-out": (dangling_link_out, REFUSED_UNLESS_NEW),
    "folder-link-out": (folder_link_out, REFUSED),
    "dangling-folder-link-out": (dangling_folder_link_out, REFUSED),
    "chain-in-then-out": (chain_in_then_out, REFUSED_UNLESS_NEW),
    "folder": (folder, REFUSED_UNLESS_NEW),
    "named-outside": (named_outside, dict.fromkeys(OPERATIONS, ("lands", "outside/report.json", "ours\n"))),
    "outside-link-to-outside": (
        outside_link_to_outside,
        {
            "replace": ("lands", "outside/victim.txt", "ours\n"),
            "grow": ("lands", "outside/victim.txt", "ours\n"),
            "append": ("lands", "outside/victim.txt", "theirs\nours\n"),
            "new": "exists",
        },
    ),
    "outside-link-through-repo-out": (outside_link_through_repo_out, REFUSED_UNLESS_NEW),
}


def snapshot(folder: Path) -> dict[str, tuple[int, bytes | str]]:
    """Every entry under `folder`: its kind, and a file's content or a link's target."""
    found: dict[str, tuple[int, bytes | str]] = {}
    for path in [folder, *folder.rglob("*")]:
        mode = os.lstat(path).st_mode
        what: bytes | str = b""
        if stat.S_ISLNK(mode):
            what = os.readlink(path)
        elif stat.S_ISREG(mode):
            what = path.read_bytes()
        found[path.relative_to(folder).as_posix()] = (stat.S_IFMT(mode), what)
    return found


@pytest.fixture
def tmp(tmp_path: Path) -> Path:
    (tmp_path / "repo").mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "victim.txt").write_text("theirs\n")
    return tmp_path


@pytest.mark.parametrize("operation", list(OPERATIONS))
@pytest.mark.parametrize("kind", list(SWEEP))
def test_every_kind_of_target(tmp: Path, kind: str, operation: str):
    build, expected = SWEEP[kind]
    path, want = build(tmp), expected[operation]
    outside = snapshot(tmp / "outside")
    links = {p: os.readlink(p) for p in tmp.rglob("*") if p.is_symlink()}
    if want == "refused":
        with pytest.raises(writer.Refused) as refused:
            OPERATIONS[operation](path, tmp / "repo")
        assert snapshot(tmp / "outside") == outside  # nothing outside changed, nothing made there
        assert str(refused.value.strerror).endswith(("point it inside", "name a file, or - for stdout"))
    elif want == "exists":
        with pytest.raises(FileExistsError):
            OPERATIONS[operation](path, tmp / "repo")
        assert snapshot(tmp / "outside") == outside
    else:
        OPERATIONS[operation](path, tmp / "repo")
        _, where, text = want
        assert (tmp / where).read_text() == text
    # Links are never replaced by the file they lead to, and no temporary file is left anywhere.
    assert {p: os.readlink(p) for p in links} == links
    assert [p for p in tmp.rglob("*.tmp")] == []


@pytest.mark.parametrize("operation", ["replace", "append", "grow"])
def test_a_character_device_is_written_into_never_replaced(tmp_path: Path, monkeypatch, operation):
    device = make_node(tmp_path, "char-device", monkeypatch)
    before = kind_of(device)
    OPERATIONS[operation](device, tmp_path)
    assert kind_of(device) == before  # still the node it was: nothing renamed over it
    assert [p.name for p in tmp_path.iterdir()] == ["char-device"]  # no temporary left beside it


@pytest.mark.parametrize("operation", ["replace", "append", "grow"])
def test_a_fifo_is_written_into_for_its_reader(tmp_path: Path, monkeypatch, operation):
    fifo = make_node(tmp_path, "fifo", monkeypatch)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    OPERATIONS[operation](fifo, tmp_path)
    reader.join(timeout=60)
    assert got == ["ours\n"] and stat.S_ISFIFO(os.lstat(fifo).st_mode)


@pytest.mark.parametrize("kind", ["block-device", "socket"])
@pytest.mark.parametrize("operation", ["replace", "append", "grow"])
def test_what_is_no_file_at_all_is_refused_and_left_as_it_was(tmp_path: Path, monkeypatch, kind, operation):
    node = make_node(tmp_path, kind, monkeypatch)
    before = kind_of(node)
    with pytest.raises(writer.Refused, match=r"not a file; name a file, or - for stdout"):
        OPERATIONS[operation](node, tmp_path)
    assert kind_of(node) == before


def test_a_link_of_the_repo_to_a_character_device_inside_writes_into_the_device(tmp_path: Path, monkeypatch):
    device = make_node(tmp_path, "char-device", monkeypatch)
    link = tmp_path / "stdout"
    link.symlink_to(device)
    writer.write_text(link, "report\n", tmp_path)
    assert link.is_symlink() and stat.S_ISCHR(os.stat(device).st_mode)


def test_a_link_of_the_repo_to_a_device_outside_is_refused(tmp: Path, monkeypatch):
    device = make_node(tmp / "outside", "char-device", monkeypatch)
    (tmp / "repo" / "report.json").symlink_to(device)
    with pytest.raises(writer.Refused, match="leading out of"):
        writer.write_text(tmp / "repo" / "report.json", "report\n", tmp / "repo")


def test_the_refusal_names_the_link_where_it_leads_and_the_fix(tmp: Path):
    path = link_out(tmp)
    with pytest.raises(writer.Refused) as refused:
        writer.write_text(path, "x", tmp / "repo")
    sentence = writer.cannot("the baseline", path, refused.value, "fix --baseline")
    real = os.path.realpath(tmp)
    assert sentence == (
        f"refused to write the baseline to {path}: {real}/repo/report.json is a symlink leading out of "
        f"{real}/repo (to {real}/outside/victim.txt); replace the link with a plain file or point it inside."
    )


def test_a_link_loop_is_an_error_not_a_hang(tmp: Path):
    (tmp / "repo" / "a").symlink_to("b")
    (tmp / "repo" / "b").symlink_to("a")
    with pytest.raises(OSError) as failed:
        writer.write_text(tmp / "repo" / "a", "x", tmp / "repo")
    assert failed.value.errno == errno.ELOOP


def test_a_name_holding_nul_is_refused(tmp: Path):
    with pytest.raises(writer.Refused, match="no file name can"):
        writer.write_text(tmp / "repo" / "a\0b", "x", tmp / "repo")


# --- whole files ----------------------------------------------------------------------------------------


class FullDisk:
    """A file whose second write fails as a full disk does, after the first went through."""

    def __init__(self, real):
        self.real, self.writes = real, 0

    def write(self, data: bytes) -> int:
        self.writes += 1
        if self.writes > 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        return self.real.write(data[: len(data) // 2])

    def __getattr__(self, name):
        return getattr(self.real, name)


@pytest.mark.parametrize("cut", ["write", "fsync", "rename"])
def test_a_write_cut_short_keeps_the_earlier_file_whole(tmp_path: Path, monkeypatch, cut: str):
    path = tmp_path / "baseline.json"
    path.write_text("earlier, whole\n")

    def cut_write(real: str, private: bool, mode=None):
        temp, handle = beside(real, private, mode)
        return temp, FullDisk(handle)

    def no_space(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    beside = writer.beside
    if cut == "write":
        monkeypatch.setattr(writer, "beside", cut_write)
    else:
        monkeypatch.setattr(writer.os, "fsync" if cut == "fsync" else "replace", no_space)
    with pytest.raises(OSError) as failed, writer.replacing(path, tmp_path) as out:
        out.write(b"new, ")
        out.write(b"and cut short\n")
    monkeypatch.undo()
    assert failed.value.errno == errno.ENOSPC
    assert path.read_text() == "earlier, whole\n"
    assert [p.name for p in tmp_path.iterdir()] == ["baseline.json"]


def test_a_replaced_file_keeps_its_mode_and_a_private_one_is_the_owners_only(tmp_path: Path):
    path = tmp_path / "tool.sh"
    path.write_text("old\n")
    path.chmod(0o750)
    writer.write_text(path, "new\n", tmp_path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o750
    writer.write_text(path, "secret\n", tmp_path, private=True)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with writer.growing(tmp_path / "log.jsonl", tmp_path, private=True) as out:
        out.write(b"{}\n")
    assert stat.S_IMODE((tmp_path / "log.jsonl").stat().st_mode) == 0o600


def test_a_growing_log_cut_short_keeps_what_was_written(tmp_path: Path):
    path = tmp_path / "case.jsonl"
    with pytest.raises(KeyboardInterrupt), writer.growing(path, tmp_path) as out:
        out.write(b"first line\n")
        raise KeyboardInterrupt
    assert path.read_bytes() == b"first line\n"


def test_a_replacement_interrupted_midway_leaves_the_earlier_file(tmp_path: Path):
    path = tmp_path / "report.json"
    path.write_text("earlier\n")
    with pytest.raises(KeyboardInterrupt), writer.replacing(path, tmp_path) as out:
        out.write(b"partial")
        raise KeyboardInterrupt
    assert path.read_text() == "earlier\n" and [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_replace_replaces_the_whole_file_and_leaves_no_temporary(tmp_path: Path):
    path = tmp_path / "deep" / "report.json"
    writer.write_text(path, "first, and longer than the second\n", tmp_path)
    writer.write_text(path, "second\n", tmp_path)
    assert path.read_text() == "second\n"
    assert sorted(p.name for p in path.parent.iterdir()) == ["report.json"]


def test_write_new_never_replaces_what_is_there(tmp_path: Path):
    path = tmp_path / "report.json"
    writer.write_new(path, "mine\n", tmp_path)
    with pytest.raises(FileExistsError):
        writer.write_new(path, "theirs\n", tmp_path)
    assert path.read_text() == "mine\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_one_of_many_racing_writers_takes_a_name_and_its_file_is_whole(tmp_path: Path):
    path, writers = tmp_path / "report.json", 8
    start, won, lost = threading.Barrier(writers), [], []

    def write(index: int) -> None:
        start.wait()
        try:
            writer.write_new(path, f"writer {index}\n" * 1000, tmp_path)
            won.append(index)
        except FileExistsError:
            lost.append(index)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1 and len(lost) == writers - 1
    assert path.read_text() == f"writer {won[0]}\n" * 1000
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_without_hard_links_write_new_still_creates_exclusively(tmp_path: Path, monkeypatch):
    def no_links(source, target):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(writer.os, "link", no_links)
    writer.write_new(tmp_path / "report.json", "mine\n", tmp_path)
    with pytest.raises(FileExistsError):
        writer.write_new(tmp_path / "report.json", "theirs\n", tmp_path)
    assert (tmp_path / "report.json").read_text() == "mine\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_new_files_get_the_modes_a_plain_write_would(tmp_path: Path):
    plain = tmp_path / "plain"
    plain.write_text("x")
    writer.write_new(tmp_path / "new", "x", tmp_path)
    writer.write_text(tmp_path / "replaced", "x", tmp_path)
    mode = plain.stat().st_mode
    assert (tmp_path / "new").stat().st_mode == mode == (tmp_path / "replaced").stat().st_mode


def test_append_text_appends_to_a_regular_file(tmp_path: Path):
    path = tmp_path / "deep" / "summary.md"
    writer.append_text(path, "one\n", tmp_path)
    writer.append_text(path, "two\n", tmp_path)
    assert path.read_text() == "one\ntwo\n"


# --- any tree of links ----------------------------------------------------------------------------------
# Names in the repo and outside it, each absent, a file, a folder or a link to any of them (relative or
# absolute, dangling or not, through `..`); whatever the tree, a write to a path in the repo changes
# nothing outside it.

NAMES = ["a", "b", "c"]
TARGETS = ["a", "b", "c", "b/x", "..", ".", "../outside", "../outside/v", "../outside/new", "../../elsewhere"]
ENTRY = st.one_of(
    st.just(("absent", "")),
    st.just(("file", "")),
    st.just(("folder", "")),
    st.tuples(st.sampled_from(["link", "absolute-link"]), st.sampled_from(TARGETS)),
)
WRITTEN = ["a", "b/f", "c/g/h", "a/../b", "b/x"]


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(
    st.fixed_dictionaries({name: ENTRY for name in NAMES}),
    st.sampled_from(WRITTEN),
    st.sampled_from(["replace", "append", "new", "grow"]),
)
def test_no_tree_of_links_carries_a_write_out_of_the_repo(tree, written: str, operation: str):
    with tempfile.TemporaryDirectory() as top:
        base = Path(top) / "in"
        repo, outside = base / "repo", base / "outside"
        repo.mkdir(parents=True)
        outside.mkdir()
        (outside / "v").write_text("theirs\n")
        for name, (kind, target) in tree.items():
            path = repo / name
            if kind == "file":
                path.write_text("old\n")
            elif kind == "folder":
                path.mkdir()
            elif kind == "link":
                path.symlink_to(target)
            elif kind == "absolute-link":
                path.symlink_to(os.path.normpath(repo / target))
        before = snapshot(Path(top))
        # Refused, or not a place a file can be: either way nothing may have moved outside.
        with contextlib.suppress(OSError):
            OPERATIONS[operation](repo / written, repo)
        after = snapshot(Path(top))
        changed = {name for name in before.keys() | after.keys() if before.get(name) != after.get(name)}
        assert all(name.startswith("in/repo/") for name in changed), changed
        assert not [name for name in after if name.endswith(".tmp")]


def test_a_failed_write_in_a_writing_block_is_one_sentence_naming_the_file_and_the_fix(tmp_path: Path):
    target = tmp_path / "missing" / "page.html"
    (tmp_path / "missing").write_text("a file, not a folder", encoding="utf-8")
    with pytest.raises(HarnessError) as raised, writer.writing("the HTML page", target, "fix --html"):
        writer.write_text(target, "<p>", tmp_path)
    said = str(raised.value)
    assert said.startswith(f"cannot write the HTML page to {target} (") and said.endswith("; fix --html.")
    assert raised.value.__suppress_context__  # the sentence alone, not the OSError's traceback under it


def test_a_durable_write_reaches_the_disk_and_a_cache_write_does_not(tmp_path: Path, monkeypatch):
    flushed: list[int] = []
    monkeypatch.setattr(writer.os, "fsync", flushed.append)
    writer.write_text(tmp_path / "report.json", "{}", tmp_path)
    assert len(flushed) == 2  # the file, then its folder's entry
    writer.write_text(tmp_path / "memo.json", "{}", tmp_path, durable=False)
    assert len(flushed) == 2 and (tmp_path / "memo.json").read_text() == "{}"
