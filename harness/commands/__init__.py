"""One module per command, each exposing HELP, add_arguments(parser) and run(args, ctx) -> int; and, for a
command whose work is bounded by the repo it reads, bounded(args) -> bool (see harness.cli.collector). A part
that most of a command's runs never reach may live in a module of its own, imported when reached
(routing_agent: the agent engine of `routing`)."""

# Command modules are imported only when needed: `select` in a CI step should not pay for the
# HTTP, markdown and schema libraries of the other commands.
COMMANDS: dict[str, str] = {
    "structural": "harness.commands.structural",
    "refs": "harness.commands.refs",
    "routing": "harness.commands.routing",
    "behavioral": "harness.commands.behavioral",
    "compare": "harness.commands.compare",
    "cost": "harness.commands.cost",
    "select": "harness.commands.select",
    "list-skills": "harness.commands.list_skills",
    "template": "harness.commands.template",
    "rules": "harness.commands.rules",
    "import": "harness.commands.importer",
    "baseline": "harness.commands.baseline",
    "new": "harness.commands.new",
    "init": "harness.commands.init",
    "show": "harness.commands.show",
    "history": "harness.commands.history",
    "tune": "harness.commands.tune",
    "sweep": "harness.commands.sweep",
}
# The one-line help of each command, so `skillscope --help` imports none of them (a test keeps each
# equal to its module's HELP). Start-up is paid on every pre-commit hook call.
SUMMARIES: dict[str, str] = {
    "structural": "check skill format, datasets, policy files and internal links (offline, free)",
    "refs": "check internal links and anchors, and (unless --no-external) that external URLs answer",
    "routing": "install the routing room in an agent and grade whether each prompt fires the right skill",
    "behavioral": "run each case that asserts something to completion in an agent and grade what it "
    "actually did",
    "compare": "compare two versions of a skill (or with and without it) case by case: regressions, "
    "improvements",
    "cost": "run one prompt to completion in an agent and measure it: skill fired, time, turns, tokens, cost",
    "select": "print the CI plan for a change (routing on or off, behavioral legs and runners) as JSON",
    "list-skills": "print the skills with a dataset (evals/evals.json or another tool's), as a JSON array",
    "template": "print a starting evals/evals.json in Tier 0's shape; replace every placeholder",
    "rules": "print every rule id a finding can carry, with its severity and the bar it asks for",
    "import": "convert another tool's eval files into an evals/evals.json (skill-creator, addyosmani)",
    "baseline": "write (or --prune) the baseline of known structural findings; only new findings fail "
    "after it",
    "new": "create NAME/SKILL.md and NAME/evals/evals.json from the template",
    "init": "write a CI workflow (unless one runs evals already), the .gitignore entry and the settings "
    "the skills keep to, and (with --skill) a first skill",
    "show": "read the agent logs a run kept with --keep-logs (or its report): a table, a case's "
    "transcripts, a page",
    "history": "read the run ledger (the JSON reports of past runs): each case's timeline, flaky or "
    "regressed, trends",
    "tune": "find a better description for a skill: candidates graded in the real room, chosen beyond noise",
    "sweep": "route the catalog's cases at growing catalog sizes (catalog plus ballast) as each agent lists "
    "them",
}
