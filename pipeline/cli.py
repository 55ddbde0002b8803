"""The `relic` command line. Subcommands live in pipeline/commands/, one module each."""

from __future__ import annotations

import argparse
import atexit
import contextlib
import gc
import importlib
import os
import pkgutil
import signal
import sys
import traceback
from collections.abc import Sequence
from typing import Any

from pipeline import commands
from pipeline.diagnostics import RelicError

EXIT_CLEAN, EXIT_CONTENT, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as the shell's own tools end


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors exit 2 with one clean line
        self.print_usage(sys.stderr)
        print(f"relic: error[usage]: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def _command_modules(argv: Sequence[str]) -> list[Any]:
    """The command modules: only the named command's when the command line names one (a build
    does not pay for importing the simulator or the server), else every one (for the overview
    of `relic --help` and the choices listed for a mistyped command)."""
    names = sorted(info.name for info in pkgutil.iter_modules(commands.__path__))
    named = next((a for a in argv if not a.startswith("-")), None)
    if named in names:
        module = importlib.import_module(f"{commands.__name__}.{named}")
        if hasattr(module, "register"):
            return [module]
    return [importlib.import_module(f"{commands.__name__}.{name}") for name in names]


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """Every subcommand; a command module with `extend(argv)` may add options that depend on
    the command line (`relic sim --pack X` adds the options of X's game)."""
    parser = _Parser(prog="relic", description="Check, simulate and print tabletop game content.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    modules = _command_modules(argv)
    for module in modules:
        if hasattr(module, "register"):
            module.register(sub)
    for module in modules:
        if hasattr(module, "extend"):
            module.extend(list(argv))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except RelicError as exc:
        for d in exc.diagnostics:
            print(d.text(), file=sys.stderr)
        return EXIT_CONTENT
    except KeyboardInterrupt:
        print("relic: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (`relic ... | head`): stop, quietly
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except Exception as exc:
        if args.debug:
            traceback.print_exc()
        print(f"relic: error[internal]: {type(exc).__name__}: {exc}", file=sys.stderr)
        if not args.debug:
            print("relic: run again with --debug for a traceback", file=sys.stderr)
        return EXIT_USAGE


def on_interrupt() -> None:
    """Ctrl-C stops the work: a KeyboardInterrupt, and each stage cleans up as it unwinds. A
    second Ctrl-C while that runs ends the program at once, with every process it started: a
    cleanup that waits for a worker the first interrupt left half stopped would otherwise
    wait for ever."""

    def first(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGINT, again)
        raise KeyboardInterrupt

    def again(signum: int, frame: Any) -> None:
        processes = sys.modules.get("multiprocessing")
        for child in processes.active_children() if processes is not None else ():
            child.kill()
        os._exit(EXIT_INTERRUPTED)

    signal.signal(signal.SIGINT, first)


def run() -> None:
    """The `relic` program: `main()`, every exit handler, then the exit itself, without the
    interpreter's teardown: freeing a build's objects one by one takes about 0.1 s, and the
    operating system frees the process's memory at once."""
    # A build allocates many short-lived objects and few cycles: the collector's default of a
    # young-generation pass every 700 allocations cost about a tenth of a one-card edit.
    gc.set_threshold(50_000, 20, 20)
    on_interrupt()
    code = main()
    atexit._run_exitfuncs()  # multiprocessing's, logging's, temporary folders' cleanups
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:  # the reader went away before the last of the output
            code = EXIT_BROKEN_PIPE
        except (OSError, ValueError):
            pass
    os._exit(code)


if __name__ == "__main__":
    run()
