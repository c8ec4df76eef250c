"""A resident skillscope for pre-commit hooks: one process keeps the harness imported, and each
`skillscope` call hands it the run; `--daemon auto`, which the hooks pass, starts one when none runs
(see docs/usage.md, "The daemon")."""
