"""Helpers shared by the tests: repos on disk, the CLI in-process, local servers, process checks."""
