"""罰則ガイド — OCG Penalty Guide. Entry point: parses the command line, then starts the app or
runs a command. See docs/architecture.md ("Command line") for the contract."""

from __future__ import annotations

import argparse
import io
import os
import sys
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from regulation.finder import Finder
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
    parser.add_argument(
        "--port", type=port_number, default=8550, help="port for --web (default 8550; 0: any)"
    )
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
    _add_round_parser(commands)
    _add_sync_parser(commands)
    return parser.parse_args(argv)


def _add_log_parser(commands: argparse._SubParsersAction) -> None:
    log_parser = commands.add_parser("log", help="the penalty log: add, list, export, import…")
    log_commands = log_parser.add_subparsers(
        dest="log_command",
        metavar="add|list|export|import|edit|delete|restore",
        required=True,
        parser_class=_Parser,
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
    edit = log_commands.add_parser("edit", help="change a record's tier, round, table or note")
    edit.add_argument("record_id", metavar="RECORD_ID")
    edit.add_argument("--tier", metavar="TIER_ID")
    edit.add_argument("--round", type=int, metavar="N")
    edit.add_argument("--table", metavar="T")
    edit.add_argument("--note", metavar="TEXT")
    edit.add_argument("--json", action="store_true")
    for name, about in (
        ("delete", "delete a record (kept, restorable)"),
        ("restore", "undo a deletion"),
    ):
        changed = log_commands.add_parser(name, help=about)
        changed.add_argument("record_id", metavar="RECORD_ID")
        changed.add_argument("--json", action="store_true")


def _add_round_parser(commands: argparse._SubParsersAction) -> None:
    round_parser = commands.add_parser("round", help="the round clock: start, pause, extend")
    round_commands = round_parser.add_subparsers(
        dest="round_command",
        metavar="start|pause|resume|extend|status",
        required=True,
        parser_class=_Parser,
    )
    start = round_commands.add_parser("start", help="start a round, or correct its start")
    pause = round_commands.add_parser("pause", help="pause a round (an announcement)")
    resume = round_commands.add_parser("resume", help="resume a paused round")
    extend = round_commands.add_parser("extend", help="give a table extra time")
    status = round_commands.add_parser("status", help="a round's time (default: current)")
    for sub in (start, pause, resume, extend):
        sub.add_argument("number", metavar="N")
    status.add_argument("number", metavar="N", nargs="?")
    for sub in (start, pause, resume, status):
        sub.add_argument("--at", metavar="ISO", help="default: now (status: evaluated then)")
    start.add_argument("--minutes", type=int, metavar="M", help="the round's length")
    extend.add_argument("--table", required=True, metavar="T")
    extend.add_argument("--minutes", required=True, type=int, metavar="M")
    extend.add_argument("--record", metavar="UUID", help="the record of the call")
    for sub in (start, pause, resume, extend, status):
        sub.add_argument("--event", metavar="NAME", help="default: the current event")
        sub.add_argument("--json", action="store_true")


def _add_sync_parser(commands: argparse._SubParsersAction) -> None:
    sync_parser = commands.add_parser("sync", help="venue sync: one log for the judge team")
    sync_commands = sync_parser.add_subparsers(
        dest="sync_command",
        metavar="host|join|now|status|leave",
        required=True,
        parser_class=_Parser,
    )
    host = sync_commands.add_parser("host", help="share an event on the local network")
    host.add_argument("--bind", metavar="ADDRESS", help="default: the local network's addresses")
    host.add_argument("--port", type=port_number, metavar="P", help="default: 8765 (0: any)")
    host.add_argument("--event", metavar="NAME", help="default: the event hosted last or now")
    code = host.add_mutually_exclusive_group()
    code.add_argument("--code", metavar="CODE")
    code.add_argument("--new-code", action="store_true", help="the old code stops working")
    host.add_argument("--judge", metavar="NAME")
    host.add_argument("--json", action="store_true")
    join = sync_commands.add_parser("join", help="join a host and sync once")
    join.add_argument("address", metavar="ADDRESS")
    join.add_argument("--code", required=True, metavar="CODE")
    join.add_argument("--judge", metavar="NAME")
    join.add_argument("--json", action="store_true")
    for name, about in (("now", "sync with the host now"), ("status", "what sync is doing")):
        command = sync_commands.add_parser(name, help=about)
        command.add_argument("--json", action="store_true")
    sync_commands.add_parser("leave", help="stop syncing (or end hosting); the log stays")


def load_data(with_finder: bool, fault: str = "error") -> tuple[Regulation, Finder | None] | None:
    """The regulation (and the finder's tree, which only the app and `finder` read), loaded
    and checked; None after one line on stderr saying what is wrong (`fault`: error: …)."""
    from regulation.finder import load_finder
    from regulation.loader import RegulationError, load_regulation

    try:
        regulation = load_regulation()
        return regulation, load_finder(regulation) if with_finder else None
    except (RegulationError, OSError) as exc:
        sys.stderr.write(f"{fault}: {exc}\n")
        return None


def run_command(args: argparse.Namespace) -> int:
    from regulation.cli import finder_command, list_command, search_command

    # The judge's own log stays readable with the bundled data damaged: listed and exported
    # with ids in place of titles, after one line saying so.
    reads_log = args.command == "log" and args.log_command in ("list", "export")
    fault = (
        "warning: the log is shown with ids for titles, the app's data being unusable"
        if reads_log
        else "error"
    )
    loaded = load_data(with_finder=args.command == "finder", fault=fault)
    if loaded is None and reads_log:
        from records.cli import bare_regulation

        loaded = bare_regulation(), None
    if loaded is None:
        return 1
    regulation, finder = loaded
    if finder is not None:
        finder_command(finder, args.json, out=sys.stdout)
        return 0
    if args.command == "log":
        from records.cli import log_command

        return log_command(args, regulation)
    if args.command == "round":
        from records.cli_round import round_command

        return round_command(args, regulation)
    if args.command == "sync":
        from records.cli_sync import sync_command

        return sync_command(args, regulation)
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
        sys.stdout = None


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
    from regulation.loader import RegulationError
    from views.app import app_data
    from views.server import run_app

    try:  # a data fault is one line, before anything is served or shown
        app_data()
    except (RegulationError, OSError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 1

    return run_app(web=args.web, port=args.port)


if __name__ == "__main__":
    sys.exit(main())
