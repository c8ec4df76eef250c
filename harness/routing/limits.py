"""The defaults of an agent routing run's limits, stated once: the flags declare them and the settings
fall back to them. A module of its own, so the lexical engine's parser reads them without the agent."""

JOBS = 4  # cases run at once
CASE_TIMEOUT_S = 240.0
MAX_BUDGET_USD = 0.75  # per case, where the agent CLI has a cap
MAX_TOOL_CALLS = 4  # without a skill decision
MAX_INSPECTION_CALLS = 8  # that only read the installed skills
