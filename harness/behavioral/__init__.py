"""Behavioral grading: run a case to completion in a staged workspace, grade the trace and the files.

`runner` drives one case (workspace, hooks, agent run, scorers, judge); `result` is the report model.
"""
