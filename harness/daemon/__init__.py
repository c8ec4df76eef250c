"""A resident skillscope for pre-commit hooks: one process keeps the harness imported, and each
`skillscope` call hands it the run (see docs/usage.md, "The daemon")."""
