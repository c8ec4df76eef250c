"""The built-in ballast of `skillscope sweep` and structural's typical install (harness/data/ballast.json):
skills users have beside a catalog, written from templates across many trades so that their words,
lengths and shapes vary as a real marketplace's do. The file is generated, never edited by hand: after
changing a template, write it again with `python -m tests.support.ballast_data` (a test keeps the two
in step).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BALLAST_JSON = ROOT / "harness" / "data" / "ballast.json"
SEED = 20261206
COUNT = 1200

# (slug, what it works on, the file kinds or systems users name, words users say)
SUBJECTS = [
    ("pdf", "PDF documents", ".pdf files", ["PDF", "scanned pages", "form fields"]),
    ("excel", "Excel workbooks", ".xlsx and .xls files", ["spreadsheet", "pivot table", "cell formulas"]),
    ("csv", "CSV and TSV data files", "delimited text exports", ["columns", "rows", "headers"]),
    ("word", "Word documents", ".docx files", ["tracked changes", "headings", "comments"]),
    ("slides", "slide decks", ".pptx presentations", ["slides", "speaker notes", "layouts"]),
    ("markdown", "Markdown notes", ".md files", ["front matter", "tables of contents", "links"]),
    ("images", "raster images", "PNG, JPEG and WebP files", ["photos", "thumbnails", "crops"]),
    ("svg", "vector graphics", "SVG files", ["icons", "paths", "viewBox"]),
    ("audio", "audio recordings", "WAV and MP3 files", ["podcast", "transcript", "noise"]),
    ("video", "video clips", "MP4 and MOV files", ["subtitles", "frames", "trims"]),
    ("sql", "SQL queries", "PostgreSQL and MySQL databases", ["joins", "indexes", "query plans"]),
    ("mongo", "MongoDB collections", "document databases", ["aggregation pipelines", "indexes", "schemas"]),
    ("redis", "Redis caches", "key-value stores", ["TTL", "eviction", "keys"]),
    ("kafka", "Kafka topics", "event streams", ["consumers", "partitions", "offsets"]),
    ("k8s", "Kubernetes workloads", "manifests and Helm charts", ["pods", "deployments", "crash loops"]),
    ("docker", "container images", "Dockerfiles and compose files", ["layers", "base images", "builds"]),
    ("terraform", "Terraform configurations", ".tf modules and state", ["plans", "providers", "drift"]),
    ("aws", "AWS accounts", "CloudFormation stacks and IAM policies", ["S3 buckets", "Lambda", "roles"]),
    ("gcp", "Google Cloud projects", "gcloud configurations", ["Cloud Run", "BigQuery", "service accounts"]),
    ("azure", "Azure subscriptions", "ARM and Bicep templates", ["resource groups", "Functions", "AKS"]),
    ("ghactions", "GitHub Actions workflows", ".github/workflows YAML", ["jobs", "runners", "caches"]),
    ("gitlab", "GitLab CI pipelines", ".gitlab-ci.yml files", ["stages", "artifacts", "runners"]),
    ("git", "git repositories", "branches and commit history", ["rebase", "bisect", "merge conflicts"]),
    ("python", "Python projects", "pyproject.toml packages", ["virtualenvs", "type hints", "pytest"]),
    ("node", "Node.js packages", "package.json projects", ["npm scripts", "dependencies", "ESM"]),
    ("react", "React components", "JSX and TSX files", ["hooks", "props", "re-renders"]),
    ("css", "stylesheets", "CSS and Tailwind classes", ["layouts", "responsive design", "themes"]),
    ("rust", "Rust crates", "Cargo workspaces", ["borrow checker", "lifetimes", "clippy"]),
    ("go", "Go modules", "go.mod projects", ["goroutines", "interfaces", "benchmarks"]),
    ("java", "Java services", "Maven and Gradle builds", ["Spring Boot", "JUnit", "heap dumps"]),
    ("swift", "iOS apps", "Xcode projects", ["SwiftUI", "provisioning profiles", "TestFlight"]),
    ("android", "Android apps", "Gradle modules", ["Jetpack Compose", "APKs", "Play Console"]),
    ("api", "HTTP APIs", "OpenAPI specifications", ["endpoints", "status codes", "pagination"]),
    ("graphql", "GraphQL schemas", "SDL files and resolvers", ["queries", "mutations", "N+1"]),
    ("auth", "authentication flows", "OAuth and OpenID Connect settings", ["tokens", "login", "SSO"]),
    ("security", "application security", "dependency manifests and source code", ["CVEs", "secrets", "XSS"]),
    ("logs", "application logs", "JSON and syslog lines", ["errors", "stack traces", "log levels"]),
    ("metrics", "service metrics", "Prometheus and Grafana dashboards", ["alerts", "latency", "SLOs"]),
    ("incident", "production incidents", "pager alerts and timelines", ["outages", "postmortems", "on-call"]),
    ("release", "software releases", "changelogs and version tags", ["release notes", "semver", "tags"]),
    ("docs", "technical documentation", "READMEs and doc sites", ["tutorials", "API reference", "guides"]),
    ("i18n", "translations", "locale files and message catalogs", ["strings", "plurals", "locales"]),
    ("a11y", "accessibility", "web pages and components", ["screen readers", "contrast", "ARIA"]),
    ("seo", "search visibility", "web pages and sitemaps", ["meta tags", "rankings", "structured data"]),
    ("email", "email campaigns", "newsletters and templates", ["subject lines", "open rates", "bounces"]),
    ("calendar", "calendars", "meetings and events", ["invites", "availability", "time zones"]),
    ("invoice", "invoices", "billing records", ["line items", "VAT", "due dates"]),
    ("budget", "budgets", "expense sheets and forecasts", ["costs", "variance", "quarters"]),
    ("tax", "tax paperwork", "receipts and filings", ["deductions", "returns", "deadlines"]),
    ("contracts", "contracts", "legal agreements", ["clauses", "renewals", "signatures"]),
    (
        "hiring",
        "hiring pipelines",
        "job descriptions and candidate notes",
        ["interviews", "scorecards", "offers"],
    ),
    ("support", "customer support tickets", "help desk queues", ["escalations", "replies", "SLAs"]),
    ("sales", "sales pipelines", "CRM records", ["leads", "deals", "forecasts"]),
    ("marketing", "marketing copy", "landing pages and ads", ["headlines", "calls to action", "A/B tests"]),
    ("research", "research papers", "PDF articles and citations", ["abstracts", "references", "methods"]),
    (
        "stats",
        "statistical analyses",
        "datasets and notebooks",
        ["regressions", "p-values", "confidence intervals"],
    ),
    (
        "ml",
        "machine learning models",
        "training runs and checkpoints",
        ["hyperparameters", "evaluation", "overfitting"],
    ),
    ("notebook", "Jupyter notebooks", ".ipynb files", ["cells", "kernels", "outputs"]),
    ("charts", "charts", "plots and dashboards", ["bar charts", "axes", "legends"]),
    ("maps", "geographic data", "GeoJSON and shapefiles", ["coordinates", "layers", "projections"]),
    ("recipes", "recipes", "ingredient lists and meal plans", ["servings", "substitutions", "nutrition"]),
    ("travel", "trips", "itineraries and bookings", ["flights", "hotels", "visas"]),
    ("fitness", "training plans", "workout logs", ["sets", "heart rate", "recovery"]),
    ("music", "music scores", "MIDI and MusicXML files", ["chords", "tempo", "transposition"]),
    ("chess", "chess games", "PGN files", ["openings", "blunders", "engines"]),
    ("legal", "legal research", "case law and statutes", ["citations", "precedents", "jurisdictions"]),
    (
        "medical",
        "clinical notes",
        "discharge summaries and lab results",
        ["diagnoses", "medications", "ICD codes"],
    ),
    (
        "education",
        "lesson plans",
        "course outlines and quizzes",
        ["learning objectives", "rubrics", "grades"],
    ),
    ("social", "social media posts", "threads and captions", ["hashtags", "engagement", "scheduling"]),
    ("ecommerce", "online stores", "product catalogs", ["SKUs", "inventory", "checkout"]),
]

# (slug, verb phrase for what the skill does, the request a user makes, output)
TASKS = [
    (
        "convert",
        "Convert {what} to other formats",
        "convert, export or save {kind} as something else",
        "a converted file",
    ),
    (
        "extract",
        "Extract structured data from {what}",
        "pull {word0} or {word1} out of {kind}",
        "JSON or a table",
    ),
    (
        "review",
        "Review {what} for mistakes and risky patterns",
        "review, audit or critique {kind}",
        "a prioritised list of findings",
    ),
    ("summarize", "Summarize {what}", "summarise, condense or get the gist of {kind}", "a short summary"),
    (
        "generate",
        "Generate new {what} from a brief",
        "create, draft or scaffold {kind}",
        "a ready-to-edit draft",
    ),
    (
        "debug",
        "Debug problems in {what}",
        "fix, troubleshoot or investigate broken {kind}",
        "the root cause and a fix",
    ),
    (
        "optimize",
        "Optimize {what} for speed and size",
        "speed up, shrink or tune {kind}",
        "measured before-and-after numbers",
    ),
    (
        "validate",
        "Validate {what} against their rules",
        "check, lint or verify {kind}",
        "every violation with its location",
    ),
    (
        "migrate",
        "Migrate {what} to a newer version",
        "upgrade, port or move {kind}",
        "a step-by-step migration plan",
    ),
    ("compare", "Compare two versions of {what}", "diff or compare {kind}", "the differences that matter"),
    ("document", "Document {what}", "explain or write docs for {kind}", "a reference page"),
    (
        "test",
        "Write tests for {what}",
        "add tests or check coverage of {kind}",
        "test cases with expected results",
    ),
    ("monitor", "Monitor {what} over time", "watch, track or alert on {kind}", "a dashboard and alert rules"),
    ("clean", "Clean up {what}", "tidy, deduplicate or normalise {kind}", "a cleaned copy"),
    ("search", "Search across {what}", "find or look up {word0} in {kind}", "ranked matches with context"),
    (
        "plan",
        "Plan work on {what}",
        "plan, estimate or break down work on {kind}",
        "a checklist with estimates",
    ),
    (
        "explain",
        "Explain {what} to a newcomer",
        "understand or learn about {kind}",
        "a plain-language walkthrough",
    ),
    ("secure", "Harden {what}", "secure or lock down {kind}", "concrete hardening steps"),
]

TRIGGERS = [
    "Use when the user asks to {request}.",
    "Use this skill whenever someone wants to {request}, even if they do not say so directly.",
    "Trigger when the user mentions {word0}, {word1} or {word2} and wants to {request}.",
    "Use when working with {kind} and the user needs to {request}.",
    "Activate for requests to {request}; it also covers {word2}.",
]
BOUNDARIES = [
    "",
    " Not for {other}; use a dedicated skill for that.",
    " Do not use it for {other}.",
    " Does not handle {other}.",
    " Skip it when the task is only about {other}.",
]
DETAILS = [
    "Produces {output}.",
    "Returns {output} and notes any assumptions it made.",
    "Works offline and never uploads {kind}.",
    "Handles large inputs by working in chunks.",
    "Asks before overwriting existing files.",
    "Keeps the original untouched and writes results beside it.",
    "Follows the team's conventions when a style guide is present.",
    "Covers {word0}, {word1} and {word2}.",
    "Explains each change so a reviewer can follow it.",
    "Supports batch runs over a whole folder.",
    "Includes scripts for the repetitive steps and a checklist for the rest.",
    "Reports what it could not process instead of guessing.",
]


def description(rng: random.Random, subject: tuple, task: tuple, other: str) -> str:
    _, what, kind, words = subject
    _, verb, request, output = task
    fill = {
        "what": what,
        "kind": kind,
        "word0": words[0],
        "word1": words[1],
        "word2": words[2],
        "request": request.format(kind=kind, word0=words[0], word1=words[1]),
        "output": output,
        "other": other,
    }
    head = verb.format(**fill) + "."
    details = rng.sample(DETAILS, rng.choice((0, 1, 1, 2, 3, 4, 6, 8)))
    parts = [head, *(d.format(**fill) for d in details), rng.choice(TRIGGERS).format(**fill)]
    if rng.random() < 0.5:  # some authors lead with the trigger, as a marketplace mixes styles
        parts = [parts[-1], *parts[:-1]]
    return " ".join(parts) + rng.choice(BOUNDARIES).format(**fill)


def generate() -> list[dict[str, str]]:
    rng = random.Random(SEED)
    pairs = [(subject, task) for subject in SUBJECTS for task in TASKS]
    rng.shuffle(pairs)
    out = []
    for subject, task in pairs[:COUNT]:
        other = rng.choice([s for s in SUBJECTS if s is not subject])[1]
        out.append({"name": f"{subject[0]}-{task[0]}", "description": description(rng, subject, task, other)})
    return sorted(out, key=lambda item: item["name"])


def rendered() -> str:
    return json.dumps(generate(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    BALLAST_JSON.write_text(rendered(), encoding="utf-8")
