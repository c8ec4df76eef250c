"""The run ledger: every graded run's JSON report, read back as each case's verdicts over time.

digests: what produced a run's verdicts (written into its report); ledger: the reports of a folder read
back; states: each case's timeline and state (stable, flaky, regressed, improved); quarantine: the
committed list of flaky cases that do not gate.
"""
