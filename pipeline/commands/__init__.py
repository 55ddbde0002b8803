"""Each module here with a `register(subparsers)` function adds one `relic` subcommand.

A command sets `func` via `parser.set_defaults(run=callable)`; the callable takes the parsed
arguments and returns an exit code (0 clean, 1 content errors, 2 usage or internal error).
"""
