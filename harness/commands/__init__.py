"""One module per command, each exposing HELP, add_arguments(parser) and run(args, ctx) -> int."""
