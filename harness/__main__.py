from harness.entry import program

program()
