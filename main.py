"""罰則ガイド — OCG Penalty Guide. Entry point: parses the command line, then starts the app or
runs a command. See README.md for the contract."""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line on stderr, no usage dump
        sys.stderr.write(f"{self.prog}: {message}\n")
        raise SystemExit(2)


def positive_int(value: str) -> int:
    """An argument type: a whole number of 1 or more."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {number}")
    return number


def parse_args(argv: list[str]) -> argparse.Namespace:
    from regulation import APP_VERSION

    parser = _Parser(prog="main.py", description="OCG Penalty Guide (罰則ガイド)")
    parser.add_argument("--version", action="version", version=f"ocg-penalty-guide {APP_VERSION}")
    parser.add_argument("--web", action="store_true", help="serve the app on 127.0.0.1")
    parser.add_argument("--port", type=int, default=8550, help="port for --web (default 8550)")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)
    list_parser = commands.add_parser("list", help="every entry, in document order")
    list_parser.add_argument("--json", action="store_true")
    search_parser = commands.add_parser("search", help="ranked search, both languages")
    search_parser.add_argument("query")
    search_parser.add_argument("--limit", type=positive_int, default=10)
    search_parser.add_argument("--json", action="store_true")
    finder_parser = commands.add_parser("finder", help="the infraction finder's question tree")
    finder_parser.add_argument("--json", action="store_true")
    _add_log_parser(commands)
    return parser.parse_args(argv)


def _add_log_parser(commands: argparse._SubParsersAction) -> None:
    log_parser = commands.add_parser("log", help="the penalty log: add, list, export, import")
    log_commands = log_parser.add_subparsers(
        dest="log_command", metavar="add|list|export|import", required=True, parser_class=_Parser
    )
    add = log_commands.add_parser("add", help="record a penalty")
    add.add_argument("--player", required=True, metavar="NAME")
    add.add_argument("--player-id", metavar="ID")
    add.add_argument("--infraction", required=True, metavar="ID")
    add.add_argument("--tier", metavar="TIER_ID", help="default: the infraction's tier")
    add.add_argument("--round", type=int, metavar="N")
    add.add_argument("--table", metavar="T")
    add.add_argument("--note", metavar="TEXT")
    add.add_argument("--event", metavar="NAME", help="default: the current event")
    add.add_argument("--json", action="store_true")
    listing = log_commands.add_parser("list", help="an event's records, oldest first")
    listing.add_argument("--event", metavar="NAME")
    who = listing.add_mutually_exclusive_group()
    who.add_argument("--player", metavar="NAME")
    who.add_argument("--player-id", metavar="ID")
    listing.add_argument("--json", action="store_true")
    export = log_commands.add_parser("export", help="an event as CSV or JSON")
    export.add_argument("--event", metavar="NAME")
    export.add_argument("--format", required=True, choices=("csv", "json"))
    export.add_argument("-o", dest="output", metavar="FILE", help="default: standard output")
    imported = log_commands.add_parser("import", help="merge another device's JSON export")
    imported.add_argument("file", metavar="FILE")
    imported.add_argument("--json", action="store_true")


def run_command(args: argparse.Namespace) -> int:
    from regulation.cli import finder_command, list_command, search_command
    from regulation.finder import load_finder
    from regulation.loader import RegulationError, load_regulation

    try:
        regulation = load_regulation()
        # Only the finder command needs the tree; `list` and `search` work without it.
        finder = load_finder(regulation) if args.command == "finder" else None
    except (RegulationError, OSError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 1
    if finder is not None:
        finder_command(finder, args.json)
        return 0
    if args.command == "log":
        from records.cli import log_command

        return log_command(args, regulation)
    if args.command == "list":
        list_command(regulation, args.json)
        return 0
    return search_command(regulation, args.query, args.limit, args.json)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.command:
        try:
            return run_command(args)
        except BrokenPipeError:  # `main.py list | head`: the reader left, nothing is wrong
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
    from views.app import run_app

    return run_app(web=args.web, port=args.port)


if __name__ == "__main__":
    sys.exit(main())
