"""The flags resolved into what a command works on: the repo, the catalog narrowed, the negatives,
the adoption in force, the agents, the checks' options (with the listing the headroom reads), the
cache folder, and the report paths checked before any work.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from pathlib import Path

from harness.checks import CheckOptions
from harness.cli.flags import AGENTS, FLAGS, parse_list, typical_install
from harness.context import Context
from harness.errors import UsageError
from harness.model import baseline as baseline_mod
from harness.model import repo as repo_mod
from harness.model import usage
from harness.model.baseline import Adoption
from harness.model.catalog import Catalog, Negatives
from harness.model.repo import Repo
from harness.model.usage import UsageProfile
from harness.paid.legs import Leg, model_entries, plan_legs
from harness.routing.room import resolve_room
from harness.writer import Refused, destination, streamed

REPORT_FILES = (("output", "--output"), ("summary", "--summary"), ("junit", "--junit"), ("html", "--html"))


def check_outputs(args: argparse.Namespace, cwd: Path, environ: dict[str, str] | None = None) -> None:
    """Every path a command will write its reports or logs to, checked before any work: a run that
    grades for an hour and then cannot write its report has wasted the hour. Relative to `cwd`; no
    symlink of the repo may lead one out of it (harness.writer)."""
    wanted = [
        (flag, cwd / value, False)
        for attr, flag in REPORT_FILES
        if (value := getattr(args, attr, None)) and not (attr == "output" and value == "-")  # stdout
    ]
    if getattr(args, "keep_logs", None):
        wanted.append(("--keep-logs", cwd / args.keep_logs, True))
    if not wanted:
        return
    root = repo_mod.find_root(getattr(args, "repo", None), environ or {}, cwd)
    for flag, path, folder in wanted:
        try:
            destination(path, root)
        except Refused as exc:
            raise UsageError(f"{flag} {path}: {exc.strerror}.") from None
        except OSError:
            pass  # a link loop: writable() below says it, as every other unusable path
        writable(flag, path, folder)


def writable(flag: str, path: Path, folder: bool) -> None:
    """A usage error unless `path` is (or can be created as) a writable file, or folder."""
    try:
        if path.exists():
            if folder != path.is_dir():
                want, found = ("a folder", "a file") if folder else ("a file path", "a folder")
                raise UsageError(f"{flag} {path} is {found}; pass {want}.")
            if not folder and streamed(path):  # a device or a FIFO: written into, never replaced
                return
            if not os.access(path, os.W_OK):
                raise UsageError(f"{flag} {path} cannot be written (permission denied); pass another path.")
            return
        ancestor = path.parent
        while not ancestor.exists():
            ancestor = ancestor.parent
    except OSError as exc:
        raise UsageError(
            f"{flag} {path} cannot be used ({exc.strerror or exc}); pass another path."
        ) from None
    except ValueError:  # a NUL in the path
        raise UsageError(f"{flag} holds a character no path can; pass another path.") from None
    if not ancestor.is_dir():
        raise UsageError(
            f"{flag} {path} cannot be created: {ancestor} is a file, not a folder; pass another path."
        )
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise UsageError(
            f"{flag} {path} cannot be created in {ancestor} (permission denied); pass another path."
        )


def ballast_of(
    value: int | list[str] | None, repo: Repo, flag: str, seed: int = 0
) -> tuple[tuple[str, str], ...] | None:
    """The skills a ballast flag names beside the catalog: a count drawn from the built-in set (seeded),
    the skills under the globs given, or None when the flag is unset."""
    if value is None:
        return None
    from harness.model import ballast  # with the flag only: the built-in set and its sampling

    catalog = set(repo.skill_dirs)
    if isinstance(value, int):
        pool = ballast.built_in().beside(dict.fromkeys(catalog, ""))
        if value > len(pool.skills):
            raise UsageError(
                f"{flag} {value}: the built-in ballast holds {len(pool.skills)} skills beside this catalog; "
                "give at most that many, or name the skill folders users have."
            )
        return tuple(pool.ordering(seed)[:value])
    return ballast.declared(repo.root, value, flag).beside(dict.fromkeys(catalog, "")).skills


def usage_of(args: argparse.Namespace, repo: Repo) -> UsageProfile:
    """--usage as a profile (root-relative); never used by every skill when it is not given."""
    given = (getattr(args, "usage", None) or "").strip()
    if not given:
        return usage.NEVER_USED
    return usage.load(repo.root / given, given)


def check_options(args: argparse.Namespace) -> CheckOptions:
    return CheckOptions(
        skill_files=tuple(parse_list("--skill-files", args.skill_files)),
        skill_sections=tuple(parse_list("--skill-sections", args.skill_sections)),
        docs=tuple(parse_list("--docs", args.docs)),
        collision_warn=args.collision_warn,
        collision_error=args.collision_error,
        packaging=True,
    )


def listing_options(args: argparse.Namespace, repo: Repo, options: CheckOptions) -> CheckOptions:
    """--agent (else every agent: a catalog shipped to several agents overflows some before others),
    --model (claude's budget follows the model) and --routing-room for listing-budget."""
    agents = tuple(agents_of(args)) if parse_list("--agent", args.agent) else AGENTS
    models = tuple((leg.agent, leg.model) for leg in legs_of(args, list(agents)) if leg.model)
    listed = parse_list("--routing-room", args.routing_room)
    room = resolve_room(listed, repo, allow_none=True, command="structural") if listed else []
    given = typical_install(args.typical_install)
    install = ballast_of(given, repo, "--typical-install") or ()
    profile = usage_of(args, repo)
    return dataclasses.replace(
        options,
        listing_agents=agents,
        listing_room=tuple(room),
        listing_models=models,
        install=install,
        install_source=str(args.typical_install).strip() if given is not None else "",
        usage=profile.pairs(),
        usage_source=profile.source,
    )


def negatives_from(args: argparse.Namespace) -> Negatives:
    given = vars(args)
    files = [path for value in given.get("negatives") or [] for path in parse_list("--negatives", value)]
    return Negatives(tuple(dict.fromkeys(files)), builtin=not given.get("no_builtin_negatives"))


def adoption(args: argparse.Namespace, root: Path, cwd: Path, baseline_flag: bool = True) -> Adoption:
    """The baseline (--baseline, else the repo's own), the rules --warn demotes and --error raises.
    Without `baseline_flag` the command's --baseline is not a baseline file (compare: a version)."""
    given = vars(args)
    demoted = parse_list("--warn", given.get("warn"))
    raised = parse_list("--error", given.get("error"))
    baseline_mod.known_rules(demoted)  # a misspelt rule is a usage error before any work
    baseline_mod.known_rules(raised, "--error")
    return Adoption(
        baseline_mod.load(given.get("baseline") if baseline_flag else None, root, cwd),
        tuple(demoted),
        tuple(raised),
    )


def resolve_repo(args: argparse.Namespace, ctx: Context) -> Repo:
    return repo_of(getattr(args, "repo", None), getattr(args, "skills_dir", None), ctx)


def repo_of(repo: str | None, raw: str | list[str] | None, ctx: Context) -> Repo:
    """The repo --repo names (else the one around the current directory) and its skills under
    --skills-dir `raw` (else its setting, else the repo's usual folders)."""
    root = repo_mod.find_root(repo, ctx.environ, ctx.cwd)
    given = skills_globs(raw, ctx)
    found = repo_mod.discover(root, given or repo_mod.default_globs(root, ctx.cwd))
    if not given:
        found.elsewhere = repo_mod.skills_below(root, found.globs)
        note = found.missed_note()
        if note:
            ctx.err(note)
    return found


def skills_globs(raw: str | list[str] | None, ctx: Context) -> list[str]:
    """The globs --skills-dir `raw` names (the flag, else the settings file's skills-dir, which the
    settings made its default unless the variable is set), else $SKILLSCOPE_SKILLS; empty when none says."""
    source = "--skills-dir"
    env = FLAGS["skills-dir"].env
    if raw is None and env is not None and ctx.environ.get(env):
        raw, source = ctx.environ[env], env
    return parse_list(source, raw)


def narrow(loaded: Catalog, args: argparse.Namespace) -> Catalog:
    """The catalog narrowed by --only (skill names or case ids), else --skill; else as loaded."""
    only, skills = parse_list("--only", args.only), parse_list("--skill", args.skill)
    if only:
        return loaded.narrowed(loaded.owners(only))
    if skills:
        unknown = [name for name in skills if name not in loaded.skills]
        if unknown:
            found = ", ".join(loaded.skills) or "none"
            raise UsageError(f"--skill {','.join(unknown)}: no such skill (skills found: {found}).")
        return loaded.narrowed(skills)
    return loaded


def agents_of(args: argparse.Namespace, flag: str = "--agent") -> list[str]:
    """The agents named by --agent: known names, each once, at least one (claude for a command without
    the flag)."""
    names = list(dict.fromkeys(parse_list(flag, getattr(args, flag.lstrip("-").replace("-", "_"), None))))
    unknown = [n for n in names if n not in AGENTS]
    if unknown:
        raise UsageError(f"{flag}: unknown agent {unknown[0]!r}; choose from {', '.join(AGENTS)}.")
    return names or ["claude"]


def pass_env_of(args: argparse.Namespace) -> tuple[str, ...]:
    """The variables --pass-env (or its setting) names, each once; a name of skillscope's own
    (SKILLSCOPE_*) or no variable's name is refused."""
    from harness.agent.environment import refused  # the agent stack, which a free run never needs

    names = tuple(dict.fromkeys(parse_list("--pass-env", getattr(args, "pass_env", None))))
    why = refused(names)
    if why:
        raise UsageError(why)
    return names


def cache_folder(given: str | None, off: bool, repo: Repo, ctx: Context) -> Path | None:
    """Where graded samples are kept: --cache `given` (from the current directory), else the repo's
    folder in the user's cache; None with --no-cache (`off`). A folder a commit could have filled is
    refused."""
    from harness.paid import cache  # paid/ loads the agent stack, which a free run never needs

    if off:
        return None
    if given:
        folder = (ctx.cwd / given).resolve()
        fix = "pass a folder outside it, or leave --cache out to use your user cache"
        cache.refuse_plantable(folder, repo.root, "--cache", fix, ctx.environ)
        return folder
    folder = cache.default_folder(repo.root, ctx.environ)
    source = "XDG_CACHE_HOME" if ctx.environ.get("XDG_CACHE_HOME") else "HOME"
    fix = f"point {source} outside it, or pass --cache DIR outside it"
    cache.refuse_plantable(folder, repo.root, f"The result cache (from {source})", fix, ctx.environ)
    return folder


def declared_defaults(parser: argparse.ArgumentParser) -> dict[str, object]:
    """Each flag's default as its command declares it (read before a settings file changes it), a
    default given as text parsed as argparse parses it."""
    return {
        action.dest: action.type(action.default)
        if isinstance(action.default, str) and callable(action.type)
        else action.default
        for action in parser._actions
    }


def refuse_unread(
    args: argparse.Namespace, declared: dict[str, object], from_file: dict[str, object]
) -> list[str]:
    """A flag the chosen --engine never reads, given on the command line, is a usage error, not a
    setting silently dropped. One the settings file set (`from_file`: dest -> the file's value, which
    the command line did not override) is put back to its declared default: a settings key never
    breaks a command. Returns those flags."""
    engine = getattr(args, "engine", None)
    if engine is None:  # a command with one way to run reads every flag it declares
        return []
    unread = [
        flag
        for flag in FLAGS.values()
        if flag.engine not in (None, engine)
        and getattr(args, "command", None) not in flag.either_engine_in
        and flag.dest in declared
        and getattr(args, flag.dest) != declared[flag.dest]
    ]
    ignored = [
        flag for flag in unread if flag.dest in from_file and getattr(args, flag.dest) == from_file[flag.dest]
    ]
    for flag in ignored:
        setattr(args, flag.dest, declared[flag.dest])
    given = [flag for flag in unread if flag not in ignored]
    if given:
        named = ", ".join(flag.option for flag in given)
        one = len(given) == 1
        raise UsageError(
            f"{named} {'applies' if one else 'apply'} to --engine {given[0].engine} only, and this run "
            f"uses --engine {engine}; drop {'it' if one else 'them'} or switch engines."
        )
    return [flag.option for flag in ignored]


def legs_of(args: argparse.Namespace, agents: list[str], flag: str = "--model") -> list[Leg]:
    """--agent x --model: each agent on each model meant for it (none given: the CLI's own)."""
    raw = getattr(args, flag.lstrip("-").replace("-", "_"), None)
    return plan_legs(agents, model_entries(flag, parse_list(flag, raw), AGENTS))


def one_model(args: argparse.Namespace, why: str, flag: str = "--model") -> str | None:
    """The one model a command that runs one takes; several are a usage error saying `why`."""
    models = [leg.model for leg in legs_of(args, agents_of(args), flag)]
    if len(set(models)) > 1:
        raise UsageError(f"{flag}: {why}; name one model.")
    return models[0]
