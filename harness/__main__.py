from harness.cli.entry import program

program()
