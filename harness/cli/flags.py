"""The flags several commands share, each group declared once, and the value types they parse with.

FLAGS states, once per flag, what argparse does not hold: its environment fallback, whether a settings
file may hold it, and which routing engine or command reads it; the settings file, the fallbacks and
the refusals of a flag a run would not read are derived from it. Commands compose the `add_*` groups.
The typed options a feature takes (ReportOptions, ExternalOptions) are built here from the flags, so
the feature that owns them never imports the CLI.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from harness.checks import COLLISION_ERROR, COLLISION_WARN
from harness.errors import UsageError
from harness.flagjson import json_value
from harness.routing.room import HELP as ROOM_WORDS

if TYPE_CHECKING:
    from fractions import Fraction

    from harness.checks.external_options import ExternalOptions
    from harness.report import ReportOptions

AGENTS = ("claude", "copilot", "codex", "gemini", "opencode")
ENGINES = AGENT_ENGINE, LEXICAL_ENGINE = ("agent", "lexical")  # routing's --engine


@dataclass(frozen=True)
class Flag:
    """One long flag's facts besides how argparse parses it."""

    name: str  # without the dashes: also its key in a settings file
    env: str | None = None  # the environment variable it falls back to, which beats the settings file
    setting: bool = True  # whether a settings file may hold it
    engine: str | None = None  # routing: the one --engine that reads it (None: either)
    refused_by: tuple[str, ...] = ()  # commands that accept it only to say it belongs to routing
    either_engine_in: tuple[str, ...] = ()  # commands whose every --engine reads it (sweep's --repeat)

    @property
    def option(self) -> str:
        return f"--{self.name}"

    @property
    def dest(self) -> str:
        return self.name.replace("-", "_")


BEHAVIORAL = ("behavioral",)
# Every flag with a fact to state, in the order messages list them; any other flag is a setting of the
# commands that declare it, read by whatever they run.
FLAGS = {
    flag.name: flag
    for flag in (
        # A settings file cannot choose the root it is found at; --help and --version only print.
        Flag("repo", env="SKILLSCOPE_REPO", setting=False),
        Flag("help", setting=False),
        Flag("version", setting=False),
        Flag("skills-dir", env="SKILLSCOPE_SKILLS"),
        Flag("routing-room", refused_by=BEHAVIORAL),
        Flag("min-accuracy", refused_by=BEHAVIORAL),
        # The lexical engine reads --agent too: the agent whose listing it models.
        Flag("agent"),
        # What only an agent run reads: a lexical run given one says so instead of ignoring it.
        *(Flag(name, env=f"SKILLSCOPE_{name.upper()}", engine=AGENT_ENGINE) for name in AGENTS),
        # sweep's lexical engine reads --model (claude's budget follows it) and --repeat (its orderings).
        Flag("model", engine=AGENT_ENGINE, either_engine_in=("sweep",)),
        Flag("effort", engine=AGENT_ENGINE),
        Flag("skip-preflight", engine=AGENT_ENGINE),
        Flag("pass-env", engine=AGENT_ENGINE),
        Flag("keep-logs", engine=AGENT_ENGINE),
        Flag("jobs", engine=AGENT_ENGINE),
        Flag("case-timeout", engine=AGENT_ENGINE),
        Flag("max-tool-calls", engine=AGENT_ENGINE, refused_by=BEHAVIORAL),
        Flag("max-inspection-calls", engine=AGENT_ENGINE, refused_by=BEHAVIORAL),
        Flag("max-budget-usd", engine=AGENT_ENGINE),
        Flag("sandbox", engine=AGENT_ENGINE),
        Flag("repeat", engine=AGENT_ENGINE, refused_by=BEHAVIORAL, either_engine_in=("sweep",)),
        Flag("cache", engine=AGENT_ENGINE),
        Flag("no-cache", engine=AGENT_ENGINE),
        Flag("max-run-usd", engine=AGENT_ENGINE),
        Flag("dry-run", engine=AGENT_ENGINE),
        Flag("strict", engine=AGENT_ENGINE),
        Flag("no-canary", engine=AGENT_ENGINE),
        Flag("install", engine=AGENT_ENGINE),
        # Shared negatives belong to no skill: nothing for a ranking to test.
        Flag("negatives", engine=AGENT_ENGINE),
        Flag("no-builtin-negatives", engine=AGENT_ENGINE),
        Flag("min-rank1", engine=LEXICAL_ENGINE),
    )
}
ENVIRONMENT = {flag.name: flag.env for flag in FLAGS.values() if flag.env}
NOT_SETTINGS = frozenset(flag.name for flag in FLAGS.values() if not flag.setting)


def refused_by(command: str) -> list[str]:
    """The options `command` accepts only to refuse them, naming the command they belong to."""
    return [flag.option for flag in FLAGS.values() if command in flag.refused_by]


def parse_list(flag: str, text: str | Sequence[str] | None) -> list[str]:
    """A list flag: a JSON array of strings or a comma list; blank means empty.

    Several words (a glob the shell expanded, or a list from the settings file) are each read so.
    """
    if text is not None and not isinstance(text, str):
        return [item for word in text for item in parse_list(flag, word)]
    if text is None or not text.strip():
        return []
    text = text.strip()
    if text.startswith(("[", "{")):
        value = json_value(flag, text, "pass a JSON array or a comma list.")
        if not isinstance(value, list):
            raise UsageError(f"{flag}: expected a JSON array, got {type(value).__name__}.")
        items = value
    else:
        items = [item.strip() for item in text.replace("\n", ",").split(",")]
        if items and items[-1] == "":
            items.pop()
    if not all(isinstance(item, str) and item.strip() for item in items):
        raise UsageError(f"{flag}: every entry must be a non-empty string.")
    return [item.strip() for item in items]


# A glob flag takes several words: `--skills-dir skills/*` unquoted reaches us as the shell's expansion.
SEVERAL_WORDS = "+"  # the nargs of one or more


def add_skills_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--skills-dir",
        metavar="GLOBS",
        nargs=SEVERAL_WORDS,
        help="root-relative globs naming skill directories, as a JSON array or a comma "
        f"list (default: ${FLAGS['skills-dir'].env}, else every directory in the current one)",
    )


FORMATS = ("text", "markdown", "json", "junit", "sarif")
ANNOTATION_LEVELS = ("errors", "warnings")  # the first is the default


def add_reports(parser: argparse.ArgumentParser) -> None:
    """Where a graded command's reports go and what its stdout shows."""
    parser.add_argument(
        "--format",
        choices=FORMATS,
        help="what goes to stdout: text (a line per finding or failing case, then a summary), markdown, "
        "json (the JSON report), junit or sarif (default: text)",
    )
    parser.add_argument(
        "--output",
        metavar="PATH",
        help="JSON report path; - writes it to stdout and nothing else (default: "
        "<repo>/.skillscope/runs/<command>-<time>.json, copied to latest-<command>.json)",
    )
    parser.add_argument(
        "--summary",
        metavar="PATH",
        help="append the markdown report here (default: $GITHUB_STEP_SUMMARY when set)",
    )
    parser.add_argument("--junit", metavar="PATH", help="also write a JUnit XML report here")
    parser.add_argument(
        "--annotations",
        choices=ANNOTATION_LEVELS,
        help="in GitHub Actions, what a failing case or finding is annotated as: errors, or warnings for "
        "a grader that reports without gating (an optional leg); the exit status is the same either way "
        "(default: errors)",
    )
    loudness = parser.add_mutually_exclusive_group()
    loudness.add_argument(
        "-q", "--quiet", action="store_true", help="text format: only the error lines and the summary line"
    )
    loudness.add_argument(
        "-v", "--verbose", action="store_true", help="text format: also each skill or case with its status"
    )


def add_policy(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--skill-files",
        metavar="FILES",
        help="files every skill must ship beside SKILL.md, e.g. skill-card.md",
    )
    parser.add_argument(
        "--skill-sections",
        metavar="TITLES",
        help="`##` headings each markdown --skill-files file must have content under (case-insensitive)",
    )
    add_docs(parser)
    parser.add_argument(
        "--collision-warn",
        type=similarity,
        default=COLLISION_WARN,
        metavar="RATIO",
        help=f"two descriptions this alike (0-1, lexical cosine) are a warning (default: {COLLISION_WARN:g})",
    )
    parser.add_argument(
        "--collision-error",
        type=similarity,
        default=COLLISION_ERROR,
        metavar="RATIO",
        help=f"two descriptions this alike are an error (default: {COLLISION_ERROR:g})",
    )


def similarity(text: str) -> float:
    # 0 would flag every two skills, even ones sharing no word.
    value = non_negative(text)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"{text} is not above 0 and at most 1")
    return value


def add_negatives(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--negatives",
        action="append",
        metavar="PATH",
        help="a repo file in the dataset format whose cases must all be false; they join routing like "
        "the built-in negatives and structural validates them (repeatable; root-relative)",
    )
    parser.add_argument(
        "--no-builtin-negatives",
        action="store_true",
        help="leave the harness's own shared negatives out of routing",
    )


def add_adoption(parser: argparse.ArgumentParser) -> None:
    """Adopting rules step by step: a baseline of known findings, and rules demoted to warnings."""
    parser.add_argument(
        "--baseline",
        metavar="FILE",
        help="findings recorded here are reported as known and do not fail; only new ones do "
        "(default: .skillscope/baseline.json when present; write it with `skillscope baseline`)",
    )
    add_warn(parser, "report these rules as warnings, e.g. tier0-behavior (recorded in the report)")
    parser.add_argument(
        "--error",
        metavar="RULES",
        help="report these warning rules as errors, so they fail the run, e.g. hidden-unicode,opaque-file "
        "(recorded in the report; --warn wins for a rule named in both)",
    )


def add_docs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--docs",
        metavar="GLOBS",
        nargs=SEVERAL_WORDS,
        help="markdown outside the skills (README, docs tree) whose links are checked too",
    )


def external_options(args: argparse.Namespace, cwd: Path) -> ExternalOptions:
    """The flags given; a command without the fetching flags (structural) gets their defaults."""
    from harness.checks.external_options import ExternalOptions

    given = vars(args)
    cache = given.get("cache")
    made = ExternalOptions(
        jobs=given["jobs"],
        exclude=tuple(parse_list("--exclude-url", given.get("exclude_url"))),
        cache_path=cwd / cache if cache else None,
        **{name: given[flag] for flag, name in FETCHING.items() if flag in given},
    )
    return made.checked()


# The tuning flags of `refs` (argparse dest -> ExternalOptions field).
FETCHING = {"cache_max_age": "cache_max_age_s", "request_timeout": "request_timeout_s", "retries": "retries"}


def add_external(parser: argparse.ArgumentParser, default: bool = True, fetching: bool = True) -> None:
    """The external URL check's flags; `fetching` adds the cache and request tuning of `refs`."""
    from harness.checks.external_options import ExternalOptions

    defaults = ExternalOptions()
    state = "on" if default else "off"
    parser.add_argument(
        "--external",
        action=argparse.BooleanOptionalAction,
        default=default,
        help=f"fetch every external http(s) URL once (default: {state})",
    )
    parser.add_argument(
        "--exclude-url",
        metavar="REGEXES",
        help="regexes (JSON array or comma list) for URLs the external check leaves alone",
    )
    jobs = defaults.jobs
    parser.add_argument(
        "--jobs",
        type=int,
        default=jobs,
        metavar="N",
        help=f"hosts fetched in parallel; each host gets one request at a time (default: {jobs})",
    )
    if fetching:
        add_fetching(parser, defaults)


def add_fetching(parser: argparse.ArgumentParser, defaults: ExternalOptions) -> None:
    parser.add_argument(
        "--cache",
        metavar="PATH",
        help="JSON file remembering URLs that answered, so a scheduled run skips them",
    )
    max_age = defaults.cache_max_age_s
    parser.add_argument(
        "--cache-max-age",
        type=float,
        default=max_age,
        metavar="SECONDS",
        help=f"how long a remembered success counts (default: {max_age:g}, one day)",
    )
    request_timeout = defaults.request_timeout_s
    parser.add_argument(
        "--request-timeout",
        type=float,
        default=request_timeout,
        metavar="SECONDS",
        help=f"limit for one HTTP request, shrunk to what --timeout leaves (default: {request_timeout:g})",
    )
    retries = defaults.retries
    parser.add_argument(
        "--retries",
        type=int,
        default=retries,
        metavar="N",
        help=f"extra attempts after a 408, 425, 5xx, timeout or connection error (default: {retries})",
    )


def report_options(args: argparse.Namespace) -> ReportOptions:
    """Where the reports go, or a usage error for a combination that cannot work."""
    from harness.report import ReportOptions

    given = vars(args)
    chosen = given.get("format")
    if given["output"] == "-" and chosen not in (None, "json"):
        raise UsageError(
            f"--output - puts the JSON report on stdout, where --format {chosen} would go too; "
            "drop one of them, or give --output a file path."
        )
    return ReportOptions(
        output=given["output"],
        summary=given["summary"],
        junit=given.get("junit"),
        format=chosen or "text",
        quiet=given.get("quiet", False),
        verbose=given.get("verbose", False),
        annotations=given.get("annotations") or ANNOTATION_LEVELS[0],
    )


def min_accuracy(text: str, flag: str = "--min-accuracy") -> Fraction:
    from fractions import Fraction  # decimal and numbers load only for a command that takes the flag

    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"{flag}: '{text}' is not a number between 0 and 1.") from None
    if not 0 <= value <= 1:
        raise UsageError(f"{flag}: {text} is outside 0..1; use 1 for every case, 0 to only report.")
    return value


def add_timeout(parser: argparse.ArgumentParser, default: float = 900) -> None:
    parser.add_argument(
        "--timeout",
        type=float,
        default=default,
        metavar="SECONDS",
        help=f"wall-clock limit for the whole command; 0 disables (default: {default:g})",
    )


EFFORTS = ("low", "medium", "high", "xhigh", "max")


def add_agent(
    parser: argparse.ArgumentParser, *, choose: bool = False, matrix: bool = False, models: bool = False
) -> None:
    """Flags of every command that drives an agent CLI. `choose`: --agent picks the runtime (and each
    runtime's --<name> PATH); `matrix`: --agent takes a comma list; `models`: so does --model. Without
    `choose` or `matrix`, claude only."""
    if choose or matrix:
        parser.add_argument(
            "--agent",
            default="claude",
            metavar="AGENTS" if matrix else "AGENT",
            help=f"the agent CLI that loads the skills: {'|'.join(AGENTS)}"
            + (" (a comma list runs every case on each, side by side)" if matrix else "")
            + " (default: claude)",
        )
    add_executables(parser, AGENTS if choose or matrix else ("claude",))
    parser.add_argument(
        "--model",
        type=blank_is_unset,
        metavar="MODELS" if models else "MODEL",
        help="model alias or id passed to the agent"
        + (
            "; a comma list runs every case on each model, side by side with the difference of each "
            "figure and its interval; agent=model gives a model to that agent only"
            if models
            else ""
        )
        + " (default, or blank: the CLI's own)",
    )
    add_agent_run(parser)


def add_executables(parser: argparse.ArgumentParser, names: Sequence[str] = AGENTS) -> None:
    """--<agent> PATH for each agent CLI a command may start."""
    for name in names:
        parser.add_argument(
            f"--{name}",
            metavar="PATH",
            help=f"the {name} executable (default: ${FLAGS[name].env}, else `{name}` on PATH)",
        )


def add_agent_run(parser: argparse.ArgumentParser) -> None:
    """The flags of how an agent CLI runs, for a command that declares its own --agent and --model."""
    parser.add_argument("--effort", choices=EFFORTS, help="reasoning effort passed to the agent")
    parser.add_argument(
        "--skip-preflight",
        action="store_true",
        help="skip the one-prompt check that the API is reachable before any case runs",
    )
    parser.add_argument(
        "--pass-env",
        metavar="NAMES",
        help="environment variables the agent CLI gets besides what it needs to start, its own "
        "endpoint and model variables and proxies (a JSON array or a comma list); nothing else of "
        "skillscope's environment reaches the agent, and no SKILLSCOPE_* variable ever does",
    )
    parser.add_argument(
        "--keep-logs",
        metavar="DIR",
        help="keep each case's transcript here (the agent's raw JSON events; behavioral adds the "
        "judge exchange); the JSON report records each log it wrote, and a later run given the same "
        "folder writes over them (give each run its own folder to keep both)",
    )


def add_listing(parser: argparse.ArgumentParser) -> None:
    """structural's listing-budget: which agents' listings are predicted, and of which room."""
    parser.add_argument(
        "--agent",
        metavar="AGENTS",
        help=f"the agents whose skill listing is predicted for listing-budget, a comma list of "
        f"{'|'.join(AGENTS)} (default: all five)",
    )
    parser.add_argument(
        "--model",
        type=blank_is_unset,
        metavar="MODELS",
        help="the models whose listing budget is predicted (claude's follows the model): a comma list, "
        "agent=model for one agent only (default, or blank: each CLI's own)",
    )
    add_routing_room(
        parser,
        f"a routing room whose listing is predicted beside the catalog's: {ROOM_WORDS} (default: none)",
    )
    add_usage(parser)
    parser.add_argument(
        "--typical-install",
        metavar="N|GLOBS",
        help="the skills users have beside this catalog, for description headroom: a number of built-in "
        "ballast skills, or root-relative globs naming skill folders (another plugin's skills/*) "
        "(default: none, the catalog alone)",
    )


def add_usage(parser: argparse.ArgumentParser) -> None:
    """--usage: how often users use each skill, for the hosts that rank their listing by usage."""
    parser.add_argument(
        "--usage",
        metavar="FILE",
        help="how often your users use each skill, for claude, which keeps the most used skills' "
        'descriptions when its listing budget runs out: a root-relative JSON file, {"skill": USES} or '
        '{"skill": {"uses": USES, "days_since_use": DAYS}} (default: every skill never used, the worst '
        "case, where a new skill starts)",
    )


def typical_install(text: str | None) -> int | list[str] | None:
    """--typical-install as given: a count of built-in ballast skills, globs of declared ones, or None."""
    if text is None or not str(text).strip():
        return None
    stripped = str(text).strip()
    if stripped.isdigit():
        return int(stripped)
    return parse_list("--typical-install", stripped)


def add_skill_narrowing(parser: argparse.ArgumentParser) -> None:
    """--skill and --only for the offline commands: which skills they check."""
    parser.add_argument("--skill", metavar="NAMES", help="check only these skills")
    parser.add_argument(
        "--only",
        metavar="IDS",
        help="check only the skills named here, or owning these case ids (takes precedence over --skill)",
    )


def add_strict(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--strict",
        action="store_true",
        help="count provisional cases (trust_level: provisional) toward the gate too",
    )


def add_case_selection(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--skill", metavar="NAMES", help="only the cases of these skills")
    parser.add_argument(
        "--only", metavar="IDS", help="only these case ids or skill names (takes precedence over --skill)"
    )
    parser.add_argument(
        "--extended",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="include each skill's evals/extended_evals.json (default: on)",
    )


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def non_negative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if value < 0 or value != value:
        raise argparse.ArgumentTypeError(f"{text} must be zero or more")
    return value


def whole_count(text: str) -> int:
    """A whole number, 0 or more."""
    return 0 if text.strip() == "0" else positive_int(text)


def confidence(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not 0.5 <= value < 1:
        raise argparse.ArgumentTypeError(f"{text}: give a level from 0.5 up to (not including) 1, e.g. 0.95")
    return value


AUTO_REPEAT_MAX = 5


def repeat_count(text: str) -> tuple[int, bool]:
    """`N` fixed samples per case, or `auto[:MAX]`: (most samples, adaptive)."""
    word, _, most = text.strip().lower().partition(":")
    if word != "auto":
        return positive_int(text), False
    try:
        return (positive_int(most) if most else AUTO_REPEAT_MAX), True
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"'{text}': after auto: give the most samples, e.g. auto:8"
        ) from None


def add_repeat(parser: argparse.ArgumentParser, what: str) -> None:
    """--repeat of a command that grades routing (routing, tune): `what` is its help."""
    parser.add_argument("--repeat", type=repeat_count, default=(1, False), metavar="N|auto[:MAX]", help=what)


def add_paid_run(parser: argparse.ArgumentParser) -> None:
    """Flags of every command that spends tokens: the result cache, a spend cap, a dry run, no question."""
    parser.add_argument(
        "--cache",
        metavar="DIR",
        help="reuse graded samples whose inputs did not change, and store new ones here; never "
        "inside the repo under test (default: the repo's folder in your user cache, "
        "$XDG_CACHE_HOME/skillscope/results/)",
    )
    parser.add_argument("--no-cache", action="store_true", help="neither reuse nor store graded samples")
    parser.add_argument(
        "--max-run-usd",
        type=non_negative,
        default=0.0,
        metavar="USD",
        help="no case starts once the run has spent this much; those cases are reported "
        "not-run and the run fails; 0 turns it off (default: 0)",
    )
    add_dry_run(parser)
    add_yes(parser)


def add_yes(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--yes",
        action="store_true",
        help="do not ask before the first paid request (a terminal is shown the plan and asked; "
        "elsewhere nothing is asked)",
    )


def add_dry_run(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="print the cases, the room, the agent CLI it would use, the exact command and an "
        "estimate of requests, tokens and cost, then stop without sending or starting anything "
        "(the agent CLI need not be installed)",
    )


def positive_seconds(text: str) -> float:
    # 0 would stop every run before it starts: a run of errors that says nothing.
    value = non_negative(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be more than 0 seconds")
    return value


@dataclass(frozen=True)
class Limit:
    """One limit flag of a paid command: its default, what it limits (for --help), and the default's
    words when it is None (compare: each mode's own)."""

    default: float | None
    what: str
    shown: str | None = None

    def help(self) -> str:
        return f"{self.what} (default: {self.shown or f'{self.default:g}'})"


def add_run_limits(
    parser: argparse.ArgumentParser, jobs: Limit, case_timeout: Limit, max_budget_usd: Limit
) -> None:
    """--jobs, --case-timeout and --max-budget-usd of a command that runs an agent."""
    parser.add_argument("--jobs", type=positive_int, default=jobs.default, help=jobs.help())
    parser.add_argument(
        "--case-timeout",
        type=positive_seconds,
        default=case_timeout.default,
        metavar="SECONDS",
        help=case_timeout.help(),
    )
    parser.add_argument(
        "--max-budget-usd",
        type=non_negative,
        default=max_budget_usd.default,
        metavar="USD",
        help=max_budget_usd.help(),
    )


def add_routing_stops(parser: argparse.ArgumentParser, unit: str = "case") -> None:
    """The stop rules of a routing run without a skill decision; `unit` is what they stop."""
    from harness.routing import limits  # the defaults the routing settings fall back to

    tools, inspections = limits.MAX_TOOL_CALLS, limits.MAX_INSPECTION_CALLS
    parser.add_argument(
        "--max-tool-calls",
        type=positive_int,
        default=tools,
        metavar="N",
        help=f"stop a {unit} after N tool calls without a skill decision (default: {tools})",
    )
    parser.add_argument(
        "--max-inspection-calls",
        type=positive_int,
        default=inspections,
        metavar="N",
        help=f"stop a {unit} after N calls that only read the installed skills (default: {inspections})",
    )


def blank_is_unset(text: str) -> str | None:
    """A blank value, as a workflow passes an input left empty, is the flag not given."""
    return text.strip() or None


def add_judge(parser: argparse.ArgumentParser, agent: str, model: str) -> None:
    """--judge-agent and --judge-model: who grades expected and unexpected behaviour."""
    parser.add_argument("--judge-agent", default="claude", choices=AGENTS, help=f"{agent} (default: claude)")
    parser.add_argument(
        "--judge-model",
        metavar="MODEL",
        help=f"{model}; a model of another family than the agent's grades more independently (default: "
        "the first --model, so one judge grades every model; else the judge CLI's own)",
    )


def add_warn(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--warn", metavar="RULES", help=what)


def add_strict_isolation(parser: argparse.ArgumentParser) -> None:
    """How a behavioral run treats an agent seen outside its workspace (behavioral, compare)."""
    parser.add_argument(
        "--strict-isolation",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="block a case whose trace shows paths outside its workspace (tool paths, paths its "
        "commands name, Bash working directories): never graded, run once more in a fresh workspace; "
        "--no-strict-isolation grades it and lists the paths as a warning (default: on)",
    )


def add_tripwire(parser: argparse.ArgumentParser) -> None:
    """The behavioral tripwire and the dataset-free scan it grades (behavioral)."""
    parser.add_argument(
        "--tripwire",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="plant honeytokens for each case (a fake ~/.ssh/id_rsa and ~/.aws/credentials in the "
        "agent's throwaway HOME, a .env in its workspace, each with its own random value) and point its "
        "tools at a loopback proxy that records and refuses every outbound attempt; a case whose agent "
        "reads or sends a honeytoken, or reaches a host or runs a network program its skill never "
        "names, fails, and so does the run (default: off)",
    )
    parser.add_argument(
        "--scan",
        action="store_true",
        help="needs no dataset: run one synthetic prompt per skill (use the skill for the purpose its "
        "description states) with --tripwire on, graded by the tripwire alone; a paid run like any "
        "other (--dry-run, --max-run-usd)",
    )


def add_require_evidence(parser: argparse.ArgumentParser) -> None:
    """What a judge's pass of a MUST statement with no evidence cited is worth (behavioral)."""
    parser.add_argument(
        "--require-evidence",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="make a case an error when the judge passes a statement the agent MUST have done without "
        "citing any evidence for it; without it such a pass counts and every report marks it "
        "(default: off)",
    )


def add_sandbox(parser: argparse.ArgumentParser, default: bool, commands: str) -> None:
    """The agent CLI's own shell sandbox, denying reads of the repo's skill folders (behavioral, routing)."""
    parser.add_argument(
        "--sandbox",
        action=argparse.BooleanOptionalAction,
        default=default,
        help=f"run the agent's shell commands ({commands}) in the CLI's own sandbox where this machine "
        "offers one, unable to read the repo's skill folders, .skillscope/ or the result cache "
        "(probed first; the report says whether it applied, and why not); --no-sandbox runs them "
        f"unconfined (default: {'on' if default else 'off'})",
    )


def add_routing_room(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--routing-room", metavar="SKILLS", help=what)


def add_install(parser: argparse.ArgumentParser) -> None:
    """--install copy|plugin: how the room reaches the agent."""
    parser.add_argument(
        "--install",
        choices=("copy", "plugin"),
        default="copy",
        help="agent engine: how the skills reach the agent; copy (default) copies each into the "
        "workspace's skills folder; plugin installs the plugins of the repo's marketplace for the agent "
        "(claude: .claude-plugin/, codex: .agents/plugins/, copilot: .github/plugin/marketplace.json) "
        "through its own plugin commands into its throwaway home, as users install them, and stops "
        "before any case when a skill of the run is not listed (claude, codex and copilot)",
    )


def add_no_canary(parser: argparse.ArgumentParser, head: str) -> None:
    """--no-canary, for every command that decides by activations; `head` says where it applies."""
    parser.add_argument(
        "--no-canary",
        action="store_true",
        help=f"{head}, the one planted skill each agent must activate on its own prompt before any case "
        "runs (one request per agent and model, cached per agent version and model); without it a run "
        "whose activations cannot be seen is an error, never a score",
    )
