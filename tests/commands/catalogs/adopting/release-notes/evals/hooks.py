"""The release-notes check: the notes group the changes by kind."""


def check(run, case, ctx):
    run.expect_produced("RELEASE_NOTES.md")
    assert "## " in run.read("RELEASE_NOTES.md"), "RELEASE_NOTES.md has no sections"
