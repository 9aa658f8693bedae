"""The argument parser of ``memory-tui``: every subcommand and its options.

Command modules are imported inside :func:`build_parser`, so ``memory-tui --help`` and
the parser's tests import no engine code.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from app.cli.options import (
    CATEGORIES,
    FORMAT_HELP,
    FORMAT_METAVAR,
    MODES,
    PROG,
    SOURCES,
    VersionAction,
    common_options,
    format_value,
    limit_value,
    score_value,
)
from app.words import did_you_mean

NO_EMBED_HELP = (
    "return once the text is indexed (keyword search works at once); the vectors are "
    "computed by `memory-tui embed`, the next `index`, or in the background of serve-mcp, "
    "the TUI or watch"
)
"""The --no-embed option of index and init."""
STALE_HELP = "only entries whose cited code changed since they were written or last reviewed"


class Parser(argparse.ArgumentParser):
    """argparse, with an error in one line (what is wrong, then where help is) instead of
    the whole usage block above it; still exit status 2.

    No abbreviations (``--token`` is not taken for ``--token-file``): every parser of this
    class, the subcommands' included (argparse makes them of their parent's class), takes
    only whole option names. A mistyped command, choice or option gets the nearest known
    name; an unrecognised option's value is never repeated (it may be a secret meant for
    an option that does not exist)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        """argparse's, with :func:`unrecognized` saying what was not understood."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            command = _command_parser(self, parsed)
            names = [name for action in command._actions for name in action.option_strings]
            command.error(unrecognized(extras, names))
        return parsed

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # argparse's own check of ``choices`` (commands included), with the nearest choice.
        choices = action.choices
        if choices is None or value in choices or not isinstance(value, str):
            super()._check_value(action, value)
            return
        known = [str(choice) for choice in choices]
        hint = did_you_mean(value, known)
        if isinstance(action, argparse._SubParsersAction):  # --help lists the commands
            raise argparse.ArgumentError(None, f"unknown command '{value}'{hint}")
        message = f"unknown choice '{value}'{hint}; choose from {', '.join(known)}"
        raise argparse.ArgumentError(action, message)


def unrecognized(extras: Sequence[str], known: Sequence[str]) -> str:
    """What argparse did not understand, without repeating a value that may be a secret:
    an unknown option by its name only (``--token=…`` as ``--token``), and the word after
    it (maybe its value) left out; another stray word is shown."""
    shown: list[str] = []
    hidden = False
    after_option = False
    for word in extras:
        if word.startswith("-") and word != "-":
            name = word.split("=", 1)[0]
            hidden = hidden or name != word
            shown.append(name + did_you_mean(name, known))
            after_option = name == word
        elif after_option:
            hidden, after_option = True, False
        else:
            shown.append(repr(word))
    message = "unrecognized arguments: " + ", ".join(shown) if shown else "unrecognized arguments"
    return message + ("; the value given to an unknown option is not repeated" if hidden else "")


def _command_parser(
    parser: argparse.ArgumentParser, parsed: argparse.Namespace
) -> argparse.ArgumentParser:
    """The parser of the (sub)command that ``parsed`` ran: its options are the ones a
    mistyped option was meant for. argparse keeps a parser's actions in ``_actions``
    and has no public list of them."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            command = action.choices.get(getattr(parsed, action.dest, None) or "")
            if command is not None:
                return _command_parser(command, parsed)
    return parser


def query_value(text: str) -> str:
    """A search query: any text with something other than spaces in it."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the query is empty: give the words to look for")
    return text


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (subcommands register themselves here)."""
    from app.cli import commands

    common = common_options(in_subcommand=True)
    parser = Parser(
        prog=PROG,
        parents=[common_options(in_subcommand=False)],
        description="Local, searchable project memory for coding agents and people. "
        "Run without a command to open the terminal app.",
    )
    parser.add_argument("--version", action=VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, parents=[common], help=help_text, description=help_text)
        p.add_argument("--version", action=VersionAction)
        return p

    p = command("search", "Search the memory; prints results to stdout.")
    p.add_argument("query", type=query_value, help="what to look for (any text)")
    p.add_argument("--mode", choices=MODES, help="retrieval mode (default: from config, hybrid)")
    p.add_argument(
        "--format",
        type=format_value,
        metavar=FORMAT_METAVAR,
        help=f"output format (default: text; {FORMAT_HELP})",
    )
    p.add_argument("--json", action="store_true", help="same as --format json")
    p.add_argument("--limit", "-n", type=limit_value, help="most results (default: from config, 5)")
    p.add_argument("--category", choices=CATEGORIES, help="only entries of this category")
    p.add_argument(
        "--min-score",
        type=score_value,
        metavar="SCORE",
        help="relevance floor (0 to 1; 0 or less shows every candidate) for this search "
        "instead of the configured min_score (0.2); results show only when one reaches 0.5",
    )
    p.add_argument("--source", choices=SOURCES, help="only entries from this source")
    p.add_argument("--stale", action="store_true", help=STALE_HELP)
    p.set_defaults(handler=commands.search)

    p = command("add", "Add an entry (content as argument, or from stdin with '-').")
    p.add_argument("content", help="the text to remember, or '-' to read stdin")
    p.add_argument("--category", "-c", default="general", choices=CATEGORIES)
    p.add_argument("--keywords", "-k", default="", help="comma-separated keywords (at most 10)")
    p.add_argument("--json", action="store_true", help="print the stored entry as JSON")
    p.set_defaults(handler=commands.add)

    p = command("list", "List entries, newest first.")
    p.add_argument("--category", choices=CATEGORIES)
    p.add_argument("--source", choices=SOURCES)
    p.add_argument("--stale", action="store_true", help=STALE_HELP)
    p.add_argument("--limit", "-n", type=limit_value, default=20, help="most entries (1-1000)")
    p.add_argument(
        "--all", action="store_true", help="every entry, however many (with --json: a dump)"
    )
    p.add_argument(
        "--sort", choices=("recent", "refs"), default="recent", help="newest or most referenced"
    )
    p.add_argument(
        "--format",
        type=format_value,
        metavar=FORMAT_METAVAR,
        help="output format (default: text, one line per entry; json: as --json; csv, md "
        f"and xml: as `export` writes them; {FORMAT_HELP})",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(handler=commands.list_entries)

    from app.cli.export import register as register_export

    register_export(command)

    p = command("get", "Show one entry in full.")
    p.add_argument("id")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=commands.get)

    p = command("delete", "Delete entries by id.")
    p.add_argument("ids", nargs="+", metavar="ID")
    p.set_defaults(handler=commands.delete)

    p = command(
        "index",
        "Index the knowledge files under .claude/knowledge/ and the project's docs (README, "
        "docs/, the `sources` of the config; only what changed): text and keyword index "
        "first, then the vectors, with a progress bar.",
    )
    p.add_argument("--force", action="store_true", help="re-chunk every file, rebuild the index")
    p.add_argument(
        "--dry-run", action="store_true", help="report what would change, change nothing"
    )
    p.add_argument("--no-embed", action="store_true", help=NO_EMBED_HELP)
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(handler=commands.index)

    p = command(
        "embed",
        "Compute the vectors of entries indexed without them (index --no-embed, or an "
        "interrupted run); hybrid search uses their keywords until then.",
    )
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(handler=commands.embed)

    p = command(
        "init",
        "Set this repository up: folders, templates, MCP, hooks, index (interrupted, a "
        "second run resumes).",
    )
    p.add_argument("--skip-analyze", action="store_true", help="do not analyse the codebase")
    p.add_argument("--skip-index", action="store_true", help="do not index knowledge files")
    p.add_argument("--no-hooks", action="store_true", help="do not install the git hooks")
    p.add_argument(
        "--force", action="store_true", help="re-index every knowledge file, changed or not"
    )
    p.add_argument("--no-embed", action="store_true", help=NO_EMBED_HELP)
    from app.cli.setup import init

    p.set_defaults(handler=init)

    p = command("analyze", "Analyse the codebase into discovery entries (replaces the last run).")
    p.add_argument("--json", action="store_true", help="print the analysis summary as JSON")
    p.set_defaults(handler=commands.analyze)

    from app.cli.sharing import register as register_promote

    register_promote(command)

    p = command("hook", "Claude Code hooks (prompt, session start/end): event JSON on stdin.")
    p.set_defaults(handler=commands.prompt_hook)

    p = command("stats", "Counts by category and source.")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=commands.stats)

    from app.cli.freshness import register_commands

    register_commands(command)

    from app.cli.sources import register as register_import

    register_import(command)

    from app.cli.status import register as register_status

    register_status(command)

    from app.cli.doctor import register as register_doctor

    register_doctor(command)

    p = command(
        "serve-mcp",
        "Serve the memory to agents over MCP (stdio; --http for HTTP: one line on stderr "
        "says where; exit 3 when the port cannot be listened on).",
    )
    p.add_argument(
        "--http", action="store_true", help="serve streamable HTTP (at /mcp) instead of stdio"
    )
    p.add_argument("--host", default="127.0.0.1", help="HTTP address (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="HTTP port (default: 8765)")
    p.add_argument(
        "--token-file",
        type=Path,
        metavar="PATH",
        help="with --http: require the token in this file (readable only by you) on every "
        "request; or set MEMORY_TUI_HTTP_TOKEN. Required beyond loopback",
    )
    p.set_defaults(handler=commands.serve_mcp)
    return parser
