"""The ``memory-tui`` command: bare, it opens the TUI; subcommands stay headless.

Modules: :mod:`.options` (shared vocabulary, a leaf), :mod:`.parser` (every subcommand),
:mod:`.main` (dispatch and exit codes), and the handlers: :mod:`.commands` (search, add,
list, get, delete, index, analyze, hook, stats, serve-mcp, the app), :mod:`.setup` (init),
:mod:`.sharing` (promote), :mod:`.status`, :mod:`.freshness` (hooks, watch, discover,
stale) and :mod:`.doctor`. Heavy modules
(LanceDB, the embedding model, Textual) are imported only by the commands that need them.
"""

from app.cli.main import main, run
from app.cli.parser import build_parser

__all__ = ["build_parser", "main", "run"]
