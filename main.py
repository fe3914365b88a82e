"""罰則ガイド — OCG Penalty Guide. Entry point: parses the command line, then starts the app or
runs a command. See README.md for the contract."""

from __future__ import annotations

import argparse
import io
import os
import sys
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from regulation.model import Regulation


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line on stderr, no usage dump
        sys.stderr.write(f"{self.prog}: {message}\n")
        raise SystemExit(2)


def port_number(text: str) -> int:
    """--port: 1-65535, or 0 for any free port (the one chosen is printed)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid port {text!r}: a number 0-65535") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"invalid port {port}: a number 0-65535")
    return port


def parse_args(argv: list[str]) -> argparse.Namespace:
    from regulation import APP_VERSION

    parser = _Parser(prog="main.py", description="OCG Penalty Guide (罰則ガイド)")
    parser.add_argument("--version", action="version", version=f"ocg-penalty-guide {APP_VERSION}")
    parser.add_argument("--web", action="store_true", help="serve the app on 127.0.0.1")
    parser.add_argument(
        "--port", type=port_number, default=8550, help="port for --web (default 8550; 0: any)"
    )
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)
    list_parser = commands.add_parser("list", help="every entry, in document order")
    list_parser.add_argument("--json", action="store_true")
    search_parser = commands.add_parser("search", help="ranked search, both languages")
    search_parser.add_argument("query")
    search_parser.add_argument("--limit", type=int, default=10)
    search_parser.add_argument("--json", action="store_true")
    return parser.parse_args(argv)


def check_data() -> Regulation | None:
    """The regulation, loaded and checked; None after one line on stderr saying what is wrong."""
    from regulation.loader import RegulationError, load_regulation

    try:
        return load_regulation()
    except (RegulationError, OSError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return None


def run_command(args: argparse.Namespace) -> int:
    from regulation.cli import list_command, search_command

    regulation = check_data()
    if regulation is None:
        return 1
    if args.command == "list":
        list_command(regulation, args.json, out=sys.stdout)
        return 0
    return search_command(regulation, args.query, args.limit, args.json, out=sys.stdout)


def use_utf8() -> None:
    """Output is UTF-8 whatever the console or locale (a Windows code page, LANG=C, …). A lone
    surrogate (undecodable bytes in an argument) is written as its \\udcXX escape."""
    for stream, errors in ((sys.stdout, "backslashreplace"), (sys.stderr, "backslashreplace")):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(encoding="utf-8", errors=errors)


def silence_stdout() -> None:
    """Points stdout at the null device, so that the interpreter's last flush of what is still
    buffered cannot fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        sys.stdout = None  # type: ignore[assignment]


def main(argv: list[str] | None = None) -> int:
    use_utf8()
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.command:
        if sys.stdout is None:  # started with stdout closed (`main.py list >&-`)
            if sys.stderr is not None:
                sys.stderr.write("error: cannot write the output: standard output is closed\n")
            return 1
        try:
            status = run_command(args)
            sys.stdout.flush()  # a write failure surfaces here, not at exit
            return status
        except BrokenPipeError:  # `main.py list | head`: the reader left, nothing is wrong
            silence_stdout()
            return 0
        except OSError as exc:  # a full disk, an I/O error
            silence_stdout()
            reason = exc.strerror or str(exc)
            sys.stderr.write(f"error: cannot write the output: {reason}\n")
            return 1
    if check_data() is None:  # a data fault is one line, before anything is served
        return 1
    from views.server import run_app

    return run_app(web=args.web, port=args.port)


if __name__ == "__main__":
    sys.exit(main())
