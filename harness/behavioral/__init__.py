"""Behavioral grading: run a case to completion in a staged workspace, grade the trace and the files.

`runner` drives a case (workspace, `hooks`, the agent run, `snapshot`s, `scorers`, the judge in
harness/judge.py, `isolation` evidence); `result` is the report model; `selection` picks the cases;
`evidence` says what counts as something the agent did; `run_view` is what a hook's check sees.
"""
