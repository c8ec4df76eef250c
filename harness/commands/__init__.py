"""One module per command, each exposing HELP, add_arguments(parser) and run(args, ctx) -> int; and, for a
command whose work is bounded by the repo it reads, bounded(args) -> bool (see harness.collector)."""
