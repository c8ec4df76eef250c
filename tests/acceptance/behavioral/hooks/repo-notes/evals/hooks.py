"""Hooks that record every call, so the order setup_session -> setup -> check -> teardown is visible."""

from pathlib import Path

LOG = Path(__file__).resolve().parents[2] / "hook-calls.log"


def record(line):
    with LOG.open("a", encoding="utf-8") as handle:
        handle.write(line + "\n")


def setup_session(cache_dir):
    (Path(cache_dir) / "clone").mkdir()
    record(f"setup_session {cache_dir}")
    return {"token": "TOK-42"}


def setup(workspace, case, ctx):
    (Path(workspace) / "seed.txt").write_text("seed-from-setup\n", encoding="utf-8")
    record(f"setup {case.id} token={ctx['token']}")
    if case.id == "repo-notes-setup-crash":
        raise ValueError("the fixture server did not start")
    return {"target": "notes-out.md"}


def teardown(workspace, case, ctx):
    record(f"teardown {case.id} workspace_exists={Path(workspace).is_dir()}")


def check(run, case, ctx):
    record(f"check {case.id} saw_seed={run.logs_contain('seed-from-setup')}")
    if case.id == "repo-notes-assert":
        assert run.produced(ctx["target"]), f"{ctx['target']} was not written"
    if case.id == "repo-notes-keyerror":
        return ctx["missing-key"]
    if case.id == "repo-notes-order":
        run.expect_produced(ctx["target"])
        assert "TOK-42" in run.read(ctx["target"])
    return None
