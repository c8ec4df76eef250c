"""One module per command, each exposing HELP, add_arguments(parser) and run(args, ctx) -> int; and, for a
command whose work is bounded by the repo it reads, bounded(args) -> bool (see harness.collector). A part
that most of a command's runs never reach may live in a module of its own, imported when reached
(routing_agent: the agent engine of `routing`)."""
